import { Module, type DynamicModule, type OnApplicationShutdown, type Type } from '@nestjs/common';
import { APP_FILTER, APP_GUARD } from '@nestjs/core';
import { AccountEnquiryService } from './accounts/account-enquiry.service';
import { AccountNameProvider } from './accounts/account-name-provider.interface';
import { AccountsController } from './accounts/accounts.controller';
import { EnquiryCache } from './accounts/enquiry-cache';
import { BanksController } from './banks/banks.controller';
import type { Logger } from 'pino';
import type { AppConfig } from './config/app-config';
import { AppConfigToken } from './config/app-config.token';
import { Clock } from './config/clock';
import { DocsController } from './docs/docs.controller';
import { ApiExceptionFilter } from './errors/api-exception.filter';
import { HealthController } from './health/health.controller';
import { StoreHealth } from './health/store-health';
import { Readiness } from './lifecycle/readiness';
import { MerchantsFileWatcher } from './merchants/merchants-file-watcher';
import type { ServiceMetrics } from './metrics/service-metrics';
import type { RedisConnection } from './redis/redis-connection';
import { MerchantRegistry } from './merchants/merchant-registry';
import { NonceStore } from './nonce/nonce-store.interface';
import { PayinRepository } from './payins/payin-repository.interface';
import { PayinsController } from './payins/payins.controller';
import { PayinsService } from './payins/payins.service';
import type { PayinExpirySweeper } from './payins/payin-expiry-sweeper';
import { SandboxSimulationController } from './payins/sandbox-simulation.controller';
import { CheckoutController } from './checkout/checkout.controller';
import { CheckoutLinks } from './payins/checkout-links';
import { PaymentGateways } from './gateways/payment-gateways';
import { SqlWebhookEventRepository } from './webhooks/sql-webhook-event.repository';
import type { WebhookDispatcher } from './webhooks/webhook-dispatcher';
import { PayinEvents } from './payins/payin-events';
import { WebhookEventsController } from './webhooks/webhook-events.controller';
import { RateLimitStore } from './rate-limit/rate-limit-store.interface';
import { KeyRateLimiter } from './rate-limit/key-rate-limiter';
import { SignatureGuard } from './signing/signature.guard';

/** Everything the service depends on outside itself, built by the app factory. */
export interface AppDependencies {
  config: AppConfig;
  clock: Clock;
  logger: Logger;
  /** The Redis connection the Redis stores share, when REDIS_URL is set. */
  redis: RedisConnection | undefined;
  metrics: ServiceMetrics;
  readiness: Readiness;
  merchants: MerchantRegistry;
  /** Absent when the merchants were given in code rather than by MERCHANTS_FILE. */
  merchantsWatcher: MerchantsFileWatcher | undefined;
  nonceStore: NonceStore;
  rateLimitStore: RateLimitStore;
  payinRepository: PayinRepository;
  /** Whether the nonce and payin stores answer, for readiness; pings them in the background once started. */
  storeHealth: StoreHealth<'nonceStore' | 'payinStore'>;
  /** Abandons expired payins on this instance; started with the app, stopped before the stores close. */
  payinSweeper: PayinExpirySweeper;
  gateways: PaymentGateways;
  checkoutLinks: CheckoutLinks;
  /** Builds the event of a payin that became final, for the transaction that makes it so. */
  payinEvents: PayinEvents;
  webhookEvents: SqlWebhookEventRepository;
  /** Delivers the outbox from this instance; started with the app, stopped before the stores close. */
  webhookDispatcher: WebhookDispatcher;
  enquiryCache: EnquiryCache;
  accountNameProvider: AccountNameProvider;
}

const DEPENDENCIES = Symbol('AppDependencies');

class StoresLifecycle implements OnApplicationShutdown {
  constructor(private readonly deps: AppDependencies) {}

  async onApplicationShutdown(): Promise<void> {
    this.deps.merchantsWatcher?.stop();
    await Promise.all([this.deps.storeHealth.stop(), this.deps.payinSweeper.stop(), this.deps.webhookDispatcher.stop()]);
    await Promise.allSettled([this.deps.nonceStore.close(), this.deps.rateLimitStore.close(), this.deps.payinRepository.close(), this.deps.enquiryCache.disconnect()]);
    await this.deps.redis?.close();
    this.deps.logger.info('shutdown: stores closed');
  }
}

@Module({})
export class AppModule {
  static forRoot(deps: AppDependencies, extraControllers: Type[] = []): DynamicModule {
    return {
      module: AppModule,
      controllers: [
        BanksController,
        AccountsController,
        PayinsController,
        // Test helpers exist in sandbox mode only: in production their paths are unknown (404).
        ...(deps.config.mode === 'sandbox' ? [SandboxSimulationController] : []),
        WebhookEventsController,
        CheckoutController,
        HealthController,
        DocsController,
        ...extraControllers,
      ],
      providers: [
        { provide: DEPENDENCIES, useValue: deps },
        { provide: AppConfigToken, useValue: deps.config },
        { provide: Clock, useValue: deps.clock },
        { provide: MerchantRegistry, useValue: deps.merchants },
        { provide: Readiness, useValue: deps.readiness },
        { provide: StoreHealth, useValue: deps.storeHealth },
        { provide: MerchantsFileWatcher, useValue: deps.merchantsWatcher ?? null },
        { provide: NonceStore, useValue: deps.nonceStore },
        { provide: RateLimitStore, useValue: deps.rateLimitStore },
        { provide: PayinRepository, useValue: deps.payinRepository },
        { provide: PaymentGateways, useValue: deps.gateways },
        { provide: CheckoutLinks, useValue: deps.checkoutLinks },
        { provide: PayinEvents, useValue: deps.payinEvents },
        { provide: SqlWebhookEventRepository, useValue: deps.webhookEvents },
        { provide: EnquiryCache, useValue: deps.enquiryCache },
        { provide: AccountNameProvider, useValue: deps.accountNameProvider },
        { provide: StoresLifecycle, useFactory: (d: AppDependencies) => new StoresLifecycle(d), inject: [DEPENDENCIES] },
        KeyRateLimiter,
        { provide: APP_GUARD, useClass: SignatureGuard },
        { provide: APP_FILTER, useClass: ApiExceptionFilter },
        AccountEnquiryService,
        PayinsService,
      ],
    };
  }
}
