import type { PayoutBatchStatus, PayoutStatus } from '@paysign/contracts';
import { toDate, type SqlClient, type SqlQueryable } from '../db/sql-client';
import { createdWindowConditions } from '../db/listing-conditions';
import { sqlNow, sqlNowPlus, type StoreClock } from '../db/store-clock';
import type { EventOutbox } from '../events/event-outbox';
import type { NewOutboxEvent } from '../events/outbox-event';
import type { Ledger } from '../ledger/ledger';
import { observeThrough, type StoreProbe } from '../stores/store-probe';
import { PAYOUT_COLUMNS, payoutFromRow, payoutMoney, type PayoutEventOf, type PayoutKey, type PayoutRow } from './payout-rows';
import { PAYOUT_STATUSES } from './payout-states';

export type BatchCancellationReason = 'cancelled_by_merchant' | 'batch_expired';

/** How an OPEN batch past its expiry, not yet swept, is named when it is refused: it takes nothing more and is not submitted. */
export const EXPIRED_BATCH = 'OPEN past its expiry, and about to be cancelled';
/** How an OPEN batch still taking the rows of its file is named when it is submitted: nobody approves a part of it. */
export const BUILDING_BATCH = 'OPEN and still taking the rows of its file';

export interface StoredBatch {
  merchantId: string;
  reference: string;
  title: string;
  status: PayoutBatchStatus;
  createdBy: string;
  submittedBy: string | null;
  cancellationReason: BatchCancellationReason | null;
  version: number;
  createdAt: Date;
  expiresAt: Date;
  submittedAt: Date | null;
  completedAt: Date | null;
  cancelledAt: Date | null;
  /** Whether the batch is still taking the rows of its file (a dashboard create): it is not submitted, nor listed for approval, until they are all in. */
  building: boolean;
  /** Whether a payout of the batch needed approval when it joined. */
  approvalRequired: boolean;
  /** Count and sum of the batch's payouts per status, in the contract's order of statuses. */
  byStatus: Array<{ status: PayoutStatus; count: number; amountMinor: bigint; feeMinor: bigint }>;
}

/** The count, amount and fees of all of a batch's payouts, whatever their status. */
export function batchTotals(batch: StoredBatch): { count: number; amountMinor: bigint; feeMinor: bigint } {
  return batch.byStatus.reduce((sum, total) => ({ count: sum.count + total.count, amountMinor: sum.amountMinor + total.amountMinor, feeMinor: sum.feeMinor + total.feeMinor }), {
    count: 0,
    amountMinor: 0n,
    feeMinor: 0n,
  });
}

/** Who asks to submit a batch, and what the merchants file lets that key do. */
export interface Submitter {
  /** Who submits, as the batch and its approved payouts record it: an API key, or `dashboard:<email>` for a team member. */
  apiKey: string;
  canCreate: boolean;
  canApprove: boolean;
  /** The keys whose batch or payouts this submitter may not approve (four eyes): the key itself, or the keys a member made. Default: [apiKey]. */
  ownKeys?: readonly string[];
}

export type SubmitOutcome =
  | { submitted: StoredBatch; replayed: boolean }
  | { refused: 'not-found' }
  | { refused: 'not-open'; status: string }
  | { refused: 'mismatch'; count: number; totalMinor: bigint }
  | { refused: 'role-required' }
  | { refused: 'approver-required'; why: string };

export interface PayoutBatchListQuery {
  merchantId: string;
  status?: PayoutBatchStatus;
  createdFrom?: Date;
  createdTo?: Date;
  after?: { createdAt: Date; reference: string };
  limit: number;
}

export type CancelOutcome = { cancelled: StoredBatch; replayed: boolean } | { refused: 'not-found' } | { refused: 'not-open'; status: PayoutBatchStatus };

/** Builds the outbox row of a batch that just completed, if it has one. */
export type PayoutBatchEventOf = (completed: StoredBatch) => readonly NewOutboxEvent[];

interface BatchRow {
  merchant_id: string;
  reference: string;
  title: string;
  status: PayoutBatchStatus;
  created_by: string;
  submitted_by: string | null;
  cancellation_reason: BatchCancellationReason | null;
  version: number;
  created_at: Date | string;
  expires_at: Date | string;
  submitted_at: Date | string | null;
  completed_at: Date | string | null;
  cancelled_at: Date | string | null;
  building: boolean;
}

