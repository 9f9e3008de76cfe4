import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyAdapter } from '@nestjs/platform-fastify';
import type { Logger } from 'pino';
import type { AppConfig } from '../config/app-config';
import { answerClientError, answerRouterError, type ArrivedHeads } from './client-error';

type FastifyOptions = NonNullable<ConstructorParameters<typeof FastifyAdapter>[0]>;

/** An incoming X-Request-Id is kept when it is this safe to log and echo: a UUID or any short token. */
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The HTTP server's limits and identity, from the config: every timeout set, no unbounded wait. */
export function httpServerOptions(config: AppConfig, logger: Logger, heads: ArrivedHeads): Omit<FastifyOptions, 'logController'> {
  return {
    loggerInstance: logger,
    bodyLimit: config.bodyLimitBytes,
    genReqId: (request: IncomingMessage) => {
      const given = request.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
    requestIdHeader: false,
    trustProxy: fastifyTrustProxy(config.trustProxy),
    requestTimeout: config.requestTimeoutMs,
    connectionTimeout: config.connectionTimeoutMs,
    keepAliveTimeout: config.keepAliveTimeoutMs,
    // Node checks request and head timeouts every connectionsCheckingInterval ms (30 s by default), so a stalled request would outlive its limit by up to that.
    // requireHostHeader: Node would answer a request without Host with a bare 400; request-hooks.ts refuses it with the error body instead.
    http: { headersTimeout: config.headersTimeoutMs, connectionsCheckingInterval: 1000, requireHostHeader: false },
    clientErrorHandler: (error: NodeJS.ErrnoException, socket: Socket) => answerClientError(error, socket, config, logger, heads),
    frameworkErrors: answerRouterError,
    forceCloseConnections: 'idle',
    return503OnClosing: true,
  } as Omit<FastifyOptions, 'logController'>;
}

/**
 * TRUST_PROXY as Fastify takes it. A hop count is given as the hop test
 * itself: Fastify reads a bare number as trusting no hop at all, since a
 * count cannot tell a proxy from a client that reaches the service
 * directly. TRUST_PROXY's count is the operator's word that only that many
 * proxies of theirs stand in front (docs/operations.md), as it was before.
 */
export function fastifyTrustProxy(trust: false | number | string): false | string | ((address: string, hop: number) => boolean) {
  if (typeof trust !== 'number') return trust;
  return (_address, hop) => hop < trust;
}
