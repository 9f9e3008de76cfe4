import type { FastifyReply, FastifyRequest } from 'fastify';
import { toErrorResponse } from './error-response';
import { htmlErrorPageOf } from './html-error-page';

export function sendError(error: unknown, request: FastifyRequest, reply: FastifyReply): void {
  const { status, body } = toErrorResponse(error, request.id, request.routeOptions.bodyLimit);
  request.outcome = body.code;
  // Expected outcomes (a bank timing out, a store down) are in the request log line; only the unexpected gets a stack.
  if (body.code === 'INTERNAL_ERROR') request.log.error({ err: error instanceof Error ? { name: error.name, message: error.message, stack: error.stack } : String(error) }, 'request failed');
  const page = htmlErrorPageOf(request);
  if (page) {
    // A route a browser reads (the checkout) answers with a page of its own, never JSON.
    const { html, headers } = page({ status, message: body.message, requestId: body.requestId });
    void reply.status(status).headers({ ...headers, 'content-type': 'text/html; charset=utf-8' }).send(html);
    return;
  }
  void reply.status(status).header('content-type', 'application/json; charset=utf-8').send(body);
}
