import { Module } from '@nestjs/common';
import type { AppConfig } from '../config/app-config';
import { AppConfigToken } from '../config/app-config.token';
import { WatchedPayinStore } from '../db/db.module';
import { SqlClient } from '../db/sql-client';
import { observeThrough, type WatchedStore } from '../stores/store-probe';
import { ReportReader } from './report-csv';
import { ReportsController } from './reports.controller';

/** The merchants' reports: CSV downloads of their payins, payouts, refunds and balance entries. */
@Module({
  controllers: [ReportsController],
  providers: [
    {
      provide: ReportReader,
      useFactory: (client: SqlClient, config: AppConfig, watched: WatchedStore) => new ReportReader(client, config.reportBatchRows, observeThrough(watched.probe)),
      inject: [SqlClient, AppConfigToken, WatchedPayinStore],
    },
  ],
  exports: [ReportReader],
})
export class ReportsModule {}
