import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';

/**
 * Answers `Expect: 100-continue` only once the request's head is accepted.
 * Left to itself, Node sends `100 Continue` the moment the head arrives, so a
 * client refused by an onRequest hook (an unsigned request, an unknown API
 * key) would first be told to send its body. With a `checkContinue` listener
 * Node sends nothing, and the request goes on as any other; the `100` is sent
 * in preParsing, which runs after every onRequest hook and before the body is
 * read. A refusal is answered without it, as RFC 9110 section 10.1.1 allows.
 */
export function registerExpectContinue(fastify: FastifyInstance): void {
  // The requests Node judged to expect a 100 (HTTP/1.1 with that Expect value): only those get one.
  const expecting = new WeakSet<IncomingMessage>();
  fastify.server.on('checkContinue', (request: IncomingMessage, response: ServerResponse) => {
    expecting.add(request);
    fastify.server.emit('request', request, response);
  });
  // With a callback, not async: it runs on every request, and an async hook costs a promise each.
  fastify.addHook('preParsing', (request, reply, payload, done) => {
    if (expecting.has(request.raw) && !reply.raw.headersSent) reply.raw.writeContinue();
    done(null, payload);
  });
}
