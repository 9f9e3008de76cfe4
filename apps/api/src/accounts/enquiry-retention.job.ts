import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import type { Logger } from 'pino';
import type { AppConfig } from '../config/app-config';
import { AppConfigToken } from '../config/app-config.token';
import { JobRunner, type JobRunOutcome } from '../jobs/job-runner';
import { ServiceLogger } from '../logging/logger';
import { EnquiryRecords } from './enquiry-records';

/** Rows one run deletes at most; a full batch runs again at once. */
const BATCH = 1000;

/**
 * Deletes enquiries a day after they expire, as the `enquiry-retention` job
 * of every instance: a payout keeps its own copy of the account, so an
 * expired enquiry serves nothing but its refusal (`ENQUIRY_EXPIRED`), which
 * a day of grace keeps distinct from `ENQUIRY_NOT_FOUND`.
 */
@Injectable()
export class EnquiryRetentionJob implements OnModuleInit {
  constructor(
    private readonly records: EnquiryRecords,
    private readonly jobs: JobRunner,
    @Inject(ServiceLogger) private readonly logger: Logger,
    @Inject(AppConfigToken) private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    this.jobs.add({ name: 'enquiry-retention', intervalMs: this.config.enquiryRetentionIntervalMs, run: () => this.deleteBatch() });
  }

  async deleteBatch(): Promise<JobRunOutcome> {
    const deleted = await this.records.deleteExpired(BATCH);
    if (deleted > 0) this.logger.info({ deleted }, 'deleted account enquiries a day past their expiry');
    return { again: deleted === BATCH };
  }
}
