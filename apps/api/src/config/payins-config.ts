import { envValues, type Env } from './env-values';

export interface PayinSettings {
  /** How long a payin waits to be paid before it becomes ABANDONED. */
  payinExpirySeconds: number;
  /** Declined attempts at checkout a payin takes: the last of them makes it FAILED with too_many_attempts. */
  payinMaxAttempts: number;
  /** How often each instance abandons the payins that expired, and at most how many per statement. */
  payinSweepIntervalMs: number;
  payinSweepBatchSize: number;
}

export function readPayins(env: Env, problems: string[]): PayinSettings {
  const { int } = envValues(env, problems);
  return {
    payinExpirySeconds: int('PAYIN_EXPIRY_SECONDS', 1800, 1, 604_800),
    // At most the contract's maxItems of a payin's attempts.
    payinMaxAttempts: int('PAYIN_MAX_ATTEMPTS', 3, 1, 10),
    payinSweepIntervalMs: int('PAYIN_SWEEP_INTERVAL_MS', 10_000, 50, 3_600_000),
    payinSweepBatchSize: int('PAYIN_SWEEP_BATCH_SIZE', 500, 1, 100_000),
  };
}
