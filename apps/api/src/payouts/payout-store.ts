import type { NameMatch, PayoutFailureReason, PayoutStatus } from '@paysign/contracts';
import { toDate, type SqlClient, type SqlQueryable } from '../db/sql-client';
import { sqlNow, sqlNowPlus, type StoreClock } from '../db/store-clock';
import type { EventOutbox } from '../events/event-outbox';
import type { NewOutboxEvent } from '../events/outbox-event';
import type { Ledger } from '../ledger/ledger';
import { observeThrough, type StoreProbe } from '../stores/store-probe';
import { fromStatusOf, type PayoutTransition } from './payout-states';

export interface NewPayout {
  merchantId: string;
  reference: string;
  amountMinor: bigint;
  feeMinor: bigint;
  currency: 'NGN';
  bankCode: string;
  accountNumber: string;
  accountName: string;
  nameMatch: NameMatch;
  narration: string;
  enquiryId: string;
  notifyUrl: string | null;
  /** SHA-256 of the normalised create request; equal fingerprints are the same request. */
  requestFingerprint: string;
}

export interface StoredPayout extends NewPayout {
  status: PayoutStatus;
  providerReference: string | null;
  failureReason: PayoutFailureReason | null;
  needsAttention: boolean;
  statusChecks: number;
  nextStatusCheckAt: Date | null;
  processingAt: Date | null;
  version: number;
  createdAt: Date;
  completedAt: Date | null;
  reversedAt: Date | null;
}

export interface PayoutKey {
  merchantId: string;
  reference: string;
}

export interface PayoutListQuery {
  merchantId: string;
  status?: PayoutStatus;
  createdFrom?: Date;
  createdTo?: Date;
  after?: { createdAt: Date; reference: string };
  limit: number;
}

/** Builds the outbox row of a payout that just moved, if it has one. */
export type PayoutEventOf = (moved: StoredPayout) => NewOutboxEvent | undefined;

/** Why a payout could not be created: the refusals found inside its transaction. */
export type CreateRefusal = { refused: 'daily-limit'; usedMinor: bigint };

interface PayoutRow {
  merchant_id: string;
  reference: string;
  status: PayoutStatus;
  amount_minor: string;
  fee_minor: string;
  currency: 'NGN';
  bank_code: string;
  account_number: string;
  account_name: string;
  name_match: NameMatch;
  narration: string;
  enquiry_id: string;
  notify_url: string | null;
  request_fingerprint: string;
  provider_reference: string | null;
  failure_reason: PayoutFailureReason | null;
  needs_attention: boolean;
  status_checks: number;
  next_status_check_at: Date | string | null;
  processing_at: Date | string | null;
  version: number;
  created_at: Date | string;
  completed_at: Date | string | null;
  reversed_at: Date | string | null;
}

const COLUMNS = `merchant_id, reference, status, amount_minor::text AS amount_minor, fee_minor::text AS fee_minor, currency, bank_code, account_number, account_name, name_match,
  narration, enquiry_id, notify_url, request_fingerprint, provider_reference, failure_reason, needs_attention, status_checks, next_status_check_at, processing_at,
  version, created_at, completed_at, reversed_at`;

/**
 * Payouts in the payin database, with their money in the ledger. Every move
 * is one compare-and-set on the status, with its ledger journal and its
 * outbox event, in one transaction: of two racing moves one wins, and the
 * money and the event follow the winner only.
 */
export class PayoutStore {
  constructor(
    private readonly client: SqlClient,
    private readonly ledger: Ledger,
    private readonly outbox: EventOutbox,
    private readonly storeClock: StoreClock,
    probe?: StoreProbe,
  ) {
    this.observed = observeThrough(probe);
  }

  private readonly observed: ReturnType<typeof observeThrough>;

