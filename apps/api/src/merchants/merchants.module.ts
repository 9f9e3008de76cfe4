import { Module, type DynamicModule } from '@nestjs/common';
import { MerchantRegistry } from './merchant-registry';
import { MerchantsFileWatcher } from './merchants-file-watcher';

/** The merchants in force and, when they come from MERCHANTS_FILE, the watcher that reloads them (SIGHUP finds it here). */
@Module({})
export class MerchantsModule {
  static forRoot(options: { registry: MerchantRegistry; watcher: MerchantsFileWatcher | undefined }): DynamicModule {
    const providers = [
      { provide: MerchantRegistry, useValue: options.registry },
      { provide: MerchantsFileWatcher, useValue: options.watcher ?? null },
    ];
    return { module: MerchantsModule, global: true, providers, exports: providers.map((provider) => provider.provide) };
  }
}
