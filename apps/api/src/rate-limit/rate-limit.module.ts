import { Module, type DynamicModule } from '@nestjs/common';
import { KeyRateLimiter } from './key-rate-limiter';
import { RateLimitStore } from './rate-limit-store.interface';

/** The rate-limit store the config chose, and the per-key limiter the signature guard counts with. */
@Module({})
export class RateLimitModule {
  static forRoot(options: { store: RateLimitStore }): DynamicModule {
    return {
      module: RateLimitModule,
      global: true,
      providers: [{ provide: RateLimitStore, useValue: options.store }, KeyRateLimiter],
      exports: [RateLimitStore, KeyRateLimiter],
    };
  }
}