  /**
   * Creates the payout and holds its money, in one transaction, unless the
   * merchant already has one with this reference: then resolves with that
   * one and `created: false`. The merchant's `available` row is locked first,
   * so that creates of one merchant queue, and the daily total they count is
   * exact. Throws InsufficientBalanceError, rolling everything back, when
   * `available` is short.
   */
  async create(payout: NewPayout, dailyLimitMinor: bigint, now: Date): Promise<{ created: boolean; payout: StoredPayout } | CreateRefusal> {
    return this.observed('create', () =>
      this.client.transaction(async (tx) => {
        await tx.query('SELECT 1 FROM ledger_accounts WHERE id = $1 FOR UPDATE', [`merchant:${payout.merchantId}:${payout.currency}:available`]);
        const existing = await this.findOn(tx, payout);
        if (existing) return { created: false, payout: existing };
        // By the clock that stamps created_at: the last 24 hours of this merchant's payouts.
        const used = await tx.query<{ used: string }>(
          `SELECT coalesce(sum(amount_minor), 0)::text AS used FROM payouts WHERE merchant_id = $1 AND created_at > $2::timestamptz AND status NOT IN ('FAILED', 'CANCELLED')`,
          [payout.merchantId, new Date(now.getTime() - 86_400_000).toISOString()],
        );
        const usedMinor = BigInt(used.rows[0]?.used ?? 0);
        if (usedMinor + payout.amountMinor > dailyLimitMinor) return { refused: 'daily-limit', usedMinor };
        const { rows } = await tx.query<PayoutRow>(
          `INSERT INTO payouts (merchant_id, reference, status, amount_minor, fee_minor, currency, bank_code, account_number, account_name, name_match, narration, enquiry_id, notify_url, request_fingerprint, created_at)
           VALUES ($1, $2, 'QUEUED', $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14::timestamptz)
           ON CONFLICT (merchant_id, reference) DO NOTHING
           RETURNING ${COLUMNS}`,
          [
            payout.merchantId,
            payout.reference,
            payout.amountMinor.toString(),
            payout.feeMinor.toString(),
            payout.currency,
            payout.bankCode,
            payout.accountNumber,
            payout.accountName,
            payout.nameMatch,
            payout.narration,
            payout.enquiryId,
            payout.notifyUrl,
            payout.requestFingerprint,
            now.toISOString(),
          ],
        );
        // A create of the same reference that committed while this one waited: it is the payout.
        if (!rows[0]) return { created: false, payout: (await this.findOn(tx, payout)) as StoredPayout };
        const created = fromRow(rows[0]);
        await this.ledger.holdPayout(tx, money(created), now);
        return { created: true, payout: created };
      }),
    );
  }

  async find(key: PayoutKey): Promise<StoredPayout | undefined> {
    return this.observed('find', () => this.findOn(this.client, key));
  }

  async list(query: PayoutListQuery): Promise<StoredPayout[]> {
    const params: unknown[] = [query.merchantId];
    const where = ['merchant_id = $1'];
    if (query.status !== undefined) where.push(`status = $${params.push(query.status)}`);
    if (query.createdFrom !== undefined) where.push(`created_at >= $${params.push(query.createdFrom.toISOString())}::timestamptz`);
    if (query.createdTo !== undefined) where.push(`created_at < $${params.push(query.createdTo.toISOString())}::timestamptz`);
    if (query.after !== undefined) where.push(`(created_at, reference) < ($${params.push(query.after.createdAt.toISOString())}::timestamptz, $${params.push(query.after.reference)})`);
    const { rows } = await this.observed('list', () =>
      this.client.query<PayoutRow>(`SELECT ${COLUMNS} FROM payouts WHERE ${where.join(' AND ')} ORDER BY created_at DESC, reference DESC LIMIT $${params.push(query.limit)}`, params),
    );
    return rows.map(fromRow);
  }