const BATCH_COLUMNS = 'merchant_id, reference, title, status, created_by, submitted_by, cancellation_reason, version, created_at, expires_at, submitted_at, completed_at, cancelled_at, building';
/** The states a batch's payouts wait in until it is submitted. */
const WAITING = `('PENDING_APPROVAL', 'BATCHED')`;
/** The states of a submitted batch's payouts not yet final. */
const UNDER_WAY = `('QUEUED', 'PROCESSING')`;

/**
 * Payout batches. A batch's row is locked by everything that changes what
 * it holds: a payout joining it (after the merchant's `available` row), its
 * submission, its cancellation (also after `available`, so that the two
 * orders never cross), and the completion of its last payout. A payout
 * therefore never joins a batch being submitted or cancelled, and a
 * submission counts exactly what it sends.
 */
export class PayoutBatchStore {
  constructor(
    private readonly client: SqlClient,
    private readonly ledger: Ledger,
    private readonly outbox: EventOutbox,
    private readonly storeClock: StoreClock,
    private readonly batchEventOf: PayoutBatchEventOf,
    probe?: StoreProbe,
  ) {
    this.observed = observeThrough(probe);
  }

  private readonly observed: ReturnType<typeof observeThrough>;

  /**
   * Opens the batch, expiring `ttlMs` later by the store's clock, unless the
   * merchant has one with this reference: then resolves with it and
   * `created: false`. A batch opened `building` is submitted by no one until
   * `built`.
   */
  async create(batch: { merchantId: string; reference: string; title: string; createdBy: string; building?: boolean }, ttlMs: number, now: Date): Promise<{ created: boolean; batch: StoredBatch }> {
    return this.observed('batch', () =>
      this.client.transaction(async (tx) => {
        const params: unknown[] = [batch.merchantId, batch.reference, batch.title, batch.createdBy, now.toISOString(), batch.building ?? false];
        const expiresAt = sqlNowPlus(this.storeClock, params, ttlMs);
        const { rows } = await tx.query<BatchRow>(
          `INSERT INTO payout_batches (merchant_id, reference, title, status, created_by, created_at, building, expires_at)
           VALUES ($1, $2, $3, 'OPEN', $4, $5::timestamptz, $6, ${expiresAt})
           ON CONFLICT (merchant_id, reference) DO NOTHING RETURNING ${BATCH_COLUMNS}`,
          params,
        );
        const created = rows[0] !== undefined;
        return { created, batch: (await this.findOn(tx, batch)) as StoredBatch };
      }),
    );
  }

  /**
   * Marks a batch being built as complete, with `alsoInTransaction` (its
   * security log line): from now on it is approved and submitted as any
   * other. False when it is no longer an OPEN batch being built (its expiry
   * cancelled it meanwhile).
   */
  async built(key: PayoutKey, alsoInTransaction?: (tx: SqlQueryable) => Promise<void>): Promise<boolean> {
    return this.observed('batch', () =>
      this.client.transaction(async (tx) => {
        const { rows } = await tx.query(`UPDATE payout_batches SET building = false, version = version + 1 WHERE merchant_id = $1 AND reference = $2 AND status = 'OPEN' AND building RETURNING reference`, [key.merchantId, key.reference]);
        if (rows.length !== 1) return false;
        await alsoInTransaction?.(tx);
        return true;
      }),
    );
  }

  async find(key: PayoutKey): Promise<StoredBatch | undefined> {
    return this.observed('batch', () => this.findOn(this.client, key));
  }

  /** Locks the batch's row in `tx` and resolves its status, and whether it is past its expiry by the store's clock; undefined when there is none. */
  async lockOn(tx: SqlQueryable, key: PayoutKey): Promise<{ status: PayoutBatchStatus; expired: boolean } | undefined> {
    const params: unknown[] = [key.merchantId, key.reference];
    const now = sqlNow(this.storeClock, params);
    const { rows } = await tx.query<{ status: PayoutBatchStatus; expired: boolean }>(`SELECT status, expires_at <= ${now} AS expired FROM payout_batches WHERE merchant_id = $1 AND reference = $2 FOR UPDATE`, params);
    return rows[0];
  }

  /** How many payouts wait in the batch, read in `tx` after lockOn: what a payout joining it is counted against. */
  async waitingIn(tx: SqlQueryable, key: PayoutKey): Promise<number> {
    const { rows } = await tx.query<{ n: string }>(`SELECT count(*)::text AS n FROM payouts WHERE merchant_id = $1 AND batch_reference = $2 AND status IN ${WAITING}`, [key.merchantId, key.reference]);
    return Number(rows[0]?.n ?? 0);
  }

