import { randomUUID } from 'node:crypto';
import * as http from 'node:http';
import type { Socket } from 'node:net';
import type { Logger } from 'pino';
import { ApiException } from '../errors/api.exception';
import { toErrorResponse } from '../errors/error-response';

/**
 * Answers what Node's HTTP parser refuses before Fastify sees a request (a
 * request that did not arrive in time, an oversized head, malformed HTTP) with
 * the documented error body, logs it, and closes the connection.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Socket, limits: { requestTimeoutMs: number; bodyLimitBytes: number }, logger: Logger): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const exception =
    error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? new ApiException('REQUEST_TIMEOUT', { timeoutMs: limits.requestTimeoutMs })
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