  /**
   * Moves the payout as one compare-and-set from the state the move starts
   * from, with its journal and event. Resolves undefined, changing nothing,
   * when the payout is not in that state (another move won, or it is final).
   * PROCESSING sets the provider reference and the first status check,
   * due `firstCheckMs` later by the store's clock.
   */
  async move(key: PayoutKey, transition: PayoutTransition, now: Date, eventOf: PayoutEventOf, options: { firstCheckMs?: number; reversalWatchMs?: number } = {}): Promise<StoredPayout | undefined> {
    return this.observed('move', () =>
      this.client.transaction(async (tx) => {
        const params: unknown[] = [key.merchantId, key.reference, fromStatusOf(transition), transition.to, now.toISOString()];
        const set = ['status = $4', 'version = version + 1'];
        switch (transition.to) {
          case 'PROCESSING':
            set.push(`provider_reference = coalesce(provider_reference, 'PSX-' || replace(gen_random_uuid()::text, '-', ''))`, 'processing_at = $5::timestamptz', 'status_checks = 0');
            set.push(`next_status_check_at = ${sqlNowPlus(this.storeClock, params, options.firstCheckMs ?? 60_000)}`);
            break;
          case 'SUCCESSFUL':
            set.push('completed_at = $5::timestamptz', 'status_checks = 0', 'needs_attention = false');
            set.push(options.reversalWatchMs === undefined ? 'next_status_check_at = NULL' : `next_status_check_at = ${sqlNowPlus(this.storeClock, params, options.reversalWatchMs)}`);
            break;
          case 'FAILED':
            set.push('completed_at = $5::timestamptz', `failure_reason = $${params.push(transition.reason)}`, 'next_status_check_at = NULL', 'needs_attention = false');
            break;
          case 'CANCELLED':
            set.push('completed_at = $5::timestamptz', 'next_status_check_at = NULL');
            break;
          case 'REVERSED':
            set.push('reversed_at = $5::timestamptz', `failure_reason = $${params.push(transition.reason)}`, 'next_status_check_at = NULL');
            break;
        }
        const { rows } = await tx.query<PayoutRow>(`UPDATE payouts SET ${set.join(', ')} WHERE merchant_id = $1 AND reference = $2 AND status = $3 RETURNING ${COLUMNS}`, params);
        const moved = rows[0] ? fromRow(rows[0]) : undefined;
        if (!moved) return undefined;
        if (transition.to === 'SUCCESSFUL') await this.ledger.debitPayout(tx, money(moved), now);
        if (transition.to === 'FAILED' || transition.to === 'CANCELLED') await this.ledger.releasePayout(tx, money(moved), now);
        if (transition.to === 'REVERSED') await this.ledger.reversePayout(tx, money(moved), now);
        const event = eventOf(moved);
        if (event) await this.outbox.write(tx, event);
        return moved;
      }),
    );
  }

  /**
   * Takes up to `limit` QUEUED payouts to send, oldest first, moving each to
   * PROCESSING with its provider reference before anything is sent: a crash
   * after this never sends a second transfer, since the status check finds
   * the first by that reference. Safe with N instances (SKIP LOCKED).
   */
  async claimQueued(limit: number, now: Date, firstCheckMs: number): Promise<StoredPayout[]> {
    return this.observed('claim', () =>
      this.client.transaction(async (tx) => {
        const params: unknown[] = [limit, now.toISOString()];
        const firstCheck = sqlNowPlus(this.storeClock, params, firstCheckMs);
        const { rows } = await tx.query<PayoutRow>(
          `UPDATE payouts SET status = 'PROCESSING', version = version + 1, provider_reference = coalesce(provider_reference, 'PSX-' || replace(gen_random_uuid()::text, '-', '')),
             processing_at = $2::timestamptz, status_checks = 0, next_status_check_at = ${firstCheck}
           WHERE (merchant_id, reference) IN (SELECT merchant_id, reference FROM payouts WHERE status = 'QUEUED' ORDER BY created_at LIMIT $1 FOR UPDATE SKIP LOCKED)
             AND status = 'QUEUED'
           RETURNING ${COLUMNS}`,
          params,
        );
        return rows.map(fromRow);
      }),
    );
  }

  /**
   * Takes up to `limit` payouts whose status check is due by the store's
   * clock (PROCESSING ones, and successful ones watched for a reversal), and
   * moves each one's next check `leaseMs` on, as a lease: another instance
   * takes it only if this one never reschedules it.
   */
  async claimDueChecks(limit: number, leaseMs: number): Promise<StoredPayout[]> {
    return this.observed('claim', () =>
      this.client.transaction(async (tx) => {
        const params: unknown[] = [limit];
        const now = sqlNow(this.storeClock, params);
        const lease = sqlNowPlus(this.storeClock, params, leaseMs);
        const { rows } = await tx.query<PayoutRow>(
          `UPDATE payouts SET next_status_check_at = ${lease}
           WHERE (merchant_id, reference) IN (SELECT merchant_id, reference FROM payouts WHERE next_status_check_at <= ${now} ORDER BY next_status_check_at LIMIT $1 FOR UPDATE SKIP LOCKED)
           RETURNING ${COLUMNS}`,
          params,
        );
        return rows.map(fromRow);
      }),
    );
  }

