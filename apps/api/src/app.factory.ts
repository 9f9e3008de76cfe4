import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import * as http from 'node:http';
import { createRequire } from 'node:module';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { Logger } from 'pino';
import './http/request-context';
import { createEnquiryCache } from './accounts/enquiry-cache';
import { SandboxAccountNameProvider } from './accounts/sandbox-account-name.provider';
import { AppModule, type AppDependencies } from './app.module';
import type { AppConfig } from './config/app-config';
import { ApiException } from './errors/api.exception';
import { toErrorResponse } from './errors/error-response';
import { registerRawJsonBody } from './http/json-body';
import { createLogger } from './logging/logger';
import { MerchantRegistry } from './merchants/merchant-registry';
import { MemoryNonceStore } from './nonce/memory-nonce-store';
import { RedisNonceStore } from './nonce/redis-nonce-store';
import { SqlPayinRepository } from './payins/sql-payin.repository';
import { openPglite, openPostgres } from './payins/sql-clients';
import { MemoryRateLimitStore } from './rate-limit/memory-rate-limit.store';
import { RedisRateLimitStore } from './rate-limit/redis-rate-limit.store';
import { RefusedAddressLimiter } from './rate-limit/refused-address-limiter';
import { registerSigningPrefilter } from './signing/signing-prefilter.hook';
import type { Socket } from 'node:net';

// Fastify accepts only a LogController of its own copy, so take it from the
// fastify that Nest's adapter loads, wherever npm placed it.
const { LogController } = createRequire(require.resolve('@nestjs/platform-fastify'))('fastify') as typeof import('fastify');

export interface CreateAppOptions {
  /** Replaces any dependency built from the config; tests inject clocks and stores here. */
  overrides?: Partial<Omit<AppDependencies, 'config'>>;
  logger?: Logger;
}

/** Builds the stores the config asks for. Fails at boot, with the reason, if one cannot be reached. */
export async function buildDependencies(config: AppConfig, overrides: CreateAppOptions['overrides'] = {}): Promise<AppDependencies> {
  const merchants = overrides.merchants ?? MerchantRegistry.fromFile(config.merchantsFile, { mode: config.mode });
  const nonceStore =
    overrides.nonceStore ??
    (config.redisUrl ? await RedisNonceStore.connect(config.redisUrl) : new MemoryNonceStore({ maxEntries: config.nonceStoreMaxEntries, maxPerKey: config.nonceStoreMaxPerKey }));
  const rateLimitStore = overrides.rateLimitStore ?? (config.redisUrl ? await RedisRateLimitStore.connect(config.redisUrl) : new MemoryRateLimitStore());
  const payinRepository =
    overrides.payinRepository ?? new SqlPayinRepository(config.databaseUrl ? await openPostgres(config.databaseUrl) : await openPglite(config.dataDir));
  return {
    config,
    clock: overrides.clock ?? Date.now,
    merchants,
    nonceStore,
    rateLimitStore,
    payinRepository,
    enquiryCache: overrides.enquiryCache ?? createEnquiryCache(config.redisUrl),
    accountNameProvider: overrides.accountNameProvider ?? new SandboxAccountNameProvider(),
  };
}

