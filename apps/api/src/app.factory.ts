import 'reflect-metadata';
import { createRequire } from 'node:module';
import type { Server } from 'node:http';
import type { Type } from '@nestjs/common';
import type { FastifyInstance } from 'fastify';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { Logger } from 'pino';
import { firstSerialisationRepeated, NO_ABLATIONS, type Ablations } from './http/ablations';
import { declareRequestContext } from './http/request-context';
import { createEnquiryCache } from './accounts/enquiry-cache';
import { AppModule } from './app.module';
import { registerCheckoutFormBody } from './checkout/form-body';
import type { AppConfig } from './config/app-config';
import { buildProviderRegistry } from './providers/provider-list';
import type { AccountNameProvider } from './providers/ports/account-names.port';
import type { Provider } from './providers/provider-registry';
import { settleProvidersOfRecord } from './providers-of-record';
import type { SqlClient } from './db/sql-client';
import { openPglite, openPostgres } from './db/sql-clients';
import type { Foundation } from './foundation';
import { ArrivedHeads } from './http/client-error';
import { registerExpectContinue } from './http/expect-continue';
import { ignoreUnknownExpectations } from './http/expect-header';
import { httpServerOptions } from './http/http-server-options';
import { registerRawJsonBody } from './http/json-body';
import { registerMetricsEndpoint } from './http/metrics-endpoint';
import { registerRequestHooks } from './http/request-hooks';
import { API_PREFIX, ROUTES } from './http/routes';
import { JobRunner } from './jobs/job-runner';
import { Readiness } from './lifecycle/readiness';
import { createLogger } from './logging/logger';
import { PinoNestLogger } from './logging/nest-logger';
import { MerchantStore } from './merchants/merchant-store';
import { openMerchants } from './merchants/merchants-boot';
import { Keyring } from './secrets/keyring';
import { ServiceMetrics } from './metrics/service-metrics';
import { InstrumentedNonceStore } from './nonce/instrumented-nonce-store';
import { MemoryNonceStore } from './nonce/memory-nonce-store';
import { NonceShareExceededError, NonceStoreFullError } from './nonce/nonce-store.interface';
import { RedisNonceStore } from './nonce/redis-nonce-store';
import { InstrumentedRateLimitStore } from './rate-limit/instrumented-rate-limit.store';
import { MemoryRateLimitStore } from './rate-limit/memory-rate-limit.store';
import { RedisRateLimitStore } from './rate-limit/redis-rate-limit.store';
import { providerWebhookAllowList } from './config/provider-webhooks-config';
import { registerProviderWebhooksGuard } from './rate-limit/provider-webhooks-guard.hook';
import { registerPublicPagesLimit } from './rate-limit/public-pages-limit.hook';
import { AddressLimiter } from './rate-limit/address-limiter';
import { KeyRateLimiter } from './rate-limit/key-rate-limiter';
import { RedisConnection } from './redis/redis-connection';
import { SCHEMA } from './schema';
import { registerSignatureCheck } from './signing/signature-check.hook';
import { registerSigningPrefilter } from './signing/signing-prefilter.hook';
import type { StoreName } from './stores/store-failure';
import { StoreProbe } from './stores/store-probe';
import { systemResolver } from './webhooks/webhook-target';

// Fastify accepts only a LogController of its own copy, so take it from the
// fastify that Nest's adapter loads, wherever npm placed it.
const { LogController } = createRequire(require.resolve('@nestjs/platform-fastify'))('fastify') as typeof import('fastify');

