import { randomBytes } from 'node:crypto';
import type { SettlementStatus } from '@paysign/contracts';
import type { SqlClient, SqlQueryable } from '../db/sql-client';
import { createdWindowConditions } from '../db/listing-conditions';
import { balancesOfKind, newestEntryOf } from '../ledger/balance-cover';
import type { Ledger } from '../ledger/ledger';
import { PAYOUT_COLUMNS, payoutFromRow, type PayoutEventOf, type PayoutRow, type StoredPayout } from '../payouts/payout-rows';
import type { PayoutStore } from '../payouts/payout-store';
import { observeThrough, type StoreProbe } from '../stores/store-probe';
import type { SettlementAccounts } from './settlement-accounts';
import type { Pause, SettlementSchedules } from './settlement-schedules';
import { PAUSED_SQL } from './settlement-schedules';
import { settlementNarration, TRANSFER_STATUSES_OF } from './settlement-view';

/** The currencies the platform settles: the payout providers transfer naira only. */
export const SETTLING_CURRENCIES = ['NGN'] as const;
export type SettlingCurrency = (typeof SETTLING_CURRENCIES)[number];

/** `stl_` and 22 letters and digits: the id the bank narration carries. */
export function newSettlementId(): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  return `stl_${[...randomBytes(22)].map((byte) => alphabet[byte % alphabet.length]).join('')}`;
}

/** What one settlement of a merchant and currency comes to. */
export type SettleOutcome =
  | { outcome: 'created'; transfer: StoredPayout }
  | { outcome: 'already-settled'; id: string }
  | { outcome: 'suspended' }
  | { outcome: 'no-account' }
  | { outcome: 'paused'; pause: Pause }
  | { outcome: 'below-minimum'; availableMinor: bigint; minimumMinor: bigint };

export interface SettleRequest {
  merchantId: string;
  currency: SettlingCurrency;
  /** `schedule:<UTC day>` for a run of the schedule; `manual:<reference>` for a POST, its idempotency key. */
  runKey: string;
  /** The API key of a POST; null for a run of the schedule. */
  requestedBy: string | null;
  /** The least `available` it settles. */
  minimumMinor: bigint;
  /** Written with the settlement when one is made, such as its security log line: both commit or neither. */
  alsoInTransaction?: (tx: SqlQueryable, id: string) => Promise<void>;
}

export interface SettlementListQuery {
  merchantId: string;
  status?: SettlementStatus;
  createdFrom?: Date;
  createdTo?: Date;
  after?: { createdAt: Date; reference: string };
  limit: number;
}

/** A merchant due a run of the schedule, with its minimum. */
export interface DueMerchant {
  merchantId: string;
  minimumMinor: bigint;
}

/**
 * Settlements in the payin database. A settlement is a row here with what it
 * covered, and its transfer: a payout row of purpose `settlement` under the
 * settlement's id, which the payout dispatcher sends and settles under the
 * payouts' exactly-once rules, and whose status is the settlement's.
 */
export class SettlementStore {
  private readonly observed: ReturnType<typeof observeThrough>;

  constructor(
    private readonly client: SqlClient,
    private readonly ledger: Ledger,
    private readonly payouts: PayoutStore,
    private readonly accounts: SettlementAccounts,
    private readonly schedules: SettlementSchedules,
    probe?: StoreProbe,
  ) {
    this.observed = observeThrough(probe);
  }

