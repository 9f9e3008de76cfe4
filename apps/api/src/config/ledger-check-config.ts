import { envValues, type Env } from './env-values';

export interface LedgerCheckSettings {
  /**
   * How often the ledger's invariants are checked by the service, across all
   * instances together (LEDGER_CHECK_INTERVAL_SECONDS). Default 3600; from 60
   * to 86400. It cannot be turned off: a ledger nobody checks breaks silently.
   */
  ledgerCheckIntervalSeconds: number;
  /**
   * The longest one statement of the scheduled check may run on PostgreSQL
   * (LEDGER_CHECK_STATEMENT_TIMEOUT_MS), in place of DATABASE_QUERY_TIMEOUT_MS,
   * which is sized for requests: an invariant reads whole tables. Default
   * 60000; from 1000 to 600000.
   */
  ledgerCheckStatementTimeoutMs: number;
}

export function readLedgerCheck(env: Env, problems: string[]): LedgerCheckSettings {
  const { int } = envValues(env, problems);
  return {
    ledgerCheckIntervalSeconds: int('LEDGER_CHECK_INTERVAL_SECONDS', 3600, 60, 86_400),
    ledgerCheckStatementTimeoutMs: int('LEDGER_CHECK_STATEMENT_TIMEOUT_MS', 60_000, 1000, 600_000),
  };
}