export interface CreateAppOptions {
  /** Replaces what the config would choose; tests inject clocks and stores here. */
  overrides?: Partial<Pick<Foundation, 'clock' | 'merchants' | 'nonceStore' | 'rateLimitStore' | 'enquiryCache' | 'accountNameProvider' | 'storeClock' | 'webhookResolver'>> & {
    /** The payin database (payins, the events outbox, webhook deliveries). */
    payinStore?: SqlClient;
    /** Providers registered beside those the configuration builds (a test's own adapter). */
    providers?: Provider[];
  };
  logger?: Logger;
  /** Controllers mounted beside the service's own, under the same prefix and hooks, the signature check included. */
  extraControllers?: Type[];
  /** False: the periodic jobs neither run on their own nor on a wake; a test runs each with `JobRunner.runNow`, so that what happened when is its choice. */
  startJobs?: boolean;
  /** Routes registered on Fastify itself, under the same hooks as Nest's (bench:server's twins of the bank list). */
  fastifyRoutes?: (fastify: FastifyInstance) => void;
  /** bench:server --ablate only (apps/api/bench/bench-server.ts): per-request components switched off, to measure each. */
  ablate?: Ablations;
}

/**
 * Builds what must exist before Nest starts: the stores the config asks for,
 * opened; fails at boot, with the reason, if one cannot be reached.
 */
export async function buildFoundation(
  config: AppConfig,
  logger: Logger,
  overrides: CreateAppOptions['overrides'] = {},
  listeningOrigin: () => string = () => `http://${config.host}:${config.port}`,
): Promise<Foundation> {
  const metrics = new ServiceMetrics();
  const clock = overrides.clock ?? Date.now;
  const redis = config.redisUrl && !(overrides.nonceStore && overrides.rateLimitStore) ? await RedisConnection.open(config.redisUrl) : undefined;
  const nonceStore =
    overrides.nonceStore ?? (redis ? new RedisNonceStore(redis, config.redisKeyPrefix) : new MemoryNonceStore({ maxEntries: config.nonceStoreMaxEntries, maxPerKey: config.nonceStoreMaxPerKey, now: clock }));
  const memoryNonces = nonceStore instanceof MemoryNonceStore ? nonceStore : undefined;
  if (memoryNonces) metrics.watchMemoryNonces(() => ({ held: memoryNonces.heldCount, tableBytes: memoryNonces.tableBytes }));
  const rateLimitStore = overrides.rateLimitStore ?? (redis ? new RedisRateLimitStore(redis, config.redisKeyPrefix) : new MemoryRateLimitStore());
  if (!overrides.payinStore && !config.databaseUrl) logger.info({ dataDir: config.dataDir }, 'opening the embedded payin database; its first start takes several seconds');
  const payinStore =
    overrides.payinStore ??
    (config.databaseUrl
      ? await openPostgres(config.databaseUrl, {
          logger,
          migrations: SCHEMA,
          migrationUrl: config.databaseMigrationUrl,
          pool: config.databasePool,
          warnWhenRuntimeCanAlterSchema: config.mode === 'production',
        })
      : await openPglite(config.dataDir, { logger, migrations: SCHEMA }));
  const merchantStore = new MerchantStore(payinStore, new Keyring(config.secretsKeyring), config.mode);
  const { registry: merchants, sync: merchantsSync } = overrides.merchants
    ? { registry: overrides.merchants, sync: undefined }
    : await openMerchants(merchantStore, config, { logger, metrics, clock });
  const probe = (store: StoreName, check: string, isRefusal?: (error: unknown) => boolean) => new StoreProbe({ store, check, metrics, logger, isRefusal });
  const redisCheck = config.redisUrl ? 'REDIS_URL and the Redis server' : 'the service process';
  const nonceProbe = probe('nonce store', redisCheck, (e) => e instanceof NonceShareExceededError || e instanceof NonceStoreFullError);
  const storeClock = overrides.storeClock ?? overrides.clock ?? 'database';
  // Bound once the registry exists: the adapter enquiries use is either a test's or one of the registry's.
  const enquiries: { names?: AccountNameProvider } = {};
  const providers = buildProviderRegistry({ config, client: payinStore, storeClock, metrics, logger, clock, enquiryNames: () => enquiries.names as AccountNameProvider }, overrides.providers);
  const enquiryNames = (enquiries.names = overrides.accountNameProvider ?? providers.enquiries);
  // Before anything is served: every object in flight has its provider of record configured, or the operator retired it.
  await settleProvidersOfRecord(payinStore, providers, { retired: config.retiredProviders, logger, metrics });
  return {
    config,
    clock,
    // A test that moves its own clock moves the store's with it; the service uses the database's.
    storeClock,
    logger,
    metrics,
    readiness: new Readiness(logger),
    jobs: new JobRunner({ logger, metrics }),
    merchants,
    merchantStore,
    merchantsSync,
    redis,
    nonceStore: new InstrumentedNonceStore(nonceStore, nonceProbe),
    nonceProbe,
    memoryNonces,
    rateLimitStore: new InstrumentedRateLimitStore(rateLimitStore, probe('rate-limit store', redisCheck)),
    payinStore,
    payinProbe: probe('payin store', config.databaseUrl ? 'DATABASE_URL and the PostgreSQL server' : `DATA_DIR (${config.dataDir}) and its disk`),
    enquiryCache: overrides.enquiryCache ?? (await createEnquiryCache(config.redisUrl, config.redisKeyPrefix)),
    accountNameProvider: enquiryNames,
    providers,
    webhookResolver: overrides.webhookResolver ?? systemResolver,
    publicOrigin: () => config.publicBaseUrl ?? listeningOrigin(),
  };
}

