import { Module } from '@nestjs/common';
import type { Logger } from 'pino';
import type { AppConfig } from '../config/app-config';
import { AppConfigToken } from '../config/app-config.token';
import { SqlClient } from '../db/sql-client';
import { StoreClock } from '../db/store-clock';
import { ServiceLogger } from '../logging/logger';
import { ProviderRegistry } from '../providers/provider-registry';
import { Reconciler } from './reconciler';
import { ReconciliationJob } from './reconciliation.job';
import { ReconciliationStore } from './reconciliation-store';

/** The daily reconciliation against each provider's records: its store, the reconciler the job and the `reconcile` command share, and the job. */
@Module({
  providers: [
    { provide: ReconciliationStore, useFactory: (client: SqlClient, storeClock: StoreClock) => new ReconciliationStore(client, storeClock), inject: [SqlClient, StoreClock] },
    {
      provide: Reconciler,
      useFactory: (client: SqlClient, providers: ProviderRegistry, store: ReconciliationStore, config: AppConfig, logger: Logger) => new Reconciler(client, providers, store, config.reconciliation, logger),
      inject: [SqlClient, ProviderRegistry, ReconciliationStore, AppConfigToken, ServiceLogger],
    },
    ReconciliationJob,
  ],
  exports: [ReconciliationStore, Reconciler],
})
export class ReconciliationModule {}
