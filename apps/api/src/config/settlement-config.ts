import { envValues, type Env } from './env-values';
import type { ServiceMode } from './service-mode';

export interface SettlementSettings {
  /** How long a successful payin's money stays `pending` before settlement makes it `available`: a day in production, none in sandbox. */
  settlementDelaySeconds: number;
  settlementIntervalMs: number;
  settlementBatchSize: number;
}

export function readSettlement(env: Env, mode: ServiceMode, problems: string[]): SettlementSettings {
  const { int } = envValues(env, problems);
  return {
    settlementDelaySeconds: int('SETTLEMENT_DELAY_SECONDS', mode === 'production' ? 86_400 : 0, 0, 2_592_000),
    settlementIntervalMs: int('SETTLEMENT_INTERVAL_MS', 60_000, 50, 3_600_000),
    settlementBatchSize: int('SETTLEMENT_BATCH_SIZE', 500, 1, 100_000),
  };
}
