import type { Logger } from 'pino';
import type { ServiceMetrics } from '../metrics/service-metrics';
import type { JobRunner, JobRunOutcome } from './job-runner';

/** The objects of one product whose provider is asked about on a schedule. */
export interface DueChecks<T> {
  /**
   * Takes up to `limit` objects whose check is due by the store's clock, and
   * moves each one's next check `leaseMs` on, as a lease: another instance
   * takes it only if this one never reschedules it. Safe with N instances
   * (FOR UPDATE SKIP LOCKED): each takes different ones.
   */
  claimDue(limit: number, leaseMs: number): Promise<T[]>;
}

/** The seconds after an object's start at which its n-th check (from 0) is due. */
export type CheckOffsets = (n: number) => number;

/**
 * The next check of a schedule still ahead of `nowMs`, from check
 * `checksDone` on: a check that ran late (an instance was down) does not
 * leave the rest of the schedule behind.
 */
export function nextCheck(offsets: CheckOffsets, startMs: number, nowMs: number, checksDone = 0): { checks: number; atMs: number } {
  let n = checksDone;
  while (startMs + offsets(n) * 1000 <= nowMs) n++;
  return { checks: n, atMs: startMs + offsets(n) * 1000 };
}

/** Why a provider check flagged an object for an operator. */
export type AttentionReason = 'no_answer' | 'mismatch' | 'paid_when_final';

export interface ProviderCheckOptions<T> {
  /** The job's name in logs, metrics and `JobRunner.runNow`. */
  job: string;
  /** What is checked, as the metric labels it. */
  object: 'payin' | 'payout' | 'refund';
  /** How loudly a flag is logged: as each product has documented it. */
  attentionLogLevel: 'warn' | 'error';
  intervalMs: number;
  batchSize: number;
  /** How long a claimed object is leased: longer than its check can take. */
  leaseMs: number;
  due: DueChecks<T>;
  /**
   * Asks the object's provider of record, and moves the object as the answer
   * says or reschedules it; an unanswered provider leaves it for its next
   * check. Never throws for the provider's sake.
   */
  check(object: T, shutdown: AbortSignal): Promise<void>;
}

/**
 * "Ask the provider on a schedule until it answers definitively", once for
 * every product: a job on every instance claims the due objects of one kind
 * with a lease, asks about each through the product's own check, and runs
 * again at once while batches come back full. A product supplies its claim,
 * its check and its schedule (`nextCheck` over its offsets); past its
 * deadline it flags the object `needsAttention` and reports it here, once:
 * counted (`paysign_provider_checks_needing_attention_total`) and logged.
 * Payins and payouts use it; refunds will.
 */
export class ProviderChecks<T> {
  constructor(
    private readonly options: ProviderCheckOptions<T>,
    private readonly deps: { jobs: JobRunner; metrics: ServiceMetrics; logger: Logger },
  ) {}

  /** Adds the job to the instance's runner. */
  schedule(): void {
    this.deps.jobs.add({ name: this.options.job, intervalMs: this.options.intervalMs, run: (signal) => this.runBatch(signal) });
  }

  /** One batch of due checks; a full one asks the runner for another at once. */
  async runBatch(shutdown: AbortSignal): Promise<JobRunOutcome> {
    const { batchSize, leaseMs, due, check } = this.options;
    const claimed = await due.claimDue(batchSize, leaseMs);
    await Promise.all(claimed.map((object) => check(object, shutdown)));
    return { again: claimed.length === batchSize };
  }

  /** Reports an object this check has just flagged for an operator: call it only when the flag was raised now, so that each is reported once. */
  flagged(reason: AttentionReason, fields: Record<string, unknown>, message: string): void {
    this.deps.metrics.needsAttention(this.options.object, reason);
    this.deps.logger[this.options.attentionLogLevel]({ object: this.options.object, reason, ...fields }, message);
  }
}