export async function createApp(config: AppConfig, options: CreateAppOptions = {}): Promise<NestFastifyApplication> {
  const logger = options.logger ?? createLogger(config);
  const deps = await buildDependencies(config, options.overrides);
  if (config.mode === 'production' && config.accountNameProvider === 'sandbox') {
    logger.warn({ accountNameProvider: 'sandbox' }, 'production mode with the sandbox account-name provider: enquiries answer from fixed test accounts, not from banks');
  }
  const adapter = new FastifyAdapter({
    loggerInstance: logger,
    // One line per request is logged by the onResponse hook below, with the fields we choose.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: config.bodyLimitBytes,
    genReqId: () => randomUUID(),
    requestIdHeader: false,
    trustProxy: config.trustProxy,
    requestTimeout: config.requestTimeoutMs,
    connectionTimeout: config.connectionTimeoutMs,
    keepAliveTimeout: config.keepAliveTimeoutMs,
    // Node checks request and head timeouts every connectionsCheckingInterval ms (30 s by default), so a stalled request would outlive its limit by up to that.
    http: { headersTimeout: config.headersTimeoutMs, connectionsCheckingInterval: 1000 },
    clientErrorHandler: (error: NodeJS.ErrnoException, socket: Socket) => answerClientError(error, socket, config, logger),
    forceCloseConnections: 'idle',
    return503OnClosing: true,
  });
  const fastify = adapter.getInstance();
  registerRawJsonBody(fastify, config.bodyLimitBytes);
  fastify.addHook('onRequest', async (request, reply) => {
    void reply.header('X-Request-Id', request.id);
  });
  const refusedAddresses = new RefusedAddressLimiter(deps.rateLimitStore, config.rateLimits.refusedPerAddressPerMinute);
  registerSigningPrefilter(fastify, { config, clock: deps.clock, merchants: deps.merchants, refusedAddresses });
  // Responses that finish after shutdown began close their connection, so that a
  // keep-alive client cannot hold the server open once its request is answered.
  let closing = false;
  fastify.addHook('preClose', async () => {
    closing = true;
    // Idle connections close at once; one still busy (a request whose body never finishes) is cut after the grace period, so shutdown always ends.
    setTimeout(() => fastify.server.closeAllConnections(), config.shutdownGraceMs).unref();
  });
  fastify.addHook('onSend', async (_request, reply) => {
    if (closing) void reply.header('connection', 'close');
  });
  fastify.addHook('onResponse', async (request, reply) => {
    // Refusals before the signature verified count against the address; a replayed nonce of a verified key does not.
    if (reply.statusCode === 401 && request.signedApiKey === undefined) {
      await refusedAddresses.recordRefusal(request.ip).catch((error: Error) => request.log.warn({ err: error.message }, 'could not count a refused request against its address'));
    }
    request.log.info(
      {
        requestId: request.id,
        method: request.method,
        path: request.url.split('?')[0],
        status: reply.statusCode,
        merchantId: request.merchant?.merchantId,
        clientAddress: request.ip,
        outcome: request.outcome ?? (reply.statusCode < 400 ? 'OK' : `HTTP_${reply.statusCode}`),
        durationMs: Math.round(reply.elapsedTime),
      },
      'request completed',
    );
  });

  const app = await NestFactory.create<NestFastifyApplication>(AppModule.forRoot(deps), adapter, {
    logger: false,
    abortOnError: false,
    // Our raw-bytes parser must be the only JSON parser: a parsed body cannot be verified.
    bodyParser: false,
  });
  app.setGlobalPrefix('payment');
  await app.init();
  return app;
}

/**
 * Answers what Node's HTTP parser refuses before Fastify sees a request (a
 * request that did not arrive in time, an oversized head, malformed HTTP) with
 * the documented error body, logs it, and closes the connection.
 */
function answerClientError(error: NodeJS.ErrnoException, socket: Socket, config: AppConfig, logger: Logger): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const exception =
    error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? new ApiException('REQUEST_TIMEOUT', { timeoutMs: config.requestTimeoutMs })
      : error.code === 'HPE_HEADER_OVERFLOW'
        ? new ApiException('HEADERS_TOO_LARGE', {})
        : new ApiException('MALFORMED_REQUEST', {});
  const requestId = randomUUID();
  const { status, body } = toErrorResponse(exception, requestId, config.bodyLimitBytes);
  logger.info({ requestId, status, outcome: body.code, clientAddress: socket.remoteAddress, reason: error.code }, 'request refused by the HTTP parser');
  if (socket.writable) {
    const json = JSON.stringify(body);
    socket.write(
      `HTTP/1.1 ${status} ${http.STATUS_CODES[status] ?? ''}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(json)}\r\nX-Request-Id: ${requestId}\r\nConnection: close\r\n\r\n${json}`,
    );
  }
  socket.destroy();
}
