import { Module, type DynamicModule } from '@nestjs/common';
import { AccountEnquiryService } from './account-enquiry.service';
import { AccountNameProvider } from '../providers/ports/account-names.port';
import { AccountsController } from './accounts.controller';
import { EnquiryCache } from './enquiry-cache';
import { EnquiryRecords } from './enquiry-records';
import { EnquiryRetentionJob } from './enquiry-retention.job';
import type { AppConfig } from '../config/app-config';
import { AppConfigToken } from '../config/app-config.token';
import { WatchedPayinStore } from '../db/db.module';
import { SqlClient } from '../db/sql-client';
import { StoreClock } from '../db/store-clock';
import type { WatchedStore } from '../stores/store-probe';

/** Account enquiry: the name behind a bank account, from the provider the config chose, cached. */
@Module({})
export class AccountsModule {
  static forRoot(options: { provider: AccountNameProvider; cache: EnquiryCache }): DynamicModule {
    return {
      module: AccountsModule,
      // Global: payouts bind to its enquiries and check names with its provider.
      global: true,
      controllers: [AccountsController],
      providers: [
        { provide: AccountNameProvider, useValue: options.provider },
        { provide: EnquiryCache, useValue: options.cache },
        {
          provide: EnquiryRecords,
          useFactory: (client: SqlClient, storeClock: StoreClock, config: AppConfig, watched: WatchedStore) => new EnquiryRecords(client, storeClock, config.enquiryValiditySeconds, watched.probe),
          inject: [SqlClient, StoreClock, AppConfigToken, WatchedPayinStore],
        },
        AccountEnquiryService,
        EnquiryRetentionJob,
      ],
      exports: [AccountEnquiryService, EnquiryRecords, AccountNameProvider],
    };
  }
}
