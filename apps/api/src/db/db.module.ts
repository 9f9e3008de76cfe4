import { Module, type DynamicModule } from '@nestjs/common';
import type { WatchedStore } from '../stores/store-probe';
import { SqlClient } from './sql-client';
import { StoreClock } from './store-clock';

/** Injection token of the payin database as readiness watches it. */
export const WatchedPayinStore = Symbol('WatchedPayinStore');

/** The payin database, opened and migrated before Nest starts, for every feature that keeps rows in it. */
@Module({})
export class DbModule {
  static forRoot(options: { client: SqlClient; storeClock: StoreClock; watched: WatchedStore }): DynamicModule {
    const providers = [
      { provide: SqlClient, useValue: options.client },
      { provide: StoreClock, useValue: options.storeClock },
      { provide: WatchedPayinStore, useValue: options.watched },
    ];
    return { module: DbModule, global: true, providers, exports: providers.map((provider) => provider.provide) };
  }
}
