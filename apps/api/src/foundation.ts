import { Global, Inject, Module, type BeforeApplicationShutdown, type DynamicModule, type OnApplicationShutdown } from '@nestjs/common';
import type { Logger } from 'pino';
import type { AccountNameProvider } from './providers/ports/account-names.port';
import type { EnquiryCache } from './accounts/enquiry-cache';
import type { AppConfig } from './config/app-config';
import { AppConfigToken } from './config/app-config.token';
import { Clock } from './config/clock';
import type { SqlClient } from './db/sql-client';
import type { StoreClock } from './db/store-clock';
import { JobRunner } from './jobs/job-runner';
import { Readiness } from './lifecycle/readiness';
import { ServiceLogger } from './logging/logger';
import type { MerchantRegistry } from './merchants/merchant-registry';
import type { MerchantStore } from './merchants/merchant-store';
import type { MerchantsSync } from './merchants/merchants-sync';
import { ServiceMetrics } from './metrics/service-metrics';
import type { MemoryNonceStore } from './nonce/memory-nonce-store';
import type { NonceStore } from './nonce/nonce-store.interface';
import type { RateLimitStore } from './rate-limit/rate-limit-store.interface';
import type { RedisConnection } from './redis/redis-connection';
import type { StoreProbe } from './stores/store-probe';
import { ProviderRegistry } from './providers/provider-registry';
import { ProviderHealth } from './upstream/provider-circuit';
import { PublicOrigin } from './http/routes';
import { WebhookResolver, type Resolver } from './webhooks/webhook-target';

/**
 * What exists before Nest starts: the config, the logger and metrics, and the
 * stores the config chose, opened. The HTTP hooks that run before any
 * controller (the signing pre-filter, refusal counting, metrics) need them
 * already, and a store that cannot be reached must stop the boot with its
 * reason; so the app factory builds them, and the feature modules take their
 * part from here.
 */
export interface Foundation {
  config: AppConfig;
  clock: Clock;
  storeClock: StoreClock;
  logger: Logger;
  metrics: ServiceMetrics;
  readiness: Readiness;
  /** Every periodic job of this instance; started once the app is up, stopped before the stores close. */
  jobs: JobRunner;
  merchants: MerchantRegistry;
  /** The merchants in the database, with their secrets sealed by SECRETS_KEYRING. */
  merchantStore: MerchantStore;
  /** Keeps `merchants` equal to the database; absent when a test gave the merchants in code. */
  merchantsSync: MerchantsSync | undefined;
  /** The connection the Redis stores share, when REDIS_URL is set. */
  redis: RedisConnection | undefined;
  nonceStore: NonceStore;
  nonceProbe: StoreProbe;
  /** The in-memory nonce store when REDIS_URL is unset, whose expired nonces a job sweeps. */
  memoryNonces: MemoryNonceStore | undefined;
  rateLimitStore: RateLimitStore;
  /** The payin database: payins, the events outbox and webhook deliveries. */
  payinStore: SqlClient;
  payinProbe: StoreProbe;
  enquiryCache: EnquiryCache;
  accountNameProvider: AccountNameProvider;
  /** Every configured provider by id, and the ones selected for new objects. */
  providers: ProviderRegistry;
  /** How webhook receivers' host names resolve. */
  webhookResolver: Resolver;
  /** The origin checkout links are built on: PUBLIC_BASE_URL, or where this instance listens. */
  publicOrigin: () => string;
}

/** Injection token of the Foundation. */
export const Foundation = Symbol('Foundation');

/** Stops the jobs before anything closes, then closes the stores once everything else has stopped. */
class FoundationLifecycle implements BeforeApplicationShutdown, OnApplicationShutdown {
  constructor(@Inject(Foundation) private readonly foundation: Foundation) {}

  async beforeApplicationShutdown(): Promise<void> {
    await this.foundation.merchantsSync?.stop();
    await this.foundation.jobs.stop();
  }

  async onApplicationShutdown(): Promise<void> {
    const { nonceStore, rateLimitStore, payinStore, enquiryCache, redis, logger } = this.foundation;
    await Promise.allSettled([nonceStore.close(), rateLimitStore.close(), payinStore.close(), enquiryCache.disconnect()]);
    await redis?.close();
    logger.info('shutdown: stores closed');
  }
}

/** The Foundation for every module: the values all of them use, by their tokens. */
@Global()
@Module({})
export class FoundationModule {
  static forRoot(foundation: Foundation): DynamicModule {
    const shared = [
      { provide: Foundation, useValue: foundation },
      { provide: AppConfigToken, useValue: foundation.config },
      { provide: Clock, useValue: foundation.clock },
      { provide: ServiceLogger, useValue: foundation.logger },
      { provide: ServiceMetrics, useValue: foundation.metrics },
      { provide: Readiness, useValue: foundation.readiness },
      { provide: JobRunner, useValue: foundation.jobs },
      { provide: PublicOrigin, useValue: foundation.publicOrigin },
      { provide: ProviderRegistry, useValue: foundation.providers },
      { provide: ProviderHealth, useValue: (() => foundation.providers.health()) satisfies ProviderHealth },
      // Hand-built so that tests can resolve receivers' names their own way.
      { provide: WebhookResolver, useValue: foundation.webhookResolver },
    ];
    return { module: FoundationModule, providers: [...shared, FoundationLifecycle], exports: shared.map((provider) => provider.provide) };
  }
}