  /** Records a status check that settled nothing: the next is due `nextCheckMs` after the payout's reference instant, and `needsAttention` may be raised. */
  async rescheduleCheck(key: PayoutKey, status: PayoutStatus, statusChecks: number, nextCheckAt: Date | null, needsAttention: boolean): Promise<StoredPayout | undefined> {
    const { rows } = await this.observed('reschedule', () =>
      this.client.query<PayoutRow>(
        `UPDATE payouts SET status_checks = $4, next_status_check_at = $5::timestamptz, needs_attention = needs_attention OR $6
         WHERE merchant_id = $1 AND reference = $2 AND status = $3 RETURNING ${COLUMNS}`,
        [key.merchantId, key.reference, status, statusChecks, nextCheckAt?.toISOString() ?? null, needsAttention],
      ),
    );
    return rows[0] ? fromRow(rows[0]) : undefined;
  }

  /** Marks a requery, unless one was made in the last `intervalMs` by the store's clock; resolves the ms to wait when refused. */
  async markRequery(key: PayoutKey, intervalMs: number): Promise<{ allowed: true } | { allowed: false; retryAfterMs: number }> {
    const params: unknown[] = [key.merchantId, key.reference];
    const now = sqlNow(this.storeClock, params);
    const earliest = sqlNowPlus(this.storeClock, params, -intervalMs);
    const { rows } = await this.observed('requery', () =>
      this.client.query<{ marked: boolean; wait_ms: string | null }>(
        `WITH marked AS (
           UPDATE payouts SET last_requery_at = ${now} WHERE merchant_id = $1 AND reference = $2 AND (last_requery_at IS NULL OR last_requery_at <= ${earliest}) RETURNING 1
         )
         SELECT EXISTS (SELECT 1 FROM marked) AS marked,
                (SELECT ceil(extract(epoch FROM (last_requery_at - ${earliest})) * 1000)::text FROM payouts WHERE merchant_id = $1 AND reference = $2) AS wait_ms`,
        params,
      ),
    );
    const row = rows[0];
    if (row?.marked) return { allowed: true };
    return { allowed: false, retryAfterMs: Math.max(1000, Number(row?.wait_ms ?? intervalMs)) };
  }

  private async findOn(on: SqlQueryable, key: PayoutKey): Promise<StoredPayout | undefined> {
    const { rows } = await on.query<PayoutRow>(`SELECT ${COLUMNS} FROM payouts WHERE merchant_id = $1 AND reference = $2`, [key.merchantId, key.reference]);
    return rows[0] ? fromRow(rows[0]) : undefined;
  }

}

const money = (payout: StoredPayout) => ({ merchantId: payout.merchantId, reference: payout.reference, currency: payout.currency, amountMinor: payout.amountMinor, feeMinor: payout.feeMinor });
const dateOrNull = (value: Date | string | null): Date | null => (value === null ? null : toDate(value));

function fromRow(row: PayoutRow): StoredPayout {
  return {
    merchantId: row.merchant_id,
    reference: row.reference,
    status: row.status,
    amountMinor: BigInt(row.amount_minor),
    feeMinor: BigInt(row.fee_minor),
    currency: row.currency,
    bankCode: row.bank_code,
    accountNumber: row.account_number,
    accountName: row.account_name,
    nameMatch: row.name_match,
    narration: row.narration,
    enquiryId: row.enquiry_id,
    notifyUrl: row.notify_url,
    requestFingerprint: row.request_fingerprint,
    providerReference: row.provider_reference,
    failureReason: row.failure_reason,
    needsAttention: row.needs_attention,
    statusChecks: Number(row.status_checks),
    nextStatusCheckAt: dateOrNull(row.next_status_check_at),
    processingAt: dateOrNull(row.processing_at),
    version: Number(row.version),
    createdAt: toDate(row.created_at),
    completedAt: dateOrNull(row.completed_at),
    reversedAt: dateOrNull(row.reversed_at),
  };
}
