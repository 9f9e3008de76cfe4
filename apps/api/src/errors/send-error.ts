import type { FastifyReply, FastifyRequest } from 'fastify';
import { isCheckoutRoute } from '../checkout/checkout-route';
import { checkoutCsp } from '../checkout/checkout.controller';
import { renderMessagePage } from '../checkout/checkout-page';
import { toErrorResponse } from './error-response';

export function sendError(error: unknown, request: FastifyRequest, reply: FastifyReply): void {
  const { status, body } = toErrorResponse(error, request.id, request.routeOptions.bodyLimit);
  request.outcome = body.code;
  // Expected outcomes (a bank timing out, a store down) are in the request log line; only the unexpected gets a stack.
  if (body.code === 'INTERNAL_ERROR') request.log.error({ err: error instanceof Error ? { name: error.name, message: error.message, stack: error.stack } : String(error) }, 'request failed');
  if (isCheckoutRoute(request)) {
    // The customer's browser gets a page, never JSON: the same message, no request internals.
    const html =
      status >= 500
        ? renderMessagePage('Something went wrong', `This payment could not be loaded just now; nothing was charged. Try again in a moment. (Request ${body.requestId})`)
        : renderMessagePage('This request could not be processed', `${body.message} (Request ${body.requestId})`);
    void reply.status(status).header('content-type', 'text/html; charset=utf-8').header('content-security-policy', checkoutCsp()).header('referrer-policy', 'no-referrer').send(html);
    return;
  }
  void reply.status(status).header('content-type', 'application/json; charset=utf-8').send(body);
}
