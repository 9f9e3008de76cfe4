import { Module } from '@nestjs/common';
import { Clock } from '../config/clock';
import { WatchedPayinStore } from '../db/db.module';
import { SqlClient } from '../db/sql-client';
import { StoreClock, storeInstant } from '../db/store-clock';
import { EventOutbox } from '../events/event-outbox';
import { EventsModule } from '../events/events.module';
import { Ledger } from '../ledger/ledger';
import { LedgerModule } from '../ledger/ledger.module';
import { MerchantRegistry } from '../merchants/merchant-registry';
import type { WatchedStore } from '../stores/store-probe';
import { WebhooksModule } from '../webhooks/webhooks.module';
import { RefundDispatcher } from './refund-dispatcher';
import { RefundEvents } from './refund-events';
import { RefundStore } from './refund-store';
import { RefundsController } from './refunds.controller';
import { RefundsService } from './refunds.service';

/**
 * Refunds: creation against a successful payin, the hold in the ledger,
 * sending to the payin's provider of record, status checks, and their
 * events.
 */
@Module({
  imports: [EventsModule, LedgerModule, WebhooksModule],
  controllers: [RefundsController],
  providers: [
    {
      provide: RefundStore,
      useFactory: (client: SqlClient, ledger: Ledger, outbox: EventOutbox, storeClock: StoreClock, watched: WatchedStore) => new RefundStore(client, ledger, outbox, storeClock, watched.probe),
      inject: [SqlClient, Ledger, EventOutbox, StoreClock, WatchedPayinStore],
    },
    {
      provide: RefundEvents,
      useFactory: (outbox: EventOutbox, merchants: MerchantRegistry, clock: Clock, storeClock: StoreClock) => new RefundEvents(outbox, merchants, () => storeInstant(storeClock, clock)),
      inject: [EventOutbox, MerchantRegistry, Clock, StoreClock],
    },
    RefundsService,
    RefundDispatcher,
  ],
  exports: [RefundsService, RefundDispatcher],
})
export class RefundsModule {}