export async function createApp(config: AppConfig, options: CreateAppOptions = {}): Promise<NestFastifyApplication> {
  const logger = options.logger ?? createLogger(config);
  // The HTTP server exists only once the adapter does; links are built later, on request.
  const listening: { server?: Server; origin?: string } = {};
  // Kept once the server is bound: its address cannot change then, and reading it is a system call per checkout link.
  const origin = (): string => {
    if (listening.origin !== undefined) return listening.origin;
    const read = listeningOrigin(listening.server, config);
    if (listening.server?.listening) listening.origin = read;
    return read;
  };
  const foundation = await buildFoundation(config, logger, options.overrides, origin);
  if (config.mode === 'production' && config.accountNameProvider === 'sandbox') {
    logger.warn({ accountNameProvider: 'sandbox' }, 'production mode with the sandbox account-name provider: enquiries answer from fixed test accounts, not from banks');
  }
  reportUnconfiguredSeams(config, foundation.metrics, logger);
  foundation.metrics.watchRunbooks(() => config.runbookBaseUrl ?? `${foundation.publicOrigin()}${ROUTES.runbooks}`);
  // One line per request is logged by the onResponse hook, with the fields we choose.
  const heads = new ArrivedHeads();
  const ablate = options.ablate ?? NO_ABLATIONS;
  const serverOptions = httpServerOptions(config, logger, heads);
  const adapter = new FastifyAdapter({ ...serverOptions, ...(ablate.has('context') ? { genReqId: undefined } : {}), logController: new LogController({ disableRequestLogging: true }) });
  const fastify = adapter.getInstance();
  listening.server = fastify.server;
  heads.watch(fastify.server);
  if (!ablate.has('context')) declareRequestContext(fastify);
  if (ablate.has('serialisation')) fastify.setReplySerializer(firstSerialisationRepeated());
  ignoreUnknownExpectations(fastify.server);
  registerRawJsonBody(fastify, config.bodyLimitBytes);
  registerCheckoutFormBody(fastify, config.checkoutFormLimitBytes);
  const refusedAddresses = new AddressLimiter(foundation.rateLimitStore, 'refused', config.rateLimits.refusedPerAddressPerMinute);
  const publicPageAddresses = new AddressLimiter(foundation.rateLimitStore, 'public', config.rateLimits.publicPerAddressPerMinute);
  const docsAssetAddresses = new AddressLimiter(foundation.rateLimitStore, 'docs-assets', config.rateLimits.docsAssetsPerAddressPerMinute);
  registerRequestHooks(fastify, {
    metrics: foundation.metrics,
    isKnownApiKey: (apiKey) => foundation.merchants.merchantFor(apiKey) !== undefined,
    recordRefusal: async (address) => void (await refusedAddresses.hit(address)),
    shutdownGraceMs: config.shutdownGraceMs,
    ablate,
  });
  if (!ablate.has('prefilter')) registerSigningPrefilter(fastify, { config, clock: foundation.clock, merchants: foundation.merchants, refusedAddresses });
  registerSignatureCheck(fastify, {
    config,
    clock: foundation.clock,
    merchants: foundation.merchants,
    rateLimits: new KeyRateLimiter(foundation.rateLimitStore, config.rateLimits),
    nonces: foundation.nonceStore,
    ablate,
  });
  if (!ablate.has('idle-hooks')) {
    registerPublicPagesLimit(fastify, { refusedAddresses, publicPageAddresses, docsAssetAddresses, blockedAnswerDelayMs: config.rateLimits.blockedAnswerDelayMs });
    registerProviderWebhooksGuard(fastify, {
      allowList: providerWebhookAllowList(config.providerWebhooks),
      refusedAddresses,
      webhookAddresses: new AddressLimiter(foundation.rateLimitStore, 'provider-webhooks', config.providerWebhooks.perAddressPerMinute),
      bodyLimitBytes: config.providerWebhooks.bodyLimitBytes,
      blockedAnswerDelayMs: config.rateLimits.blockedAnswerDelayMs,
    });
    registerExpectContinue(fastify);
  }
  await registerMetricsEndpoint(fastify, foundation.metrics, config, logger);
  options.fastifyRoutes?.(fastify);

  const app = await NestFactory.create<NestFastifyApplication>(AppModule.forRoot(foundation, options.extraControllers, { errorFilter: !ablate.has('error-filter') }), adapter, {
    logger: new PinoNestLogger(logger),
    abortOnError: false,
    // Our raw-bytes parser must be the only JSON parser: a parsed body cannot be verified.
    bodyParser: false,
  });
  app.setGlobalPrefix(API_PREFIX);
  await app.init();
  await foundation.merchantsSync?.start();
  if (options.startJobs !== false && !ablate.has('jobs')) foundation.jobs.start();
  return app;
}

