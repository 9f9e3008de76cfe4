import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import type { Logger } from 'pino';
import type { AppConfig } from '../config/app-config';
import { AppConfigToken } from '../config/app-config.token';
import { Clock } from '../config/clock';
import { StoreClock, storeInstant } from '../db/store-clock';
import { JobRunner, type JobRunOutcome } from '../jobs/job-runner';
import { ServiceLogger } from '../logging/logger';
import { ProviderRegistry } from '../providers/provider-registry';
import { SettlementAccounts } from './settlement-accounts';
import { runOf } from './settlement-calendar';
import { SETTLING_CURRENCIES, SettlementStore } from './settlement-store';
import { SettlementsService } from './settlements.service';

export const SETTLEMENT_RUN_JOB = 'settlement-run';

/**
 * The `settlement-run` job of every instance: brings changes of settlement
 * account whose delay has passed into force, then, from each day's
 * SETTLEMENT_RUN_HOUR_UTC, settles every merchant the day's run is due to,
 * one currency at a time, where SETTLEMENTS_ENABLED. Safe with N instances: a merchant is settled once
 * per currency and run (checked under its balance's lock, and UNIQUE), and a
 * change comes into force once. A merchant below its minimum is left for a
 * later pass of the same day, in case its balance reaches it.
 */
@Injectable()
export class SettlementRunJob implements OnModuleInit {
  constructor(
    private readonly settlements: SettlementsService,
    private readonly store: SettlementStore,
    private readonly accounts: SettlementAccounts,
    private readonly providers: ProviderRegistry,
    private readonly jobs: JobRunner,
    @Inject(AppConfigToken) private readonly config: AppConfig,
    @Inject(Clock) private readonly clock: Clock,
    @Inject(StoreClock) private readonly storeClock: StoreClock,
    @Inject(ServiceLogger) private readonly logger: Logger,
  ) {}

  onModuleInit(): void {
    this.jobs.add({ name: SETTLEMENT_RUN_JOB, intervalMs: this.config.settlements.runCheckIntervalMs, run: () => this.runOnce() });
  }

  /** One pass: account changes due, then a batch of merchants due the day's run; a full batch asks for another at once. */
  async runOnce(): Promise<JobRunOutcome> {
    const { runBatchSize, runHourUtc, defaultMinimumMinor } = this.config.settlements;
    const now = new Date(storeInstant(this.storeClock, this.clock));
    const changed = await this.accounts.bringDueIntoForce(runBatchSize, now);
    if (changed > 0) this.logger.warn({ changed }, 'settlement account changes in force after their delay');
    const run = runOf(now, runHourUtc);
    // Without a payout provider nothing could be sent: the money stays available rather than held for nothing.
    if (!run || !this.config.settlements.enabled || !this.providers.payoutsForNewPayouts()) return { again: changed === runBatchSize };
    let settled = 0;
    let due = 0;
    for (const currency of SETTLING_CURRENCIES) {
      const merchants = await this.store.dueFor(run, currency, defaultMinimumMinor, runBatchSize);
      due += merchants.length;
      for (const merchant of merchants) {
        const outcome = await this.settlements.settle({ merchantId: merchant.merchantId, currency, runKey: run.key, requestedBy: null, minimumMinor: merchant.minimumMinor });
        if (outcome.outcome === 'created') settled += 1;
      }
    }
    if (settled > 0) this.logger.info({ run: run.key, settled }, 'settlement run');
    return { again: changed === runBatchSize || due === runBatchSize };
  }
}
