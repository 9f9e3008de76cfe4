import type { SqlClient, SqlQueryable } from '../db/sql-client';
import { toDate } from '../db/sql-client';
import { sqlNow, type StoreClock } from '../db/store-clock';
import type { LedgerCheckState } from '../metrics/service-metrics';

/** Names the advisory lock a scheduled check holds while it runs (any fixed number, unique to this use). */
export const LEDGER_CHECK_LOCK = 0x5041_4c43;

/** How much longer than the server's statement timeout the driver waits, so that the server's cancel is what the check reports. */
const DRIVER_MARGIN_MS = 1000;

/** What one check found: the rows breaking each invariant, 0 for one that holds. */
export type LedgerCheckFindings = Readonly<Record<string, number>>;

export interface LedgerCheckStoreOptions {
  /**
   * Set for PostgreSQL (DATABASE_URL), which instances share: a check then
   * holds an advisory lock, and the server stops each of its statements at
   * `statementTimeoutMs` (LEDGER_CHECK_STATEMENT_TIMEOUT_MS), the driver just
   * after. Unset for the embedded store, which one process uses and whose one
   * connection a transaction would hold for the whole check.
   */
  shared?: { statementTimeoutMs: number };
}

/**
 * The scheduled ledger check's one row (`ledger_checks`), shared by every
 * instance, so that the ledger is checked once per interval across them all,
 * restarts included, and every instance reports the same last check.
 */
export class LedgerCheckStore {
  constructor(
    private readonly client: SqlClient,
    private readonly storeClock: StoreClock,
    private readonly options: LedgerCheckStoreOptions = {},
  ) {}

  /**
   * Claims the next check when none was claimed within `intervalSeconds`, by
   * the store's clock: one statement on one row, so of instances that try at
   * once one claims it and the others find it claimed. Resolves the claim's
   * instant, or undefined when it is not due. A claim is spent whatever the
   * check then does: a check that fails is tried again an interval later, not
   * at every poll.
   */
  async claim(intervalSeconds: number): Promise<Date | undefined> {
    const params: unknown[] = [];
    const now = sqlNow(this.storeClock, params);
    const { rows } = await this.client.query<{ claimed_at: Date | string }>(
      `UPDATE ledger_checks SET claimed_at = ${now}
       WHERE id = 1 AND (claimed_at IS NULL OR claimed_at <= ${now} - $${params.push(intervalSeconds)} * interval '1 second')
       RETURNING claimed_at`,
      params,
    );
    return rows[0] ? toDate(rows[0].claimed_at) : undefined;
  }

  /**
   * Runs `check`, whose statements only read, and records what it found as
   * the check claimed at `claimedAt`. On PostgreSQL it holds the check's
   * advisory lock throughout, and resolves undefined, having run nothing,
   * when another check holds it (one that has outlived its interval): two
   * checks never run at once. Each of its statements runs in a savepoint
   * rolled back after it, which releases the share locks it took on the
   * tables it read: a migration that must wait for them waits for that one
   * statement, never for the whole check. The one write is this row.
   */
  async runExclusive(claimedAt: Date, check: (client: SqlQueryable) => Promise<LedgerCheckFindings>): Promise<LedgerCheckFindings | undefined> {
    const { shared } = this.options;
    if (shared === undefined) {
      const findings = await check(this.client);
      await this.record(this.client, claimedAt, findings);
      return findings;
    }
    return this.client.transaction(async (tx) => {
      const { rows } = await tx.query<{ locked: boolean }>('SELECT pg_try_advisory_xact_lock($1) AS locked', [LEDGER_CHECK_LOCK]);
      if (rows[0]?.locked !== true) return undefined;
      // The server gives up first, and says so (57014); the driver waits a moment longer for that answer.
      await tx.query(`SET LOCAL statement_timeout = ${Math.round(shared.statementTimeoutMs)}`);
      const waitMs = shared.statementTimeoutMs + DRIVER_MARGIN_MS;
      const findings = await check({
        query: async <R>(sql: string, params?: unknown[]) => {
          await tx.query('SAVEPOINT ledger_check_statement');
          const result = await tx.query<R>(sql, params, { timeoutMs: waitMs });
          await tx.query('ROLLBACK TO SAVEPOINT ledger_check_statement');
          return result;
        },
      });
      await this.record(tx, claimedAt, findings);
      return findings;
    });
  }

  /** The last completed check, as every instance reports it. */
  async last(): Promise<LedgerCheckState> {
    const { rows } = await this.client.query<{ failures: unknown; last_good_at: Date | string | null }>('SELECT failures, last_good_at FROM ledger_checks WHERE id = 1');
    const row = rows[0];
    // node-postgres parses jsonb; a PGlite driver may give the text.
    const failures = typeof row?.failures === 'string' ? (JSON.parse(row.failures) as LedgerCheckFindings) : ((row?.failures ?? undefined) as LedgerCheckFindings | undefined);
    return { failures, lastGoodSeconds: row?.last_good_at ? toDate(row.last_good_at).getTime() / 1000 : 0 };
  }

  private async record(client: SqlQueryable, claimedAt: Date, findings: LedgerCheckFindings): Promise<void> {
    const good = Object.values(findings).every((count) => count === 0);
    await client.query(
      `UPDATE ledger_checks SET checked_at = $1::timestamptz, failures = $2::jsonb, last_good_at = CASE WHEN $3::boolean THEN $1::timestamptz ELSE last_good_at END WHERE id = 1`,
      [claimedAt.toISOString(), JSON.stringify(findings), good],
    );
  }
}
