import { Module, type OnModuleInit } from '@nestjs/common';
import type { AppConfig } from '../config/app-config';
import { AppConfigToken } from '../config/app-config.token';
import { WatchedPayinStore } from '../db/db.module';
import { SqlClient } from '../db/sql-client';
import { EventOutbox } from '../events/event-outbox';
import { EventsModule } from '../events/events.module';
import { Ledger } from '../ledger/ledger';
import { LedgerModule } from '../ledger/ledger.module';
import { MerchantRegistry } from '../merchants/merchant-registry';
import { PayoutEvents } from '../payouts/payout-events';
import { PayoutStore } from '../payouts/payout-store';
import { PayoutsModule } from '../payouts/payouts.module';
import type { WatchedStore } from '../stores/store-probe';
import { SettlementAccounts } from './settlement-accounts';
import { SettlementEvents } from './settlement-events';
import { SettlementRunJob } from './settlement-run.job';
import { SettlementSchedules } from './settlement-schedules';
import { SettlementStore } from './settlement-store';
import { SettlementsController } from './settlements.controller';
import { SettlementsService } from './settlements.service';

/**
 * Settlements to the merchant's own bank account: the settlement account
 * (changed after a delay, announced), the schedule and its runs, and each
 * settlement, whose transfer the payouts send under their exactly-once rules.
 */
@Module({
  imports: [EventsModule, LedgerModule, PayoutsModule],
  controllers: [SettlementsController],
  providers: [
    {
      provide: SettlementEvents,
      useFactory: (outbox: EventOutbox, merchants: MerchantRegistry) => new SettlementEvents(outbox, merchants),
      inject: [EventOutbox, MerchantRegistry],
    },
    {
      provide: SettlementAccounts,
      useFactory: (client: SqlClient, outbox: EventOutbox, events: SettlementEvents, watched: WatchedStore) => new SettlementAccounts(client, outbox, events, watched.probe),
      inject: [SqlClient, EventOutbox, SettlementEvents, WatchedPayinStore],
    },
    {
      provide: SettlementSchedules,
      useFactory: (client: SqlClient, config: AppConfig, watched: WatchedStore) => new SettlementSchedules(client, config.settlements.defaultMinimumMinor, watched.probe),
      inject: [SqlClient, AppConfigToken, WatchedPayinStore],
    },
    {
      provide: SettlementStore,
      useFactory: (client: SqlClient, ledger: Ledger, payouts: PayoutStore, accounts: SettlementAccounts, schedules: SettlementSchedules, watched: WatchedStore) =>
        new SettlementStore(client, ledger, payouts, accounts, schedules, watched.probe),
      inject: [SqlClient, Ledger, PayoutStore, SettlementAccounts, SettlementSchedules, WatchedPayinStore],
    },
    SettlementsService,
    SettlementRunJob,
  ],
  exports: [SettlementsService, SettlementRunJob],
})
export class SettlementsModule implements OnModuleInit {
  constructor(
    private readonly payoutEvents: PayoutEvents,
    private readonly settlementEvents: SettlementEvents,
  ) {}

  /** A settlement's transfer moves as a payout, and tells of it as the settlement it is. */
  onModuleInit(): void {
    this.payoutEvents.routeSettlements(this.settlementEvents.eventOf);
  }
}