/**
 * A seam with no provider refuses every create, which is production's
 * default: one warning per seam at boot, and `paysign_provider_not_configured`
 * (PaysignProviderNotConfigured) while it lasts, so that it is never found
 * only by the merchants' 422s.
 */
function reportUnconfiguredSeams(config: AppConfig, metrics: ServiceMetrics, logger: Logger): void {
  const gateway = config.paymentGateway !== 'none';
  const payouts = config.payouts.provider !== 'none';
  metrics.providersConfigured({ gateway, payouts });
  if (!gateway) {
    logger.warn({ seam: 'gateway', PAYMENT_GATEWAY: 'none' }, 'no payment gateway (PAYMENT_GATEWAY=none): every payin create answers 422 GATEWAY_NOT_CONFIGURED until PAYMENT_GATEWAY names one');
  }
  if (!payouts) {
    logger.warn({ seam: 'payouts', PAYOUT_PROVIDER: 'none' }, 'no payout provider (PAYOUT_PROVIDER=none): every payout create answers 422 PAYOUT_PROVIDER_NOT_CONFIGURED until PAYOUT_PROVIDER names one');
  }
}

/** Where a sandbox service without PUBLIC_BASE_URL is reached: the address it listens on, loopback for a wildcard one. */
function listeningOrigin(server: Server | undefined, config: AppConfig): string {
  const address = server?.address();
  const port = address && typeof address === 'object' ? address.port : config.port;
  const host = ['0.0.0.0', '::', ''].includes(config.host) ? '127.0.0.1' : config.host.includes(':') ? `[${config.host}]` : config.host;
  return `http://${host}:${port}`;
}