  /**
   * Submits an OPEN batch holding exactly `expected`: its waiting payouts
   * become QUEUED together, those that needed approval approved by the
   * submitter. A batch with a payout needing approval is submitted only by
   * a key with payouts:approve that created neither the batch nor any of
   * its payouts. A batch already submitted, asked again with the numbers it
   * holds, is answered as it is: a retry changes nothing. An OPEN batch past
   * its expiry is not submitted, though its sweep has not yet run.
   */
  async submit(key: PayoutKey, expected: { count: number; totalMinor: bigint }, submitter: Submitter, now: Date, alsoInTransaction?: (tx: SqlQueryable) => Promise<void>): Promise<SubmitOutcome> {
    return this.observed('batch', () =>
      this.client.transaction(async (tx): Promise<SubmitOutcome> => {
        const params: unknown[] = [key.merchantId, key.reference];
        const storeNow = sqlNow(this.storeClock, params);
        const { rows } = await tx.query<BatchRow & { expired: boolean }>(
          `SELECT ${BATCH_COLUMNS}, expires_at <= ${storeNow} AS expired FROM payout_batches WHERE merchant_id = $1 AND reference = $2 FOR UPDATE`,
          params,
        );
        const batch = rows[0];
        if (!batch) return { refused: 'not-found' };
        const ownKeys = submitter.ownKeys ?? [submitter.apiKey];
        const owner = submitter.ownKeys === undefined ? 'this key' : 'a key made by the same team member';
        if (batch.status !== 'OPEN') {
          // The same submission again (a retry whose answer was lost): a submitted batch, and the numbers it was submitted with. It changes nothing.
          const current = (await this.findOn(tx, key)) as StoredBatch;
          const totals = batchTotals(current);
          const same = batch.submitted_by !== null && totals.count === expected.count && totals.amountMinor === expected.totalMinor;
          return same ? { submitted: current, replayed: true } : { refused: 'not-open', status: batch.status };
        }
        if (batch.expired) return { refused: 'not-open', status: EXPIRED_BATCH };
        if (batch.building) return { refused: 'not-open', status: BUILDING_BATCH };
        const held = await tx.query<{ count: string; total: string; needing_approval: string; created_by_submitter: string }>(
          `SELECT count(*)::text AS count, coalesce(sum(amount_minor), 0)::text AS total,
                  count(*) FILTER (WHERE status = 'PENDING_APPROVAL')::text AS needing_approval,
                  count(*) FILTER (WHERE created_by = ANY($3::text[]))::text AS created_by_submitter
           FROM payouts WHERE merchant_id = $1 AND batch_reference = $2 AND status IN ${WAITING}`,
          [key.merchantId, key.reference, [...ownKeys]],
        );
        const count = Number(held.rows[0]?.count ?? 0);
        const totalMinor = BigInt(held.rows[0]?.total ?? 0);
        if (Number(held.rows[0]?.needing_approval ?? 0) > 0) {
          if (!submitter.canApprove) return { refused: 'approver-required', why: 'a payout in it needs approval, and this key lacks the payouts:approve role.' };
          if (ownKeys.includes(batch.created_by)) return { refused: 'approver-required', why: `a payout in it needs approval, and ${owner} created the batch.` };
          if (Number(held.rows[0]?.created_by_submitter ?? 0) > 0) return { refused: 'approver-required', why: `a payout in it needs approval, and ${owner} created payouts in it.` };
        } else if (!submitter.canCreate && !submitter.canApprove) {
          return { refused: 'role-required' };
        }
        if (count !== expected.count || totalMinor !== expected.totalMinor) return { refused: 'mismatch', count, totalMinor };
        await tx.query(
          `UPDATE payouts SET status = 'QUEUED', version = version + 1,
             approval_status = CASE WHEN status = 'PENDING_APPROVAL' THEN 'approved' ELSE approval_status END,
             approval_decided_by = CASE WHEN status = 'PENDING_APPROVAL' THEN $3 ELSE approval_decided_by END,
             approval_decided_at = CASE WHEN status = 'PENDING_APPROVAL' THEN $4::timestamptz ELSE approval_decided_at END
           WHERE merchant_id = $1 AND batch_reference = $2 AND status IN ${WAITING}`,
          [key.merchantId, key.reference, submitter.apiKey, now.toISOString()],
        );
        await tx.query(
          `UPDATE payout_batches SET status = 'SUBMITTED', submitted_by = $3, submitted_at = $4::timestamptz, version = version + 1 WHERE merchant_id = $1 AND reference = $2`,
          [key.merchantId, key.reference, submitter.apiKey, now.toISOString()],
        );
        await alsoInTransaction?.(tx);
        return { submitted: (await this.findOn(tx, key)) as StoredBatch, replayed: false };
      }),
    );
  }

