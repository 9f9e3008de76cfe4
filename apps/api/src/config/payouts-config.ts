import { envValues, type Env } from './env-values';
import type { ProviderChoice } from './providers-config';

export interface PayoutSettings {
  /** Where payouts are sent: PAYOUT_PROVIDER, the sandbox provider by default in sandbox mode; none (creates answer PAYOUT_PROVIDER_NOT_CONFIGURED) by default in production. */
  provider: ProviderChoice;
  minAmountMinor: bigint;
  maxAmountMinor: bigint;
  /** The most a merchant's payouts of the last 24 hours may add up to, failed and cancelled ones aside. */
  dailyLimitMinor: bigint;
  dispatchIntervalMs: number;
  /** Payouts an instance sends at once: each holds its slot until the provider answers or times out. */
  dispatchConcurrency: number;
  /** The longest the service waits for the provider's answer to a send or a status check; past it, the outcome is unknown and a status check settles it. */
  providerTimeoutMs: number;
  /** Seconds after a payout became PROCESSING at which its first status checks run; then hourly to 72 h, then daily. */
  statusCheckScheduleSeconds: number[];
  statusCheckIntervalMs: number;
  statusCheckBatchSize: number;
  /** How long after it was first sent a transfer the provider has no record of is sent again, under the same reference. */
  resendGraceSeconds: number;
  /** The least time between two requeries of one payout. */
  requeryIntervalSeconds: number;
  /** How long the sandbox provider takes to pay an account of no documented behaviour. */
  sandboxDelayMs: number;
  /** How long a payout outside a batch waits for approval before it is cancelled with approval_expired. */
  approvalTtlSeconds: number;
  /** How long a batch stays OPEN, unsubmitted, before it is cancelled with its payouts. */
  batchTtlSeconds: number;
  /** How often each instance looks for expired approvals and batches. */
  expiryIntervalMs: number;
  /** Expired approvals, and expired batches, one run cancels at most; a full page is followed by another at once. */
  expiryBatchSize: number;
  /** The most payouts one batch holds; its cancellation releases them all in one transaction. */
  batchMaxItems: number;
  /** The most creates of one merchant that one transaction writes together, while the one before it holds the merchant's lock. */
  createGroupMax: number;
}

/** Payout limits, dispatch, status checks and approvals; the provider is chosen with the other seams (readProviders). */
export function readPayouts(env: Env, problems: string[], { provider }: { provider: ProviderChoice }): PayoutSettings {
  const { int } = envValues(env, problems);
  return {
    provider,
    minAmountMinor: BigInt(int('PAYOUT_MIN_AMOUNT', 100, 1, 1_000_000)) * 100n,
    maxAmountMinor: BigInt(int('PAYOUT_MAX_AMOUNT', 5_000_000, 1, 1_000_000_000)) * 100n,
    dailyLimitMinor: BigInt(int('PAYOUT_DAILY_LIMIT', 50_000_000, 1, 100_000_000_000)) * 100n,
    dispatchIntervalMs: int('PAYOUT_DISPATCH_INTERVAL_MS', 1000, 20, 60_000),
    dispatchConcurrency: int('PAYOUT_DISPATCH_CONCURRENCY', 20, 1, 1000),
    providerTimeoutMs: int('PAYOUT_PROVIDER_TIMEOUT_MS', 30_000, 100, 120_000),
    statusCheckScheduleSeconds: secondsList('PAYOUT_STATUS_CHECK_SCHEDULE', env.PAYOUT_STATUS_CHECK_SCHEDULE, [60, 300, 1800], problems),
    statusCheckIntervalMs: int('PAYOUT_STATUS_CHECK_INTERVAL_MS', 5000, 20, 600_000),
    statusCheckBatchSize: int('PAYOUT_STATUS_CHECK_BATCH_SIZE', 50, 1, 1000),
    resendGraceSeconds: int('PAYOUT_RESEND_GRACE_SECONDS', 300, 10, 86_400),
    requeryIntervalSeconds: int('PAYOUT_REQUERY_INTERVAL_SECONDS', 60, 1, 3600),
    sandboxDelayMs: int('SANDBOX_PAYOUT_DELAY_MS', 2000, 0, 60_000),
    approvalTtlSeconds: int('PAYOUT_APPROVAL_TTL_SECONDS', 86_400, 60, 2_592_000),
    batchTtlSeconds: int('PAYOUT_BATCH_TTL_SECONDS', 86_400, 60, 2_592_000),
    expiryIntervalMs: int('PAYOUT_EXPIRY_INTERVAL_MS', 60_000, 20, 3_600_000),
    expiryBatchSize: int('PAYOUT_EXPIRY_BATCH_SIZE', 100, 1, 10_000),
    batchMaxItems: int('PAYOUT_BATCH_MAX_ITEMS', 1000, 1, 10_000),
    createGroupMax: int('PAYOUT_CREATE_GROUP_MAX', 100, 1, 1000),
  };
}

/** Status check times: 1 to 20 rising offsets in seconds, within the 72 hours after which checks are daily. */
export function secondsList(name: string, raw: string | undefined, fallback: number[], problems: string[]): number[] {
  if (raw === undefined || raw === '') return fallback;
  const parts = raw.split(',').map((part) => part.trim());
  const values = parts.map(Number);
  const valid = parts.length <= 20 && parts.every((part) => /^[1-9][0-9]{0,5}$/.test(part)) && values.every((value, i) => value <= 259_200 && (i === 0 || value > (values[i - 1] as number)));
  if (!valid) {
    problems.push(`${name} must be 1 to 20 rising comma-separated offsets in seconds, each from 1 to 259200 (72 hours), such as 60,300,1800; got "${raw}"`);
    return fallback;
  }
  return values;
}
