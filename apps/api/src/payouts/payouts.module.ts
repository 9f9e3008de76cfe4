import { Module } from '@nestjs/common';
import type { AppConfig } from '../config/app-config';
import { AppConfigToken } from '../config/app-config.token';
import { WatchedPayinStore } from '../db/db.module';
import { SqlClient } from '../db/sql-client';
import { StoreClock } from '../db/store-clock';
import { EventOutbox } from '../events/event-outbox';
import { EventsModule } from '../events/events.module';
import { Ledger } from '../ledger/ledger';
import { LedgerModule } from '../ledger/ledger.module';
import { MerchantRegistry } from '../merchants/merchant-registry';
import type { WatchedStore } from '../stores/store-probe';
import { WebhooksModule } from '../webhooks/webhooks.module';
import { PayoutBatchStore } from './payout-batch-store';
import { PayoutBatchesController } from './payout-batches.controller';
import { PayoutBatchesService } from './payout-batches.service';
import { PayoutDispatcher } from './payout-dispatcher';
import { PayoutEvents } from './payout-events';
import { PayoutSendStore } from './payout-send-store';
import { PayoutStore } from './payout-store';
import { PayoutsController } from './payouts.controller';
import { PayoutsService } from './payouts.service';

/**
 * Payouts: creation bound to an enquiry, the hold in the ledger, approval
 * by a second credential, batches, sending and status checks, and their
 * events. The provider (PAYOUT_PROVIDER) is the foundation's: the sandbox's
 * by default in sandbox mode, none by default in production (creates are
 * then refused).
 */
@Module({
  imports: [EventsModule, LedgerModule, WebhooksModule],
  controllers: [PayoutsController, PayoutBatchesController],
  providers: [
    {
      provide: PayoutBatchStore,
      useFactory: (client: SqlClient, ledger: Ledger, outbox: EventOutbox, storeClock: StoreClock, events: PayoutEvents, watched: WatchedStore) =>
        new PayoutBatchStore(client, ledger, outbox, storeClock, events.batchEventOf, watched.probe),
      inject: [SqlClient, Ledger, EventOutbox, StoreClock, PayoutEvents, WatchedPayinStore],
    },
    {
      provide: PayoutStore,
      useFactory: (client: SqlClient, ledger: Ledger, outbox: EventOutbox, storeClock: StoreClock, batches: PayoutBatchStore, watched: WatchedStore, config: AppConfig) =>
        new PayoutStore(client, ledger, outbox, storeClock, batches, watched.probe, config.payouts.createGroupMax),
      inject: [SqlClient, Ledger, EventOutbox, StoreClock, PayoutBatchStore, WatchedPayinStore, AppConfigToken],
    },
    {
      provide: PayoutSendStore,
      useFactory: (client: SqlClient, storeClock: StoreClock, watched: WatchedStore) => new PayoutSendStore(client, storeClock, watched.probe),
      inject: [SqlClient, StoreClock, WatchedPayinStore],
    },
    { provide: PayoutEvents, useFactory: (outbox: EventOutbox, merchants: MerchantRegistry) => new PayoutEvents(outbox, merchants), inject: [EventOutbox, MerchantRegistry] },
    PayoutsService,
    PayoutBatchesService,
    PayoutDispatcher,
  ],
  exports: [PayoutsService, PayoutBatchesService, PayoutDispatcher, PayoutStore, PayoutEvents],
})
export class PayoutsModule {}