  /**
   * Cancels an OPEN batch and each of its payouts, releasing every hold,
   * each payout with its event, in one transaction. With `rejection`, the
   * payouts waiting for approval record who rejected them and why, as a
   * payout rejected alone does; `alsoInTransaction` commits with it.
   */
  async cancel(key: PayoutKey, reason: BatchCancellationReason, now: Date, eventOf: PayoutEventOf, options: { rejection?: { by: string; note: string }; alsoInTransaction?: (tx: SqlQueryable) => Promise<void> } = {}): Promise<CancelOutcome> {
    return this.observed('batch', () =>
      this.client.transaction(async (tx): Promise<CancelOutcome> => {
        // `available` before the batch, as a payout joining takes them: the two never wait on each other in a circle.
        await this.ledger.lockAvailable(tx, key.merchantId, 'NGN');
        const batch = await this.lockOn(tx, key);
        if (!batch) return { refused: 'not-found' };
        if (batch.status !== 'OPEN') {
          // A cancellation again (a retry whose answer was lost): the batch as it is.
          const current = (await this.findOn(tx, key)) as StoredBatch;
          return batch.status === 'CANCELLED' && current.cancellationReason === reason ? { cancelled: current, replayed: true } : { refused: 'not-open', status: batch.status };
        }
        const payoutReason = reason === 'batch_expired' ? 'batch_expired' : 'batch_cancelled';
        const decision = options.rejection ? 'rejected' : reason === 'batch_expired' ? 'expired' : 'withdrawn';
        const { rows } = await tx.query<PayoutRow>(
          `UPDATE payouts SET status = 'CANCELLED', version = version + 1, completed_at = $3::timestamptz, cancellation_reason = $4,
             approval_status = CASE WHEN approval_status = 'pending' THEN $5 ELSE approval_status END,
             approval_decided_by = CASE WHEN approval_status = 'pending' AND $6::text IS NOT NULL THEN $6 ELSE approval_decided_by END,
             approval_decided_at = CASE WHEN approval_status = 'pending' AND $6::text IS NOT NULL THEN $3::timestamptz ELSE approval_decided_at END,
             approval_reason = CASE WHEN approval_status = 'pending' AND $6::text IS NOT NULL THEN $7 ELSE approval_reason END
           WHERE merchant_id = $1 AND batch_reference = $2 AND status IN ${WAITING} RETURNING ${PAYOUT_COLUMNS}`,
          [key.merchantId, key.reference, now.toISOString(), payoutReason, decision, options.rejection?.by ?? null, options.rejection?.note ?? null],
        );
        for (const payout of rows.map(payoutFromRow)) {
          await this.ledger.releasePayout(tx, payoutMoney(payout), now);
          await this.outbox.writeMany(tx, eventOf(payout));
        }
        await tx.query(
          `UPDATE payout_batches SET status = 'CANCELLED', cancellation_reason = $3, cancelled_at = $4::timestamptz, version = version + 1 WHERE merchant_id = $1 AND reference = $2`,
          [key.merchantId, key.reference, reason, now.toISOString()],
        );
        await options.alsoInTransaction?.(tx);
        return { cancelled: (await this.findOn(tx, key)) as StoredBatch, replayed: false };
      }),
    );
  }

  /** OPEN batches past their expiry by the store's clock, at most `limit`. */
  async expiredOpen(limit: number): Promise<PayoutKey[]> {
    const params: unknown[] = [limit];
    const now = sqlNow(this.storeClock, params);
    const { rows } = await this.observed('batch', () =>
      this.client.query<{ merchant_id: string; reference: string }>(`SELECT merchant_id, reference FROM payout_batches WHERE status = 'OPEN' AND expires_at <= ${now} ORDER BY expires_at LIMIT $1`, params),
    );
    return rows.map((row) => ({ merchantId: row.merchant_id, reference: row.reference }));
  }

