import 'reflect-metadata';
import { createRequire } from 'node:module';
import type { Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { Logger } from 'pino';
import './http/request-context';
import type { Server } from 'node:http';
import { createEnquiryCache } from './accounts/enquiry-cache';
import { CheckoutLinks } from './payins/checkout-links';
import { CheckoutTokens } from './payins/checkout-tokens';
import { registerCheckoutFormBody } from './checkout/form-body';
import { PaymentGateways } from './gateways/payment-gateways';
import { PayinExpirySweeper } from './payins/payin-expiry-sweeper';
import type { SqlClient } from './db/sql-client';
import { SqlWebhookEventRepository } from './webhooks/sql-webhook-event.repository';
import { WebhookDispatcher } from './webhooks/webhook-dispatcher';
import { EventOutbox } from './events/event-outbox';
import { PayinEvents } from './payins/payin-events';
import { systemResolver, type Resolver } from './webhooks/webhook-target';
import { SandboxAccountNameProvider } from './accounts/sandbox-account-name.provider';
import { AppModule, type AppDependencies } from './app.module';
import type { AppConfig } from './config/app-config';
import { httpServerOptions } from './http/http-server-options';
import { registerRawJsonBody } from './http/json-body';
import { registerRequestHooks } from './http/request-hooks';
import { API_PREFIX } from './http/routes';
import { Readiness } from './lifecycle/readiness';
import { createLogger } from './logging/logger';
import { PinoNestLogger } from './logging/nest-logger';
import { MerchantRegistry } from './merchants/merchant-registry';
import { MerchantsFileWatcher } from './merchants/merchants-file-watcher';
import { registerMetricsEndpoint } from './http/metrics-endpoint';
import { ServiceMetrics } from './metrics/service-metrics';
import { MemoryNonceStore } from './nonce/memory-nonce-store';
import { NonceShareExceededError, NonceStoreFullError } from './nonce/nonce-store.interface';
import { RedisNonceStore } from './nonce/redis-nonce-store';
import { SqlPayinRepository } from './payins/sql-payin.repository';
import { openPglite, openPostgres } from './db/sql-clients';
import { SCHEMA } from './schema';
import { MemoryRateLimitStore } from './rate-limit/memory-rate-limit.store';
import { RedisRateLimitStore } from './rate-limit/redis-rate-limit.store';
import { RedisConnection } from './redis/redis-connection';
import { RefusedAddressLimiter } from './rate-limit/refused-address-limiter';
import { registerSigningPrefilter } from './signing/signing-prefilter.hook';
import { InstrumentedNonceStore } from './nonce/instrumented-nonce-store';
import { InstrumentedPayinRepository } from './payins/instrumented-payin.repository';
import { InstrumentedRateLimitStore } from './rate-limit/instrumented-rate-limit.store';
import { StoreHealth } from './health/store-health';
import type { StoreName } from './stores/store-failure';
import { StoreProbe } from './stores/store-probe';

// Fastify accepts only a LogController of its own copy, so take it from the
// fastify that Nest's adapter loads, wherever npm placed it.
const { LogController } = createRequire(require.resolve('@nestjs/platform-fastify'))('fastify') as typeof import('fastify');

export interface CreateAppOptions {
  /** Replaces any dependency built from the config; tests inject clocks and stores here. */
  overrides?: Partial<Pick<AppDependencies, 'clock' | 'merchants' | 'nonceStore' | 'rateLimitStore' | 'enquiryCache' | 'accountNameProvider'>> & {
    /** The payin store's database (payins and their webhook outbox). */
    payinStore?: SqlClient;
    /** How webhook receivers' host names resolve; tests play DNS tricks here. */
    webhookResolver?: Resolver;
  };
  logger?: Logger;
  /** Controllers mounted beside the service's own, under the same prefix, guards and hooks. */
  extraControllers?: Type[];
}

/** Builds the stores the config asks for. Fails at boot, with the reason, if one cannot be reached. */
export async function buildDependencies(
  config: AppConfig,
  logger: Logger,
  overrides: CreateAppOptions['overrides'] = {},
  listeningOrigin: () => string = () => `http://${config.host}:${config.port}`,
): Promise<AppDependencies> {
  const metrics = new ServiceMetrics();
  const merchants = overrides.merchants ?? MerchantRegistry.fromFile(config.merchantsFile, { mode: config.mode });
  const merchantsWatcher = overrides.merchants
    ? undefined
    : new MerchantsFileWatcher(merchants, { file: config.merchantsFile, mode: config.mode, intervalMs: config.merchantsWatchIntervalMs, logger });
  const redis = config.redisUrl && !(overrides.nonceStore && overrides.rateLimitStore) ? await RedisConnection.open(config.redisUrl) : undefined;
  const nonceStore =
    overrides.nonceStore ?? (redis ? new RedisNonceStore(redis) : new MemoryNonceStore({ maxEntries: config.nonceStoreMaxEntries, maxPerKey: config.nonceStoreMaxPerKey }));
  if (nonceStore instanceof MemoryNonceStore) metrics.watchMemoryNonces(() => ({ held: nonceStore.heldCount, tableBytes: nonceStore.tableBytes }));
  const rateLimitStore = overrides.rateLimitStore ?? (redis ? new RedisRateLimitStore(redis) : new MemoryRateLimitStore());
  if (!overrides.payinStore && !config.databaseUrl) logger.info({ dataDir: config.dataDir }, 'opening the embedded payin database; its first start takes several seconds');
  const payinStore = overrides.payinStore ?? (config.databaseUrl ? await openPostgres(config.databaseUrl, { logger, migrations: SCHEMA }) : await openPglite(config.dataDir, { logger, migrations: SCHEMA }));
  const probe = (store: StoreName, check: string, isRefusal?: (error: unknown) => boolean) => new StoreProbe({ store, check, metrics, logger, isRefusal });
  const redisCheck = config.redisUrl ? 'REDIS_URL and the Redis server' : 'the service process';
  const clock = overrides.clock ?? Date.now;
  const payinProbe = probe('payin store', config.databaseUrl ? 'DATABASE_URL and the PostgreSQL server' : `DATA_DIR (${config.dataDir}) and its disk`);
  const outbox = new EventOutbox((config.webhooks.retryScheduleSeconds[0] ?? 0) * 1000);
  const instrumentedPayins = new InstrumentedPayinRepository(new SqlPayinRepository(payinStore, outbox), payinProbe);
  const nonceProbe = probe('nonce store', redisCheck, (e) => e instanceof NonceShareExceededError || e instanceof NonceStoreFullError);
  const instrumentedNonces = new InstrumentedNonceStore(nonceStore, nonceProbe);
  const checkoutLinks = new CheckoutLinks(new CheckoutTokens(config.checkoutTokenSecret), () => config.publicBaseUrl ?? listeningOrigin());
  const payinEvents = new PayinEvents(outbox, checkoutLinks);
  const webhookEvents = new SqlWebhookEventRepository(payinStore);
  metrics.watchWebhookQueue(() => webhookEvents.pendingCount());
  return {
    config,
    clock,
    logger,
    redis,
    metrics,
    readiness: new Readiness(logger),
    merchants,
    merchantsWatcher,
    nonceStore: instrumentedNonces,
    rateLimitStore: new InstrumentedRateLimitStore(rateLimitStore, probe('rate-limit store', redisCheck)),
    payinRepository: instrumentedPayins,
    storeHealth: new StoreHealth(
      { nonceStore: { probe: nonceProbe, ping: () => instrumentedNonces.ping() }, payinStore: { probe: payinProbe, ping: () => instrumentedPayins.ping() } },
      config.healthProbeIntervalMs,
    ),
    payinSweeper: new PayinExpirySweeper({ payins: instrumentedPayins, eventOf: payinEvents.eventOf, clock, logger, intervalMs: config.payinSweepIntervalMs, batchSize: config.payinSweepBatchSize }),
    gateways: PaymentGateways.forMode(config.mode),
    checkoutLinks,
    payinEvents,
    webhookEvents,
    webhookDispatcher: new WebhookDispatcher({ events: webhookEvents, merchants, settings: config.webhooks, clock, logger, metrics, resolve: overrides.webhookResolver ?? systemResolver }),
    enquiryCache: overrides.enquiryCache ?? createEnquiryCache(config.redisUrl),
    accountNameProvider: overrides.accountNameProvider ?? new SandboxAccountNameProvider(),
  };
}

export async function createApp(config: AppConfig, options: CreateAppOptions = {}): Promise<NestFastifyApplication> {
  const logger = options.logger ?? createLogger(config);
  // The HTTP server exists only once the adapter does; links are built later, on request.
  const listening: { server?: Server } = {};
  const deps = await buildDependencies(config, logger, options.overrides, () => listeningOrigin(listening.server, config));
  if (config.mode === 'production' && config.accountNameProvider === 'sandbox') {
    logger.warn({ accountNameProvider: 'sandbox' }, 'production mode with the sandbox account-name provider: enquiries answer from fixed test accounts, not from banks');
  }
  // One line per request is logged by the onResponse hook, with the fields we choose.
  const adapter = new FastifyAdapter({ ...httpServerOptions(config, logger), logController: new LogController({ disableRequestLogging: true }) });
  const fastify = adapter.getInstance();
  listening.server = fastify.server;
  registerRawJsonBody(fastify, config.bodyLimitBytes);
  registerCheckoutFormBody(fastify, config.checkoutFormLimitBytes);
  const refusedAddresses = new RefusedAddressLimiter(deps.rateLimitStore, config.rateLimits.refusedPerAddressPerMinute);
  registerRequestHooks(fastify, {
    metrics: deps.metrics,
    isKnownApiKey: (apiKey) => deps.merchants.merchantFor(apiKey) !== undefined,
    recordRefusal: (address) => refusedAddresses.recordRefusal(address),
    shutdownGraceMs: config.shutdownGraceMs,
  });
  registerSigningPrefilter(fastify, { config, clock: deps.clock, merchants: deps.merchants, refusedAddresses });
  await registerMetricsEndpoint(fastify, deps.metrics, config, logger);

  const app = await NestFactory.create<NestFastifyApplication>(AppModule.forRoot(deps, options.extraControllers), adapter, {
    logger: new PinoNestLogger(logger),
    abortOnError: false,
    // Our raw-bytes parser must be the only JSON parser: a parsed body cannot be verified.
    bodyParser: false,
  });
  app.setGlobalPrefix(API_PREFIX);
  await app.init();
  deps.merchantsWatcher?.start();
  deps.storeHealth.start();
  deps.payinSweeper.start();
  deps.webhookDispatcher.start();
  return app;
}

/** Where a sandbox service without PUBLIC_BASE_URL is reached: the address it listens on, loopback for a wildcard one. */
function listeningOrigin(server: Server | undefined, config: AppConfig): string {
  const address = server?.address();
  const port = address && typeof address === 'object' ? address.port : config.port;
  const host = ['0.0.0.0', '::', ''].includes(config.host) ? '127.0.0.1' : config.host.includes(':') ? `[${config.host}]` : config.host;
  return `http://${host}:${port}`;
}
