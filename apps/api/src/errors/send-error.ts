import type { FastifyReply, FastifyRequest } from 'fastify';
import { toErrorResponse } from './error-response';

export function sendError(error: unknown, request: FastifyRequest, reply: FastifyReply): void {
  const { status, body } = toErrorResponse(error, request.id, request.routeOptions.bodyLimit);
  request.outcome = body.code;
  // Expected outcomes (a bank timing out, a store down) are in the request log line; only the unexpected gets a stack.
  if (body.code === 'INTERNAL_ERROR') request.log.error({ err: error instanceof Error ? { name: error.name, message: error.message, stack: error.stack } : String(error) }, 'request failed');
  void reply.status(status).header('content-type', 'application/json; charset=utf-8').send(body);
}
