import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import type { Logger } from 'pino';
import type { AppConfig } from '../config/app-config';
import { AppConfigToken } from '../config/app-config.token';
import { Clock } from '../config/clock';
import { StoreClock, storeInstant } from '../db/store-clock';
import { JobRunner } from '../jobs/job-runner';
import { ServiceLogger } from '../logging/logger';
import { ServiceMetrics } from '../metrics/service-metrics';
import { Reconciler } from './reconciler';
import { watchReconciliation } from './reconciliation-metrics';
import { ReconciliationStore } from './reconciliation-store';

export const RECONCILIATION_JOB = 'reconciliation';
/** How often each instance asks whether the day's run is due; the run itself is claimed once per day across instances. */
const RECONCILIATION_POLL_MS = 300_000;
/** How long after a claim whose run failed (or whose instance died) the day is claimed again. */
export const RECONCILIATION_RETRY_AFTER_SECONDS = 3600;

/** The day before `at`'s UTC day, once `at` is past `hour` UTC; undefined before it. */
export function dayDue(at: Date, hour: number): string | undefined {
  if (at.getUTCHours() < hour) return undefined;
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate() - 1)).toISOString().slice(0, 10);
}

/**
 * Reconciles the day before as the `reconciliation` job, once across every
 * instance, from RECONCILIATION_HOUR (UTC): each instance polls, the one
 * whose claim succeeds runs every provider that has no completed run of
 * the day. A run that fails is claimed again an hour later; the metrics
 * (read from the tables) and PaysignReconciliationStale say when none has
 * completed for two days.
 */
@Injectable()
export class ReconciliationJob implements OnModuleInit {
  private readonly hour: number;

  constructor(
    private readonly store: ReconciliationStore,
    private readonly reconciler: Reconciler,
    private readonly jobs: JobRunner,
    private readonly metrics: ServiceMetrics,
    @Inject(Clock) private readonly clock: Clock,
    @Inject(StoreClock) private readonly storeClock: StoreClock,
    @Inject(ServiceLogger) private readonly logger: Logger,
    @Inject(AppConfigToken) config: AppConfig,
  ) {
    this.hour = config.reconciliation.hour;
  }

  onModuleInit(): void {
    watchReconciliation(this.metrics, () => this.store.state());
    this.jobs.add({ name: RECONCILIATION_JOB, intervalMs: RECONCILIATION_POLL_MS, run: (signal) => this.runIfDue(signal) });
  }

  /** One poll: the day before, when it is due and this instance claims it. */
  async runIfDue(signal: AbortSignal): Promise<void> {
    const day = dayDue(new Date(storeInstant(this.storeClock, this.clock)), this.hour);
    if (day === undefined) return;
    const providers = this.reconciler.providerIds;
    if (!(await this.store.claim(day, providers, RECONCILIATION_RETRY_AFTER_SECONDS))) return;
    const done = await this.store.completed(day, providers);
    const report = await this.reconciler.reconcileDay(day, { trigger: 'job', signal, only: providers.filter((provider) => !done.has(provider)) });
    const failed = report.runs.filter((run) => run.outcome === 'failed');
    if (failed.length > 0) this.logger.error({ job: RECONCILIATION_JOB, day, failed: failed.map((run) => run.provider) }, `reconciliation of ${day} failed; it is tried again in ${RECONCILIATION_RETRY_AFTER_SECONDS} s, or now with: node main.js reconcile --date ${day}`);
  }
}
