import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { Logger } from 'pino';
import './http/request-context';
import { createEnquiryCache } from './accounts/enquiry-cache';
import { SandboxAccountNameProvider } from './accounts/sandbox-account-name.provider';
import { AppModule, type AppDependencies } from './app.module';
import type { AppConfig } from './config/app-config';
import { BODY_LIMIT_BYTES, registerRawJsonBody } from './http/json-body';
import { createLogger } from './logging/logger';
import { MerchantRegistry } from './merchants/merchant-registry';
import { MemoryNonceStore } from './nonce/memory-nonce-store';
import { RedisNonceStore } from './nonce/redis-nonce-store';
import { SqlPayinRepository } from './payins/sql-payin.repository';
import { openPglite, openPostgres } from './payins/sql-clients';

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
  const merchants = overrides.merchants ?? MerchantRegistry.fromFile(config.merchantsFile);
  const nonceStore = overrides.nonceStore ?? (config.redisUrl ? await RedisNonceStore.connect(config.redisUrl) : new MemoryNonceStore());
  const payinRepository =
    overrides.payinRepository ?? new SqlPayinRepository(config.databaseUrl ? await openPostgres(config.databaseUrl) : await openPglite(config.dataDir));
  return {
    config,
    clock: overrides.clock ?? Date.now,
    merchants,
    nonceStore,
    payinRepository,
    enquiryCache: overrides.enquiryCache ?? createEnquiryCache(config.redisUrl),
    accountNameProvider: overrides.accountNameProvider ?? new SandboxAccountNameProvider(),
  };
}

export async function createApp(config: AppConfig, options: CreateAppOptions = {}): Promise<NestFastifyApplication> {
  const logger = options.logger ?? createLogger(config);
  const deps = await buildDependencies(config, options.overrides);
  const adapter = new FastifyAdapter({
    loggerInstance: logger,
    // One line per request is logged by the onResponse hook below, with the fields we choose.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: BODY_LIMIT_BYTES,
    genReqId: () => randomUUID(),
    requestIdHeader: false,
    forceCloseConnections: 'idle',
    return503OnClosing: true,
  });
  const fastify = adapter.getInstance();
  registerRawJsonBody(fastify);
  fastify.addHook('onRequest', async (request, reply) => {
    void reply.header('X-Request-Id', request.id);
  });
  // Responses that finish after shutdown began close their connection, so that a
  // keep-alive client cannot hold the server open once its request is answered.
  let closing = false;
  fastify.addHook('preClose', async () => {
    closing = true;
  });
  fastify.addHook('onSend', async (_request, reply) => {
    if (closing) void reply.header('connection', 'close');
  });
  fastify.addHook('onResponse', async (request, reply) => {
    request.log.info(
      {
        requestId: request.id,
        method: request.method,
        path: request.url.split('?')[0],
        status: reply.statusCode,
        merchantId: request.merchant?.merchantId,
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
