import { envValues, type Env } from './env-values';
import type { ServiceMode } from './service-mode';

/** Settlements to the merchant's own bank account (apps/api/src/settlements). */
export interface BankSettlementSettings {
  /** Whether runs and `POST /settlements` settle: off by default in production until every instance runs a release that knows a settlement's transfer from a payout. */
  enabled: boolean;
  /** How long a change of settlement account waits before it is in force: a day in production, none in sandbox. */
  accountChangeDelaySeconds: number;
  /** The hour (UTC) a day's run of the schedules starts at. */
  runHourUtc: number;
  /** How often each instance looks for settlement accounts due and merchants due a run. */
  runCheckIntervalMs: number;
  /** Merchants settled per pass of the job; a full pass is followed by another at once. */
  runBatchSize: number;
  /** The minimum of a schedule no merchant has set, in kobo. */
  defaultMinimumMinor: bigint;
}

export interface SettlementSettings {
  /** How long a successful payin's money stays `pending` before settlement makes it `available`: a day in production, none in sandbox. */
  settlementDelaySeconds: number;
  settlementIntervalMs: number;
  settlementBatchSize: number;
  settlements: BankSettlementSettings;
}

/** Production refuses a change of settlement account in force sooner than this: the merchant must have time to see its announcement and cancel it. */
const PRODUCTION_MIN_ACCOUNT_CHANGE_DELAY_SECONDS = 3600;

export function readSettlement(env: Env, mode: ServiceMode, problems: string[]): SettlementSettings {
  const { int, bool } = envValues(env, problems);
  const accountChangeDelaySeconds = int('SETTLEMENT_ACCOUNT_CHANGE_DELAY_SECONDS', mode === 'production' ? 86_400 : 0, 0, 2_592_000);
  if (mode === 'production' && accountChangeDelaySeconds < PRODUCTION_MIN_ACCOUNT_CHANGE_DELAY_SECONDS) {
    problems.push(
      `SETTLEMENT_ACCOUNT_CHANGE_DELAY_SECONDS must be at least ${PRODUCTION_MIN_ACCOUNT_CHANGE_DELAY_SECONDS} in production, got ${accountChangeDelaySeconds}: a change of settlement account in force at once gives a merchant no time to cancel one made with a stolen key`,
    );
  }
  return {
    settlementDelaySeconds: int('SETTLEMENT_DELAY_SECONDS', mode === 'production' ? 86_400 : 0, 0, 2_592_000),
    settlementIntervalMs: int('SETTLEMENT_INTERVAL_MS', 60_000, 50, 3_600_000),
    settlementBatchSize: int('SETTLEMENT_BATCH_SIZE', 500, 1, 100_000),
    settlements: {
      enabled: bool('SETTLEMENTS_ENABLED', mode === 'sandbox'),
      accountChangeDelaySeconds,
      runHourUtc: int('SETTLEMENT_RUN_HOUR_UTC', 7, 0, 23),
      runCheckIntervalMs: int('SETTLEMENT_RUN_CHECK_INTERVAL_MS', 60_000, 50, 3_600_000),
      runBatchSize: int('SETTLEMENT_RUN_BATCH_SIZE', 100, 1, 10_000),
      defaultMinimumMinor: BigInt(int('SETTLEMENT_DEFAULT_MINIMUM_AMOUNT', 1000, 0, 1_000_000_000)) * 100n,
    },
  };
}
