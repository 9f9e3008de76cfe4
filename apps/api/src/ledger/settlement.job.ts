import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import type { Logger } from 'pino';
import type { AppConfig } from '../config/app-config';
import { AppConfigToken } from '../config/app-config.token';
import { Clock } from '../config/clock';
import { JobRunner, type JobRunOutcome } from '../jobs/job-runner';
import { ServiceLogger } from '../logging/logger';
import { Ledger } from './ledger';

/**
 * Moves payin credits from `pending` to `available` once their settlement
 * delay has passed by the database's clock, as the `settlement` job of every
 * instance. Safe with N instances: each batch takes its rows with SKIP
 * LOCKED and removes them as it posts their journals, and a payin's
 * settlement journal can be posted only once.
 */
@Injectable()
export class SettlementJob implements OnModuleInit {
  constructor(
    private readonly ledger: Ledger,
    private readonly jobs: JobRunner,
    @Inject(Clock) private readonly clock: Clock,
    @Inject(ServiceLogger) private readonly logger: Logger,
    @Inject(AppConfigToken) private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    this.jobs.add({ name: 'settlement', intervalMs: this.config.settlementIntervalMs, run: () => this.settleBatch() });
  }

  /** One batch; a full one asks the runner for another at once. */
  async settleBatch(): Promise<JobRunOutcome> {
    const batchSize = this.config.settlementBatchSize;
    const settled = await this.ledger.settleDue(batchSize, new Date(this.clock()));
    if (settled > 0) this.logger.info({ settled }, 'settled payin credits to available');
    return { again: settled === batchSize };
  }
}
