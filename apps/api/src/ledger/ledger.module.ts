import { Module } from '@nestjs/common';
import type { AppConfig } from '../config/app-config';
import { AppConfigToken } from '../config/app-config.token';
import { SqlClient } from '../db/sql-client';
import { StoreClock } from '../db/store-clock';
import { WatchedPayinStore } from '../db/db.module';
import type { WatchedStore } from '../stores/store-probe';
import { MerchantRegistry } from '../merchants/merchant-registry';
import { BalanceController } from './balance.controller';
import { Ledger } from './ledger';
import { PayinCredits } from './payin-credits';
import { SettlementJob } from './settlement.job';
import { UnsettledBalancesWarning } from './unsettled-balances';

/** The merchants' money: the double-entry ledger, the balance routes, the credit of a successful payin and its settlement. */
@Module({
  controllers: [BalanceController],
  providers: [
    {
      provide: Ledger,
      useFactory: (client: SqlClient, storeClock: StoreClock, watched: WatchedStore) => new Ledger(client, storeClock, watched.probe),
      inject: [SqlClient, StoreClock, WatchedPayinStore],
    },
    {
      provide: PayinCredits,
      useFactory: (ledger: Ledger, merchants: MerchantRegistry, config: AppConfig) => new PayinCredits(ledger, (merchantId) => merchants.feesOf(merchantId), config.settlementDelaySeconds * 1000),
      inject: [Ledger, MerchantRegistry, AppConfigToken],
    },
    SettlementJob,
    UnsettledBalancesWarning,
  ],
  exports: [Ledger, PayinCredits],
})
export class LedgerModule {}
