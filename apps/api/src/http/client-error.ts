import { randomUUID } from 'node:crypto';
import * as http from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { ApiException } from '../errors/api.exception';
import { toErrorResponse } from '../errors/error-response';
import { sendError } from '../errors/send-error';

/**
 * The connections whose current request has sent its whole head: a timeout
 * on one of them is the whole request's (REQUEST_TIMEOUT_MS), on any other
 * the head's (HEADERS_TIMEOUT_MS). Node reports both with one code.
 */
export class ArrivedHeads {
  /**
   * Each connection's latest request, from the moment its head arrived: while
   * it is incomplete (its body still arriving), a timeout is the whole
   * request's. Node stops the request's timer exactly when it completes. One
   * map write a request, and no listener; the entry goes with the connection.
   */
  private readonly requests = new WeakMap<Socket, http.IncomingMessage>();

  watch(server: http.Server): void {
    server.on('request', (request: http.IncomingMessage) => {
      this.requests.set(request.socket, request);
    });
  }

  has(socket: Socket): boolean {
    const request = this.requests.get(socket);
    return request !== undefined && !request.complete;
  }
}

/**
 * Answers what Node's HTTP parser refuses before Fastify sees a request (a
 * request that did not arrive in time, an oversized head, malformed HTTP) with
 * the documented error body, logs it, and closes the connection.
 */
export function answerClientError(
  error: NodeJS.ErrnoException,
  socket: Socket,
  limits: { requestTimeoutMs: number; headersTimeoutMs: number; bodyLimitBytes: number },
  logger: Logger,
  heads: ArrivedHeads,
): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const exception =
    error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? new ApiException('REQUEST_TIMEOUT', { timeoutMs: heads.has(socket) ? limits.requestTimeoutMs : limits.headersTimeoutMs })
      : error.code === 'HPE_HEADER_OVERFLOW'
        ? new ApiException('HEADERS_TOO_LARGE', {})
        : new ApiException('MALFORMED_REQUEST', {});
  const requestId = randomUUID();
  const { status, body } = toErrorResponse(exception, requestId, limits.bodyLimitBytes);
  logger.info({ requestId, status, outcome: body.code, clientAddress: socket.remoteAddress, reason: error.code }, 'request refused by the HTTP parser');
  if (socket.writable) {
    const json = JSON.stringify(body);
    socket.write(
      `HTTP/1.1 ${status} ${http.STATUS_CODES[status] ?? ''}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(json)}\r\nX-Request-Id: ${requestId}\r\nConnection: close\r\n\r\n${json}`,
    );
  }
  socket.destroy();
}

/** What Fastify's router refuses as a path it cannot read: a percent-encoding that does not decode, a path parameter longer than it reads. */
const UNREADABLE_PATH = new Set(['FST_ERR_BAD_URL', 'FST_ERR_MAX_PARAM_LENGTH']);

/**
 * Answers what Fastify's router refuses before any route or hook runs, which
 * it would otherwise answer with a body of its own: an unreadable path is
 * 400 MALFORMED_REQUEST with the documented error body, logged.
 */
export function answerRouterError(error: Error & { code?: string }, request: FastifyRequest, reply: FastifyReply): void {
  request.log.info({ requestId: request.id, reason: error.code, clientAddress: request.ip }, 'request refused by the router');
  void reply.header('X-Request-Id', request.id);
  sendError(UNREADABLE_PATH.has(error.code ?? '') ? new ApiException('MALFORMED_REQUEST', {}) : error, request, reply);
}
