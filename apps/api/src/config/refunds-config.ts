import { envValues, type Env } from './env-values';
import { secondsList } from './payouts-config';

export interface RefundSettings {
  /** How long after a payin was paid it may still be refunded here. */
  windowDays: number;
  dispatchIntervalMs: number;
  /** Refunds an instance sends at once: each holds its slot until the provider answers or times out. */
  dispatchConcurrency: number;
  /** The longest the service waits for the provider's answer to a refund or a status check; past it, the outcome is unknown and a status check settles it. */
  providerTimeoutMs: number;
  /** Seconds after a refund became PROCESSING at which its first status checks run; then hourly to 72 h, then daily. */
  statusCheckScheduleSeconds: number[];
  statusCheckIntervalMs: number;
  statusCheckBatchSize: number;
  /** How long after it was sent a refund the provider has no record of is sent again, under the same reference. */
  resendGraceSeconds: number;
  /** How often the provider is asked about a refund waiting in REQUIRES_ACTION for the customer's account, which it may settle without one. */
  requiresActionCheckSeconds: number;
}

/** The refund window, and the sending and status checks of refunds. */
export function readRefunds(env: Env, problems: string[]): RefundSettings {
  const { int } = envValues(env, problems);
  return {
    windowDays: int('REFUND_WINDOW_DAYS', 180, 1, 3650),
    dispatchIntervalMs: int('REFUND_DISPATCH_INTERVAL_MS', 1000, 20, 60_000),
    dispatchConcurrency: int('REFUND_DISPATCH_CONCURRENCY', 10, 1, 1000),
    providerTimeoutMs: int('REFUND_PROVIDER_TIMEOUT_MS', 30_000, 100, 120_000),
    statusCheckScheduleSeconds: secondsList('REFUND_STATUS_CHECK_SCHEDULE', env.REFUND_STATUS_CHECK_SCHEDULE, [60, 300, 1800], problems),
    statusCheckIntervalMs: int('REFUND_STATUS_CHECK_INTERVAL_MS', 5000, 20, 600_000),
    statusCheckBatchSize: int('REFUND_STATUS_CHECK_BATCH_SIZE', 50, 1, 1000),
    resendGraceSeconds: int('REFUND_RESEND_GRACE_SECONDS', 300, 10, 86_400),
    requiresActionCheckSeconds: int('REFUND_REQUIRES_ACTION_CHECK_SECONDS', 3600, 10, 604_800),
  };
}
