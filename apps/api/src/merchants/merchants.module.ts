import { Module, type DynamicModule } from '@nestjs/common';
import { MerchantRegistry } from './merchant-registry';
import { MerchantStore } from './merchant-store';
import { MerchantsSync } from './merchants-sync';

/** The merchants in force, the database they come from, and the sync between them (SIGHUP and the merchant's own changes find it here). */
@Module({})
export class MerchantsModule {
  static forRoot(options: { registry: MerchantRegistry; store: MerchantStore; sync: MerchantsSync | undefined }): DynamicModule {
    const providers = [
      { provide: MerchantRegistry, useValue: options.registry },
      { provide: MerchantStore, useValue: options.store },
      { provide: MerchantsSync, useValue: options.sync ?? null },
    ];
    return { module: MerchantsModule, global: true, providers, exports: providers.map((provider) => provider.provide) };
  }
}