  /**
   * Settles the merchant's whole `available` balance in the currency, in one
   * transaction: the balance is locked first (as every payout and refund
   * does), so that no spend races it and the entries it covers are exactly
   * those before its hold; then at most one settlement per merchant,
   * currency and run (the run's key is checked under the lock, and UNIQUE);
   * then the account in force, the pause, and the minimum.
   */
  async settle(request: SettleRequest, now: Date, eventOf: PayoutEventOf): Promise<SettleOutcome> {
    const { merchantId, currency } = request;
    return this.observed('settle', () =>
      this.client.transaction(async (tx): Promise<SettleOutcome> => {
        const availableMinor = await this.ledger.lockAvailable(tx, merchantId, currency);
        const { rows: done } = await tx.query<{ id: string }>('SELECT id FROM settlements WHERE merchant_id = $1 AND currency = $2 AND run_key = $3', [merchantId, currency, request.runKey]);
        if (done[0]) return { outcome: 'already-settled', id: done[0].id };
        // Read under the balance's lock: an operator's suspension committed before this settlement stops it.
        const { rows: suspended } = await tx.query("SELECT 1 FROM merchants WHERE merchant_id = $1 AND status = 'suspended'", [merchantId]);
        if (suspended.length > 0) return { outcome: 'suspended' };
        const { current } = await this.accounts.of(merchantId, tx);
        if (!current) return { outcome: 'no-account' };
        const pause = await this.schedules.pauseOf(merchantId, tx);
        if (pause) return { outcome: 'paused', pause };
        const minimumMinor = request.minimumMinor > 0n ? request.minimumMinor : 1n;
        if (availableMinor < minimumMinor) return { outcome: 'below-minimum', availableMinor, minimumMinor };

        const previous = await tx.query<{ hold_entry_id: string }>(
          'SELECT hold_entry_id::text AS hold_entry_id FROM settlements WHERE merchant_id = $1 AND currency = $2 ORDER BY hold_entry_id DESC LIMIT 1',
          [merchantId, currency],
        );
        for (let attempt = 0; attempt < 3; attempt += 1) {
          const id = newSettlementId();
          const transfer = await this.payouts.createSettlementTransferOn(
            tx,
            {
              merchantId,
              reference: id,
              amountMinor: availableMinor,
              feeMinor: 0n,
              currency,
              bankCode: current.bankCode,
              accountNumber: current.accountNumber,
              accountName: current.accountName,
              nameMatch: 'not_checked',
              narration: settlementNarration(id),
              enquiryId: current.enquiryId,
              notifyUrl: null,
              requestFingerprint: id,
              createdBy: request.requestedBy,
              batchReference: null,
              purpose: 'settlement',
            },
            now,
            eventOf,
          );
          // A merchant's own payout took the id: another, never a second settlement.
          if (!transfer) continue;
          // The hold is the newest entry of `available`: every posting to it holds its row's lock until commit, as this one does.
          const holdEntryId = await newestEntryOf(tx, { merchantId, currency, kind: 'available' });
          await tx.query(
            `INSERT INTO settlements (merchant_id, id, currency, run_key, trigger, amount_minor, covers_after_entry_id, hold_entry_id, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
            [merchantId, id, currency, request.runKey, request.requestedBy === null ? 'schedule' : 'manual', availableMinor.toString(), previous.rows[0]?.hold_entry_id ?? '0', holdEntryId.toString(), now.toISOString()],
          );
          await request.alsoInTransaction?.(tx, id);
          return { outcome: 'created', transfer };
        }
        throw new Error('three settlement ids in a row were taken by payouts of the merchant');
      }),
    );
  }

  /** The settlement's transfer, which carries its state. */
  async find(merchantId: string, id: string): Promise<StoredPayout | undefined> {
    const { rows } = await this.observed('find', () =>
      this.client.query<PayoutRow>(`SELECT ${PAYOUT_COLUMNS} FROM payouts WHERE merchant_id = $1 AND reference = $2 AND purpose = 'settlement'`, [merchantId, id]),
    );
    return rows[0] ? payoutFromRow(rows[0]) : undefined;
  }

  /** What the settlement covered: the entry ids of `available` it lies between, exclusive. */
  async coverOf(merchantId: string, id: string): Promise<{ currency: string; aboveId: bigint; belowId: bigint } | undefined> {
    const { rows } = await this.observed('find', () =>
      this.client.query<{ currency: string; covers_after_entry_id: string; hold_entry_id: string }>(
        'SELECT currency, covers_after_entry_id::text AS covers_after_entry_id, hold_entry_id::text AS hold_entry_id FROM settlements WHERE merchant_id = $1 AND id = $2',
        [merchantId, id],
      ),
    );
    const row = rows[0];
    return row && { currency: row.currency, aboveId: BigInt(row.covers_after_entry_id), belowId: BigInt(row.hold_entry_id) };
  }

  async list(query: SettlementListQuery): Promise<StoredPayout[]> {
    const params: unknown[] = [query.merchantId];
    const where = ['merchant_id = $1', "purpose = 'settlement'"];
    if (query.status !== undefined) where.push(`status IN (${TRANSFER_STATUSES_OF[query.status].map((status) => `$${params.push(status)}`).join(', ')})`);
    where.push(...createdWindowConditions(query, params));
    const { rows } = await this.observed('list', () =>
      this.client.query<PayoutRow>(`SELECT ${PAYOUT_COLUMNS} FROM payouts WHERE ${where.join(' AND ')} ORDER BY created_at DESC, reference DESC LIMIT $${params.push(query.limit)}`, params),
    );
    return rows.map(payoutFromRow);
  }

  /**
   * Up to `limit` merchants due the run `runKey` in `currency`: a settlement
   * account in force, a schedule that takes part in the run (daily, or weekly
   * on `isoWeekday`), not paused, not suspended by the operator (whose
   * money waits for the investigation), not settled in the run yet, and at
   * least their minimum available.
   */
  async dueFor(run: { key: string; isoWeekday: number }, currency: SettlingCurrency, defaultMinimumMinor: bigint, limit: number, on: SqlQueryable = this.client): Promise<DueMerchant[]> {
    const { rows } = await this.observed('due', () =>
      on.query<{ merchant_id: string; minimum_minor: string }>(
        `SELECT a.merchant_id, coalesce(st.minimum_minor, $3)::text AS minimum_minor
         FROM settlement_accounts a
         LEFT JOIN settlement_settings st ON st.merchant_id = a.merchant_id
         JOIN ${balancesOfKind('available')} b ON b.merchant_id = a.merchant_id AND b.currency = $2
         WHERE a.status = 'active'
           AND (coalesce(st.interval, 'daily') = 'daily' OR (st.interval = 'weekly' AND st.weekday = $4))
           AND b.balance_minor >= greatest(coalesce(st.minimum_minor, $3), 1)
           AND NOT EXISTS (SELECT 1 FROM settlements s WHERE s.merchant_id = a.merchant_id AND s.currency = $2 AND s.run_key = $1)
           AND NOT EXISTS (SELECT 1 FROM merchants m WHERE m.merchant_id = a.merchant_id AND m.status = 'suspended')
           AND NOT ${PAUSED_SQL('a.merchant_id', 'a', 'st')}
         ORDER BY a.merchant_id LIMIT $5`,
        [run.key, currency, defaultMinimumMinor.toString(), run.isoWeekday, limit],
      ),
    );
    return rows.map((row) => ({ merchantId: row.merchant_id, minimumMinor: BigInt(row.minimum_minor) }));
  }
}
