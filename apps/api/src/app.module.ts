import { Module, type DynamicModule, type Type } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { AccountsModule } from './accounts/accounts.module';
import { BanksModule } from './banks/banks.module';
import { CheckoutModule } from './checkout/checkout.module';
import { DashboardModule } from './dashboard/dashboard.module';
import { DbModule } from './db/db.module';
import { DocsModule } from './docs/docs.module';
import { ApiExceptionFilter } from './errors/api-exception.filter';
import { EventsModule } from './events/events.module';
import { FoundationModule, type Foundation } from './foundation';
import { HealthModule } from './health/health.module';
import { LedgerCheckModule } from './ledger/ledger-check.module';
import { LedgerModule } from './ledger/ledger.module';
import { LEDGER_INVARIANTS } from './ledger-invariants';
import { MerchantsModule } from './merchants/merchants.module';
import { NonceModule } from './nonce/nonce.module';
import { PayinsModule } from './payins/payins.module';
import { PayoutSimulationModule } from './payouts/payout-simulation.module';
import { PayoutsModule } from './payouts/payouts.module';
import { ProviderWebhooksModule } from './provider-webhooks/provider-webhooks.module';
import { ReconciliationModule } from './reconciliation/reconciliation.module';
import { RefundSimulationModule } from './refunds/refund-simulation.module';
import { RefundsModule } from './refunds/refunds.module';
import { SettlementsModule } from './settlements/settlements.module';
import { ReportsModule } from './reports/reports.module';
import { WebhookEndpointsModule } from './webhook-endpoints/webhook-endpoints.module';
import { SandboxSimulationModule } from './payins/sandbox-simulation.module';
import { WebhooksModule } from './webhooks/webhooks.module';

/** The service: the foundation and the stores the app factory built, and every feature module on them. */
@Module({})
export class AppModule {
  /** `errorFilter: false` is bench:server --ablate's alone; the service always has the filter. */
  static forRoot(foundation: Foundation, extraControllers: Type[] = [], { errorFilter = true } = {}): DynamicModule {
    return {
      module: AppModule,
      imports: [
        FoundationModule.forRoot(foundation),
        DbModule.forRoot({ client: foundation.payinStore, storeClock: foundation.storeClock, watched: { probe: foundation.payinProbe, ping: () => foundation.payinProbe.observe('ping', () => foundation.payinStore.query('SELECT 1').then(() => undefined)) } }),
        MerchantsModule.forRoot({ registry: foundation.merchants, store: foundation.merchantStore, sync: foundation.merchantsSync }),
        NonceModule.forRoot({ store: foundation.nonceStore, memory: foundation.memoryNonces, watched: { probe: foundation.nonceProbe, ping: () => foundation.nonceStore.ping() } }),
        BanksModule,
        AccountsModule.forRoot({ provider: foundation.accountNameProvider, cache: foundation.enquiryCache }),
        EventsModule,
        WebhooksModule,
        LedgerModule,
        LedgerCheckModule.forRoot({ invariants: LEDGER_INVARIANTS }),
        PayinsModule,
        PayoutsModule,
        RefundsModule,
        SettlementsModule,
        WebhookEndpointsModule,
        ReconciliationModule,
        ReportsModule,
        // Test helpers exist in sandbox mode only: in production their paths are unknown (404).
        ...(foundation.config.mode === 'sandbox' ? [SandboxSimulationModule, PayoutSimulationModule, RefundSimulationModule] : []),
        CheckoutModule,
        // Providers' webhooks, where a configured provider takes them.
        ...(foundation.providers.ids.some((id) => foundation.providers.implements(id, 'webhooks')) ? [ProviderWebhooksModule] : []),
        HealthModule,
        DocsModule,
        DashboardModule,
      ],
      controllers: extraControllers,
      providers: errorFilter ? [{ provide: APP_FILTER, useClass: ApiExceptionFilter }] : [],
    };
  }
}
