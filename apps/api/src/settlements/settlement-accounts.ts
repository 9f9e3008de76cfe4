import type { SqlClient, SqlQueryable } from '../db/sql-client';
import { toDate } from '../db/sql-client';
import type { EventOutbox } from '../events/event-outbox';
import { observeThrough, type StoreProbe } from '../stores/store-probe';
import type { SettlementAccountChange, SettlementAccountOfEvent, SettlementEvents } from './settlement-events';

export interface StoredSettlementAccount extends SettlementAccountOfEvent {
  id: string;
  merchantId: string;
  status: 'pending' | 'active' | 'replaced' | 'cancelled';
  requestedBy: string;
  requestedAt: Date;
  effectiveAt: Date;
}

/** Written with a change of the account, such as its security log line: both commit or neither. */
export type AlsoInTransaction = (tx: SqlQueryable, changed: StoredSettlementAccount) => Promise<void>;

/** The account settlements are paid to now, and a change waiting for its delay. */
export interface SettlementAccountsOf {
  current?: StoredSettlementAccount;
  pending?: StoredSettlementAccount;
}

interface AccountRow {
  id: string;
  merchant_id: string;
  status: StoredSettlementAccount['status'];
  bank_code: string;
  account_number: string;
  account_name: string;
  enquiry_id: string;
  requested_by: string;
  requested_at: Date | string;
  effective_at: Date | string;
}

const COLUMNS = 'id::text AS id, merchant_id, status, bank_code, account_number, account_name, enquiry_id, requested_by, requested_at, effective_at';

const fromRow = (row: AccountRow): StoredSettlementAccount => ({
  id: row.id,
  merchantId: row.merchant_id,
  status: row.status,
  bankCode: row.bank_code,
  accountNumber: row.account_number,
  accountName: row.account_name,
  enquiryId: row.enquiry_id,
  requestedBy: row.requested_by,
  requestedAt: toDate(row.requested_at),
  effectiveAt: toDate(row.effective_at),
});

const ofEvent = (account: StoredSettlementAccount): SettlementAccountOfEvent => ({ bankCode: account.bankCode, accountNumber: account.accountNumber, accountName: account.accountName, enquiryId: account.enquiryId });

/**
 * Merchants' settlement accounts in the payin database: at most one in force
 * and one change waiting per merchant (partial UNIQUE indexes). Every change
 * takes the merchant's settlement settings row first, so that changes of one
 * merchant queue, and numbers its event from the version kept there; each
 * writes its `settlement_account.changed` event in its own transaction.
 */
export class SettlementAccounts {
  private readonly observed: ReturnType<typeof observeThrough>;

  constructor(
    private readonly client: SqlClient,
    private readonly outbox: EventOutbox,
    private readonly events: SettlementEvents,
    probe?: StoreProbe,
  ) {
    this.observed = observeThrough(probe);
  }

  async of(merchantId: string, on: SqlQueryable = this.client): Promise<SettlementAccountsOf> {
    const { rows } = await this.observed('find', () => on.query<AccountRow>(`SELECT ${COLUMNS} FROM settlement_accounts WHERE merchant_id = $1 AND status IN ('active', 'pending')`, [merchantId]));
    const accounts = rows.map(fromRow);
    const current = accounts.find((account) => account.status === 'active');
    const pending = accounts.find((account) => account.status === 'pending');
    return { ...(current ? { current } : {}), ...(pending ? { pending } : {}) };
  }

  /**
   * Asks for the account: in force after `delayMs` (at once when 0), the
   * first as any change, replacing a change already waiting. Announced
   * either way.
   */
  async request(merchantId: string, account: SettlementAccountOfEvent, requestedBy: string, delayMs: number, now: Date, options: { alsoInTransaction?: AlsoInTransaction } = {}): Promise<SettlementAccountsOf> {
    return this.observed('change', () =>
      this.client.transaction(async (tx) => {
        await this.lockSettings(tx, merchantId, now);
        const before = await this.of(merchantId, tx);
        if (before.pending) await tx.query(`UPDATE settlement_accounts SET status = 'cancelled', ended_at = $2 WHERE id = $1`, [before.pending.id, now.toISOString()]);
        // The first account waits as a change does: a stolen key must not name one and settle to it at once.
        const immediate = delayMs === 0;
        const effectiveAt = immediate ? now : new Date(now.getTime() + delayMs);
        if (immediate && before.current) await tx.query(`UPDATE settlement_accounts SET status = 'replaced', ended_at = $2 WHERE id = $1`, [before.current.id, now.toISOString()]);
        const { rows } = await tx.query<AccountRow>(
          `INSERT INTO settlement_accounts (merchant_id, status, bank_code, account_number, account_name, enquiry_id, requested_by, requested_at, effective_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING ${COLUMNS}`,
          [merchantId, immediate ? 'active' : 'pending', account.bankCode, account.accountNumber, account.accountName, account.enquiryId, requestedBy, now.toISOString(), effectiveAt.toISOString()],
        );
        const added = fromRow(rows[0] as AccountRow);
        await this.announce(tx, added, immediate ? 'in_force' : 'requested', before.current ?? null, now);
        await options.alsoInTransaction?.(tx, added);
        return this.of(merchantId, tx);
      }),
    );
  }

