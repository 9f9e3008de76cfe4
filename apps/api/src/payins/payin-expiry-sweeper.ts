import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import type { Logger } from 'pino';
import type { AppConfig } from '../config/app-config';
import { AppConfigToken } from '../config/app-config.token';
import { JobRunner, type JobRunOutcome } from '../jobs/job-runner';
import { ServiceLogger } from '../logging/logger';
import { PayinEvents } from './payin-events';
import { PayinRepository } from './payin-repository.interface';

/**
 * Abandons the payins that expired unpaid, as the `payin-expiry` job of
 * every instance. Safe with N instances: each batch is one UPDATE guarded by
 * `status = 'PENDING'` over rows taken with SKIP LOCKED, so instances split
 * the work and a payin moves once; expiry is judged by the database's clock.
 * Reads do not wait for it: they answer an expired payin as ABANDONED.
 */
@Injectable()
export class PayinExpirySweeper implements OnModuleInit {
  constructor(
    @Inject(PayinRepository) private readonly payins: PayinRepository,
    private readonly events: PayinEvents,
    private readonly jobs: JobRunner,
    @Inject(ServiceLogger) private readonly logger: Logger,
    @Inject(AppConfigToken) private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    this.jobs.add({ name: 'payin-expiry', intervalMs: this.config.payinSweepIntervalMs, run: () => this.sweepBatch() });
  }

  /** One batch; a full one asks the runner for another at once. */
  async sweepBatch(): Promise<JobRunOutcome> {
    const batchSize = this.config.payinSweepBatchSize;
    const moved = await this.payins.expireDue({ limit: batchSize }, this.events.eventOf);
    if (moved.length > 0) this.logger.info({ abandoned: moved.length }, 'abandoned payins that expired unpaid');
    return { again: moved.length === batchSize };
  }
}
