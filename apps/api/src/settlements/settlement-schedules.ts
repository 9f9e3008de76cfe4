import type { SettlementInterval } from '@paysign/contracts';
import type { SqlClient, SqlQueryable } from '../db/sql-client';
import { observeThrough, type StoreProbe } from '../stores/store-probe';
import type { ScheduleRule } from './settlement-calendar';

/** A merchant's schedule as the runs read it: what the merchant set, else the defaults. */
export interface StoredSchedule extends ScheduleRule {
  minimumMinor: bigint;
}

/** The failed settlement that paused a merchant's settlements, when one did. */
export interface Pause {
  settlementId: string;
  reason: string;
}

/**
 * A merchant's settlements pause when one made to the account in force
 * failed, and resume when another account comes into force, or when the
 * schedule is set after the failure: the one rule the runs, the API and the
 * views read. A settlement made to an account since replaced pauses
 * nothing, whenever it fails. `m`: the merchant's id; `account`,
 * `settings`: aliases of its account in force and its settings row.
 */
const FAILED_TO_ACCOUNT_IN_FORCE = (m: string, account: string, settings: string): string => `
  FROM settlements s JOIN payouts t ON t.merchant_id = s.merchant_id AND t.reference = s.id
  WHERE s.merchant_id = ${m} AND t.status IN ('FAILED', 'CANCELLED') AND s.created_at >= ${account}.effective_at
    AND (${settings}.resumed_at IS NULL OR t.completed_at > ${settings}.resumed_at)`;

/** The pause rule as SQL, for the runs that select many merchants at once. */
export const PAUSED_SQL = (m: string, account: string, settings: string): string => `EXISTS (SELECT 1 ${FAILED_TO_ACCOUNT_IN_FORCE(m, account, settings)})`;

/** Merchants' settlement schedules (settlement_settings), with the defaults for one never set. */
export class SettlementSchedules {
  private readonly observed: ReturnType<typeof observeThrough>;

  constructor(
    private readonly client: SqlClient,
    private readonly defaultMinimumMinor: bigint,
    probe?: StoreProbe,
  ) {
    this.observed = observeThrough(probe);
  }

  async of(merchantId: string, on: SqlQueryable = this.client): Promise<StoredSchedule> {
    const { rows } = await this.observed('find', () =>
      on.query<{ interval: SettlementInterval | null; minimum_minor: string | null; weekday: number | null }>(
        'SELECT interval, minimum_minor::text AS minimum_minor, weekday FROM settlement_settings WHERE merchant_id = $1',
        [merchantId],
      ),
    );
    const row = rows[0];
    return {
      interval: row?.interval ?? 'daily',
      weekday: row?.interval === 'weekly' ? Number(row.weekday) : null,
      minimumMinor: row?.minimum_minor == null ? this.defaultMinimumMinor : BigInt(row.minimum_minor),
    };
  }

  /**
   * Sets the schedule, and resumes settlements a failed one paused: the
   * merchant says the account is right. `alsoInTransaction` (a security log
   * line) commits with it or not at all.
   */
  async set(merchantId: string, schedule: StoredSchedule, now: Date, options: { alsoInTransaction?: (tx: SqlQueryable) => Promise<void> } = {}): Promise<void> {
    const write = async (on: SqlQueryable): Promise<void> => {
      await on.query(
        `INSERT INTO settlement_settings (merchant_id, interval, minimum_minor, weekday, resumed_at, updated_at) VALUES ($1, $2, $3, $4, $5, $5)
         ON CONFLICT (merchant_id) DO UPDATE SET interval = EXCLUDED.interval, minimum_minor = EXCLUDED.minimum_minor, weekday = EXCLUDED.weekday, resumed_at = EXCLUDED.resumed_at, updated_at = EXCLUDED.updated_at`,
        [merchantId, schedule.interval, schedule.minimumMinor.toString(), schedule.weekday, now.toISOString()],
      );
    };
    const { alsoInTransaction } = options;
    await this.observed('change', () =>
      alsoInTransaction
        ? this.client.transaction(async (tx) => {
            await write(tx);
            await alsoInTransaction(tx);
          })
        : write(this.client),
    );
  }

  /** The failed settlement that pauses the merchant's settlements now; undefined when they are not paused. */
  async pauseOf(merchantId: string, on: SqlQueryable = this.client): Promise<Pause | undefined> {
    const { rows } = await this.observed('find', () =>
      on.query<{ id: string; failure_reason: string | null }>(
        `SELECT f.id, f.failure_reason FROM settlement_accounts a LEFT JOIN settlement_settings st ON st.merchant_id = a.merchant_id
         CROSS JOIN LATERAL (SELECT s.id, t.failure_reason ${FAILED_TO_ACCOUNT_IN_FORCE('a.merchant_id', 'a', 'st')} ORDER BY t.completed_at DESC, s.id DESC LIMIT 1) f
         WHERE a.merchant_id = $1 AND a.status = 'active'`,
        [merchantId],
      ),
    );
    const latest = rows[0];
    return latest && { settlementId: latest.id, reason: latest.failure_reason ?? 'failed' };
  }
}
