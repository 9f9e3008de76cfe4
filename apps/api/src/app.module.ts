import { Module, type DynamicModule, type OnApplicationShutdown } from '@nestjs/common';
import { APP_FILTER, APP_GUARD } from '@nestjs/core';
import { ThrottlerModule } from '@nestjs/throttler';
import { AccountEnquiryService } from './accounts/account-enquiry.service';
import { AccountNameProvider } from './accounts/account-name-provider.interface';
import { AccountsController } from './accounts/accounts.controller';
import { EnquiryCache } from './accounts/enquiry-cache';
import { BanksController } from './banks/banks.controller';
import type { AppConfig } from './config/app-config';
import { AppConfigToken } from './config/app-config.token';
import { Clock } from './config/clock';
import { DocsController } from './docs/docs.controller';
import { ApiExceptionFilter } from './errors/api-exception.filter';
import { HealthController } from './health/health.controller';
import { MerchantRegistry } from './merchants/merchant-registry';
import { NonceStore } from './nonce/nonce-store.interface';
import { PayinRepository } from './payins/payin-repository.interface';
import { PayinsController } from './payins/payins.controller';
import { PayinsService } from './payins/payins.service';
import type { RateLimitStore } from './rate-limit/rate-limit-store.interface';
import { RateLimitGuard, rateLimitThrottlers } from './rate-limit/rate-limit.guard';
import { SignatureGuard } from './signing/signature.guard';

/** Everything the service depends on outside itself, built by the app factory. */
export interface AppDependencies {
  config: AppConfig;
  clock: Clock;
  merchants: MerchantRegistry;
  nonceStore: NonceStore;
  rateLimitStore: RateLimitStore;
  payinRepository: PayinRepository;
  enquiryCache: EnquiryCache;
  accountNameProvider: AccountNameProvider;
}

const DEPENDENCIES = Symbol('AppDependencies');

class StoresLifecycle implements OnApplicationShutdown {
  constructor(private readonly deps: AppDependencies) {}

  async onApplicationShutdown(): Promise<void> {
    await Promise.allSettled([this.deps.nonceStore.close(), this.deps.rateLimitStore.close(), this.deps.payinRepository.close(), this.deps.enquiryCache.disconnect()]);
  }
}

@Module({})
export class AppModule {
  static forRoot(deps: AppDependencies): DynamicModule {
    return {
      module: AppModule,
      imports: [ThrottlerModule.forRoot({ throttlers: rateLimitThrottlers(deps.config.rateLimits), storage: deps.rateLimitStore, setHeaders: false })],
      controllers: [BanksController, AccountsController, PayinsController, HealthController, DocsController],
      providers: [
        { provide: DEPENDENCIES, useValue: deps },
        { provide: AppConfigToken, useValue: deps.config },
        { provide: Clock, useValue: deps.clock },
        { provide: MerchantRegistry, useValue: deps.merchants },
        { provide: NonceStore, useValue: deps.nonceStore },
        { provide: PayinRepository, useValue: deps.payinRepository },
        { provide: EnquiryCache, useValue: deps.enquiryCache },
        { provide: AccountNameProvider, useValue: deps.accountNameProvider },
        { provide: StoresLifecycle, useFactory: (d: AppDependencies) => new StoresLifecycle(d), inject: [DEPENDENCIES] },
        RateLimitGuard,
        { provide: APP_GUARD, useClass: SignatureGuard },
        { provide: APP_FILTER, useClass: ApiExceptionFilter },
        AccountEnquiryService,
        PayinsService,
      ],
    };
  }
}
