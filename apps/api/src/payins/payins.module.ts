import { Module } from '@nestjs/common';
import type { AppConfig } from '../config/app-config';
import { AppConfigToken } from '../config/app-config.token';
import { SqlClient } from '../db/sql-client';
import { StoreClock } from '../db/store-clock';
import { WatchedPayinStore } from '../db/db.module';
import { EventOutbox } from '../events/event-outbox';
import { EventsModule } from '../events/events.module';
import { LedgerModule } from '../ledger/ledger.module';
import { MerchantRegistry } from '../merchants/merchant-registry';
import { PayinCredits } from '../ledger/payin-credits';
import { PublicOrigin } from '../http/routes';
import type { WatchedStore } from '../stores/store-probe';
import { WebhooksModule } from '../webhooks/webhooks.module';
import { CheckoutLinks } from './checkout-links';
import { CheckoutTokens } from './checkout-tokens';
import { InstrumentedPayinRepository } from './instrumented-payin.repository';
import { PayinEvents } from './payin-events';
import { PayinExpirySweeper } from './payin-expiry-sweeper';
import { PayinRepository } from './payin-repository.interface';
import { PayinsController } from './payins.controller';
import { PayinsService } from './payins.service';
import { ProviderPayments } from './provider-payments';
import { SqlPayinRepository } from './sql-payin.repository';

/** Payins: creation, reads and listing, their checkout links, their events, and the sweep that abandons expired ones. */
@Module({
  imports: [EventsModule, LedgerModule, WebhooksModule],
  controllers: [PayinsController],
  providers: [
    {
      provide: PayinRepository,
      useFactory: (client: SqlClient, outbox: EventOutbox, storeClock: StoreClock, credits: PayinCredits, watched: WatchedStore) =>
        new InstrumentedPayinRepository(new SqlPayinRepository(client, outbox, storeClock, credits), watched.probe),
      inject: [SqlClient, EventOutbox, StoreClock, PayinCredits, WatchedPayinStore],
    },
    {
      provide: CheckoutLinks,
      useFactory: (config: AppConfig, origin: PublicOrigin) => new CheckoutLinks(new CheckoutTokens(config.checkoutTokenSecret), origin),
      inject: [AppConfigToken, PublicOrigin],
    },
    {
      provide: PayinEvents,
      useFactory: (outbox: EventOutbox, links: CheckoutLinks, merchants: MerchantRegistry) =>
        new PayinEvents(
          outbox,
          links,
          (merchantId, type, notifyUrl) => merchants.eventTargets(merchantId, type, notifyUrl),
        ),
      inject: [EventOutbox, CheckoutLinks, MerchantRegistry],
    },
    PayinsService,
    PayinExpirySweeper,
    ProviderPayments,
  ],
  exports: [PayinsService, CheckoutLinks, PayinRepository, ProviderPayments],
})
export class PayinsModule {}