  /** Cancels the change waiting; undefined when none is. */
  async cancel(merchantId: string, now: Date, options: { alsoInTransaction?: AlsoInTransaction } = {}): Promise<SettlementAccountsOf | undefined> {
    return this.observed('change', () =>
      this.client.transaction(async (tx) => {
        await this.lockSettings(tx, merchantId, now);
        const before = await this.of(merchantId, tx);
        if (!before.pending) return undefined;
        await tx.query(`UPDATE settlement_accounts SET status = 'cancelled', ended_at = $2 WHERE id = $1`, [before.pending.id, now.toISOString()]);
        await this.announce(tx, before.pending, 'cancelled', before.current ?? null, now);
        await options.alsoInTransaction?.(tx, before.pending);
        return this.of(merchantId, tx);
      }),
    );
  }

  /**
   * Brings up to `limit` changes whose delay has passed into force, each in
   * its own transaction, the account before replaced. Safe with N instances:
   * a change is taken under the merchant's settings lock and only while it is
   * still waiting. Resolves how many were due.
   */
  async bringDueIntoForce(limit: number, now: Date): Promise<number> {
    const { rows: due } = await this.observed('due', () =>
      this.client.query<{ merchant_id: string }>(`SELECT merchant_id FROM settlement_accounts WHERE status = 'pending' AND effective_at <= $1 ORDER BY effective_at LIMIT $2`, [now.toISOString(), limit]),
    );
    for (const { merchant_id: merchantId } of due) {
      await this.observed('change', () =>
        this.client.transaction(async (tx) => {
          await this.lockSettings(tx, merchantId, now);
          const before = await this.of(merchantId, tx);
          if (!before.pending || before.pending.effectiveAt > now) return;
          if (before.current) await tx.query(`UPDATE settlement_accounts SET status = 'replaced', ended_at = $2 WHERE id = $1`, [before.current.id, now.toISOString()]);
          // In force from now, which a failure before it never outlasts: the pause rule compares the two.
          await tx.query(`UPDATE settlement_accounts SET status = 'active', effective_at = $2 WHERE id = $1`, [before.pending.id, now.toISOString()]);
          await this.announce(tx, before.pending, 'in_force', before.current ?? null, now);
        }),
      );
    }
    return due.length;
  }

  /** The merchant's settings row, created with the defaults the first time, locked for the rest of `tx`. */
  private async lockSettings(tx: SqlQueryable, merchantId: string, now: Date): Promise<void> {
    await tx.query(
      `INSERT INTO settlement_settings (merchant_id, updated_at) VALUES ($1, $2) ON CONFLICT (merchant_id) DO UPDATE SET merchant_id = EXCLUDED.merchant_id`,
      [merchantId, now.toISOString()],
    );
  }

  private async announce(tx: SqlQueryable, account: StoredSettlementAccount, phase: SettlementAccountChange['phase'], previous: StoredSettlementAccount | null, now: Date): Promise<void> {
    const { rows } = await tx.query<{ account_version: number }>('UPDATE settlement_settings SET account_version = account_version + 1 WHERE merchant_id = $1 RETURNING account_version', [account.merchantId]);
    const version = Number(rows[0]?.account_version);
    const change: SettlementAccountChange = {
      merchantId: account.merchantId,
      phase,
      account: ofEvent(account),
      previousAccount: previous && ofEvent(previous),
      requestedAt: account.requestedAt,
      effectiveAt: phase === 'in_force' ? now : account.effectiveAt,
      version,
      occurredAt: now,
    };
    await this.outbox.writeMany(tx, this.events.accountChanged(change));
  }
}
