import { Module, type DynamicModule } from '@nestjs/common';
import type { AppConfig } from '../config/app-config';
import { AppConfigToken } from '../config/app-config.token';
import { SqlClient } from '../db/sql-client';
import { StoreClock } from '../db/store-clock';
import type { LedgerInvariant } from './ledger-check';
import { LedgerCheckJob, LedgerInvariants } from './ledger-check.job';
import { LedgerCheckStore } from './ledger-check-store';

/**
 * The ledger's scheduled check: the `ledger-check` job and what it records.
 * The invariants come from the root (ledger-invariants.ts), since products
 * add their own and the ledger imports no product.
 */
@Module({})
export class LedgerCheckModule {
  static forRoot(options: { invariants: readonly LedgerInvariant[] }): DynamicModule {
    return {
      module: LedgerCheckModule,
      providers: [
        { provide: LedgerInvariants, useValue: options.invariants },
        {
          provide: LedgerCheckStore,
          useFactory: (client: SqlClient, storeClock: StoreClock, config: AppConfig) => new LedgerCheckStore(client, storeClock, config.databaseUrl ? { shared: { statementTimeoutMs: config.ledgerCheckStatementTimeoutMs } } : {}),
          inject: [SqlClient, StoreClock, AppConfigToken],
        },
        LedgerCheckJob,
      ],
    };
  }
}