  /**
   * In the transaction of a batch payout's final move: completes the batch,
   * with its event, when none of its payouts is still under way. The lock
   * orders the last two payouts' transactions, so the later one sees the
   * earlier one's move, and exactly one completes the batch.
   */
  async completeIfDone(tx: SqlQueryable, key: PayoutKey, now: Date): Promise<void> {
    const batch = await this.lockOn(tx, key);
    if (batch?.status !== 'SUBMITTED') return;
    const { rows } = await tx.query<{ under_way: boolean }>(
      `SELECT EXISTS (SELECT 1 FROM payouts WHERE merchant_id = $1 AND batch_reference = $2 AND status IN ${UNDER_WAY}) AS under_way`,
      [key.merchantId, key.reference],
    );
    if (rows[0]?.under_way) return;
    await tx.query(`UPDATE payout_batches SET status = 'COMPLETED', completed_at = $3::timestamptz, version = version + 1 WHERE merchant_id = $1 AND reference = $2`, [
      key.merchantId,
      key.reference,
      now.toISOString(),
    ]);
    const completed = (await this.findOn(tx, key)) as StoredBatch;
    await this.outbox.writeMany(tx, this.batchEventOf(completed));
  }

  /** A page of the merchant's batches, newest first, each with its totals. */
  async list(query: PayoutBatchListQuery): Promise<StoredBatch[]> {
    const params: unknown[] = [query.merchantId];
    const where = ['merchant_id = $1'];
    if (query.status !== undefined) where.push(`status = $${params.push(query.status)}`);
    where.push(...createdWindowConditions(query, params));
    return this.observed('batch', async () => {
      const { rows } = await this.client.query<BatchRow>(
        `SELECT ${BATCH_COLUMNS} FROM payout_batches WHERE ${where.join(' AND ')} ORDER BY created_at DESC, reference DESC LIMIT $${params.push(query.limit)}`,
        params,
      );
      return this.withTotals(this.client, query.merchantId, rows);
    });
  }

  private async findOn(on: SqlQueryable, key: PayoutKey): Promise<StoredBatch | undefined> {
    const { rows } = await on.query<BatchRow>(`SELECT ${BATCH_COLUMNS} FROM payout_batches WHERE merchant_id = $1 AND reference = $2`, [key.merchantId, key.reference]);
    return (await this.withTotals(on, key.merchantId, rows))[0];
  }

  /** The batches of `rows` with their payouts' count and sum per status, in one query for all of them. */
  private async withTotals(on: SqlQueryable, merchantId: string, rows: readonly BatchRow[]): Promise<StoredBatch[]> {
    if (rows.length === 0) return [];
    const params: unknown[] = [merchantId];
    const references = rows.map((row) => `$${params.push(row.reference)}`).join(', ');
    const totals = await on.query<{ batch_reference: string; status: PayoutStatus; count: string; total: string; fees: string; approval: boolean }>(
      `SELECT batch_reference, status, count(*)::text AS count, sum(amount_minor)::text AS total, sum(fee_minor)::text AS fees, bool_or(approval_status IS NOT NULL) AS approval
       FROM payouts WHERE merchant_id = $1 AND batch_reference IN (${references}) GROUP BY batch_reference, status`,
      params,
    );
    return rows.map((row) => {
      const own = totals.rows.filter((total) => total.batch_reference === row.reference);
      const byStatus = [...own]
        .sort((a, b) => PAYOUT_STATUSES.indexOf(a.status) - PAYOUT_STATUSES.indexOf(b.status))
        .map((total) => ({ status: total.status, count: Number(total.count), amountMinor: BigInt(total.total), feeMinor: BigInt(total.fees) }));
      return {
        merchantId: row.merchant_id,
        reference: row.reference,
        title: row.title,
        status: row.status,
        createdBy: row.created_by,
        submittedBy: row.submitted_by,
        cancellationReason: row.cancellation_reason,
        version: Number(row.version),
        createdAt: toDate(row.created_at),
        expiresAt: toDate(row.expires_at),
        submittedAt: row.submitted_at === null ? null : toDate(row.submitted_at),
        completedAt: row.completed_at === null ? null : toDate(row.completed_at),
        cancelledAt: row.cancelled_at === null ? null : toDate(row.cancelled_at),
        building: row.building,
        approvalRequired: own.some((total) => total.approval),
        byStatus,
      };
    });
  }
}
