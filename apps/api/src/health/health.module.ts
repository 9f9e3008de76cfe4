import { Inject, Injectable, Module, type OnModuleInit } from '@nestjs/common';
import type { AppConfig } from '../config/app-config';
import { AppConfigToken } from '../config/app-config.token';
import { WatchedPayinStore } from '../db/db.module';
import { JobRunner } from '../jobs/job-runner';
import { WatchedNonceStore } from '../nonce/nonce.module';
import type { WatchedStore } from '../stores/store-probe';
import { HealthController } from './health.controller';
import { StoreHealth } from './store-health';

/** Pings the stores between requests, as the `store-health` job, so readiness knows a store no request has used lately. */
@Injectable()
class StorePings implements OnModuleInit {
  constructor(
    private readonly stores: StoreHealth<'nonceStore' | 'payinStore'>,
    private readonly jobs: JobRunner,
    @Inject(AppConfigToken) private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    this.jobs.add({ name: 'store-health', intervalMs: this.config.healthProbeIntervalMs, run: () => this.stores.pingAll() });
  }
}

/** Liveness and readiness, answered from the stores' probes. */
@Module({
  controllers: [HealthController],
  providers: [
    { provide: StoreHealth, useFactory: (nonceStore: WatchedStore, payinStore: WatchedStore) => new StoreHealth({ nonceStore, payinStore }), inject: [WatchedNonceStore, WatchedPayinStore] },
    StorePings,
  ],
})
export class HealthModule {}
