import type { PayoutStatus } from '@paysign/contracts';
import type { SqlClient, SqlQueryable } from '../db/sql-client';
import { createdWindowConditions } from '../db/listing-conditions';
import { sqlNow, sqlNowPlus, type StoreClock } from '../db/store-clock';
import type { EventOutbox } from '../events/event-outbox';
import { WriteBatcher } from '../db/write-batcher';
import { InsufficientBalanceError, type Ledger } from '../ledger/ledger';
import { isStoreFailure } from '../stores/store-failure';
import { observeThrough, type StoreProbe } from '../stores/store-probe';
import { PAYOUT_COLUMNS as COLUMNS, payoutFromRow as fromRow, payoutMoney as money, type NewPayout, type PayoutEventOf, type PayoutKey, type PayoutListQuery, type PayoutRow, type StoredPayout } from './payout-rows';
import { EXPIRED_BATCH, type PayoutBatchStore } from './payout-batch-store';
import { FINAL_STATUSES, movePreconditionOf, type PayoutTransition } from './payout-states';

export type { NewPayout, PayoutEventOf, PayoutKey, PayoutListQuery, StoredPayout } from './payout-rows';

/** How a new payout starts: sent as soon as it can be, waiting for approval, or waiting in its batch. */
export type InitialPayoutStatus = Extract<PayoutStatus, 'QUEUED' | 'PENDING_APPROVAL' | 'BATCHED'>;

/** Why a payout could not be created: the refusals found inside its transaction. */
export type CreateRefusal = { refused: 'daily-limit'; usedMinor: bigint } | { refused: 'batch-not-found' } | { refused: 'batch-not-open'; batchStatus: string } | { refused: 'batch-full'; maxItems: number };

export type CreateOutcome = { created: boolean; payout: StoredPayout } | CreateRefusal;

const DAY_MS = 86_400_000;

/** How a create starts, and the limits it is held to. */
export interface PayoutStart {
  status: InitialPayoutStatus;
  approvalTtlMs: number;
  batchMaxItems: number;
}

/** A create waiting for its merchant's group, with everything it was called with. */
interface GroupedCreate {
  payout: NewPayout;
  start: PayoutStart;
  dailyLimitMinor: bigint;
  now: Date;
  eventOf: PayoutEventOf;
  alsoInTransaction?: AlsoOnCreate;
}

/** What commits with a payout's create (a security log line), given the payout as created; not called for a replay or a refusal. */
export type AlsoOnCreate = (tx: SqlQueryable, created: StoredPayout) => Promise<void>;

/** What the group answers one create: its outcome, or the shortfall the create throws. */
type GroupedOutcome = CreateOutcome | { short: InsufficientBalanceError };

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
    private readonly batches: PayoutBatchStore,
    probe?: StoreProbe,
    /** PAYOUT_CREATE_GROUP_MAX; 1 writes each create in its own transaction. */
    private readonly createGroupMax = 1,
  ) {
    this.observed = observeThrough(probe);
  }

  private readonly observed: ReturnType<typeof observeThrough>;
  /** Per merchant and currency, the creates waiting for the transaction in flight to end. */
  private readonly createGroups = new Map<string, WriteBatcher<GroupedCreate, GroupedOutcome>>();

  /**
   * Creates the payout and holds its money, in one transaction, unless the
   * merchant already has one with this reference: then resolves with that
   * one and `created: false`. The merchant's `available` row is locked first,
   * so that creates of one merchant queue, and the daily total they count is
   * exact; then the batch it joins, which must be OPEN. A payout created
   * PENDING_APPROVAL outside a batch expires `approvalTtlMs` later by the
   * store's clock. Throws InsufficientBalanceError, rolling everything back,
   * when `available` is short.
   *
   * Creates that join no batch wait for their merchant's next group instead
   * (group commit): while one group's transaction holds the lock, the creates
   * that arrive queue in this instance, and the next transaction takes up to
   * `createGroupMax` of them. The lock then costs one merchant a few round
   * trips per group rather than ten per payout. Each create in a group is
   * judged in its turn, as if alone: its own refusal or shortfall fails only
   * itself. `alsoInTransaction` commits with the payout it created.
   */
  async create(payout: NewPayout, start: PayoutStart, dailyLimitMinor: bigint, now: Date, eventOf: PayoutEventOf, alsoInTransaction?: AlsoOnCreate): Promise<CreateOutcome> {
    if (payout.batchReference !== null) return this.createInBatch(payout, start, dailyLimitMinor, now, eventOf, alsoInTransaction);
    const outcome = await this.groupOf(payout.merchantId, payout.currency).add({ payout, start, dailyLimitMinor, now, eventOf, ...(alsoInTransaction ? { alsoInTransaction } : {}) });
    if ('short' in outcome) throw outcome.short;
    return outcome;
  }

  private groupOf(merchantId: string, currency: string): WriteBatcher<GroupedCreate, GroupedOutcome> {
    const key = `${merchantId}:${currency}`;
    let group = this.createGroups.get(key);
    if (!group) {
      // A store failure fails the group's creates with it (each answers 503, and its retry is safe); any other failure is a
      // surprise, and each create of the group is made again alone, so that it fails only the one it belongs to.
      group = new WriteBatcher((creates) => this.createGroup(creates), { maxBatch: this.createGroupMax, mayBeOneItem: (error) => !isStoreFailure(error) });
      this.createGroups.set(key, group);
    }
    return group;
  }

  /**
   * One transaction for creates of one merchant and currency: the lock and
   * the balance under it, the references already taken and the daily total,
   * each read once; then each create judged in order against what the ones
   * before it took; then the admitted ones written together. Every payout of
   * the group is stamped with the latest of their instants, which the daily
   * window is counted back from.
   */
  private createGroup(creates: readonly GroupedCreate[]): Promise<GroupedOutcome[]> {
    const first = creates[0] as GroupedCreate;
    const { merchantId, currency } = first.payout;
    const at = new Date(Math.max(...creates.map((create) => create.now.getTime())));
    const available = { merchantId, currency, kind: 'available' as const };
    return this.observed('create', () =>
      this.client.transaction(async (tx) => {
        let availableMinor = await this.ledger.lockAvailable(tx, merchantId, currency);
        const references = [...new Set(creates.map((create) => create.payout.reference))];
        const taken = await tx.query<PayoutRow>(
          `SELECT ${COLUMNS} FROM payouts WHERE merchant_id = $1 AND reference IN (${references.map((_, i) => `$${i + 2}`).join(', ')})`,
          [merchantId, ...references],
        );
        const existing = new Map(taken.rows.map((row) => [row.reference, fromRow(row)]));
        let usedMinor = await this.usedOn(tx, merchantId, at);

        const outcomes: Array<GroupedOutcome | { admitted: GroupedCreate } | { sameAs: string }> = [];
        const admitted = new Map<string, GroupedCreate>();
        for (const create of creates) {
          const { payout, dailyLimitMinor } = create;
          const totalMinor = payout.amountMinor + payout.feeMinor;
          const stored = existing.get(payout.reference);
          if (stored) outcomes.push({ created: false, payout: stored });
          else if (admitted.has(payout.reference)) outcomes.push({ sameAs: payout.reference });
          else if (usedMinor + payout.amountMinor > dailyLimitMinor) outcomes.push({ refused: 'daily-limit', usedMinor });
          else if (availableMinor < totalMinor) outcomes.push({ short: new InsufficientBalanceError(available, totalMinor - availableMinor) });
          else {
            usedMinor += payout.amountMinor;
            availableMinor -= totalMinor;
            admitted.set(payout.reference, create);
            outcomes.push({ admitted: create });
          }
        }

        const written = await this.insertPayouts(tx, [...admitted.values()], at);
        // Never expected: the group runs under the lock every create takes. Thrown, the group is made again one create at a time.
        if (written.length !== admitted.size) throw new Error(`${admitted.size - written.length} of ${admitted.size} payouts were created meanwhile`);
        await this.ledger.holdPayouts(tx, written.map(money), at);
        await this.outbox.writeMany(
          tx,
          written.flatMap((payout) => (admitted.get(payout.reference) as GroupedCreate).eventOf(payout)),
        );
        for (const payout of written) await admitted.get(payout.reference)?.alsoInTransaction?.(tx, payout);
        const byReference = new Map(written.map((payout) => [payout.reference, payout]));
        return outcomes.map((outcome) => {
          if ('admitted' in outcome) return { created: true, payout: byReference.get(outcome.admitted.payout.reference) as StoredPayout };
          if ('sameAs' in outcome) return { created: false, payout: byReference.get(outcome.sameAs) as StoredPayout };
          return outcome;
        });
      }),
    );
  }

  /** Inserts the payouts in one statement, created at `at`; resolves with those whose reference was free. */
  private async insertPayouts(tx: SqlQueryable, creates: ReadonlyArray<Pick<GroupedCreate, 'payout' | 'start'>>, at: Date): Promise<StoredPayout[]> {
    if (creates.length === 0) return [];
    const params: unknown[] = [at.toISOString()];
    const rows = creates.map(({ payout, start }) => {
      const values = [
        payout.merchantId,
        payout.reference,
        start.status,
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
      ].map((value) => `$${params.push(value)}`);
      const approval = [payout.createdBy, payout.batchReference, start.status === 'PENDING_APPROVAL' ? 'pending' : null].map((value) => `$${params.push(value)}`);
      const expiresAt = start.status === 'PENDING_APPROVAL' && payout.batchReference === null ? sqlNowPlus(this.storeClock, params, start.approvalTtlMs) : 'NULL';
      return `(${values.join(', ')}, $1::timestamptz, ${approval.join(', ')}, ${expiresAt}, $${params.push(payout.purpose ?? 'payout')})`;
    });
    const { rows: inserted } = await tx.query<PayoutRow>(
      `INSERT INTO payouts (merchant_id, reference, status, amount_minor, fee_minor, currency, bank_code, account_number, account_name, name_match, narration, enquiry_id, notify_url, request_fingerprint, created_at,
         created_by, batch_reference, approval_status, approval_expires_at, purpose)
       VALUES ${rows.join(', ')}
       ON CONFLICT (merchant_id, reference) DO NOTHING
       RETURNING ${COLUMNS}`,
      params,
    );
    return inserted.map(fromRow);
  }

  /**
   * By the clock that stamps created_at: what the merchant's payouts created
   * since the start of the minute 24 hours before `at` add up to, failed and
   * cancelled ones aside, from the totals per minute (PAYOUT_DAILY_TOTALS). A
   * payout counts for 24 hours, until its minute ends. Totals a day older
   * than any window are deleted on the way, those no one else is writing.
   */
  private async usedOn(tx: SqlQueryable, merchantId: string, at: Date): Promise<bigint> {
    const since = Math.floor(at.getTime() / 60_000) * 60_000 - DAY_MS;
    const used = await tx.query<{ used: string }>(
      `WITH expired AS (
         DELETE FROM payout_daily_totals WHERE (merchant_id, minute) IN
           (SELECT merchant_id, minute FROM payout_daily_totals WHERE merchant_id = $1 AND minute < $3::timestamptz FOR UPDATE SKIP LOCKED))
       SELECT coalesce(sum(amount_minor), 0)::text AS used FROM payout_daily_totals WHERE merchant_id = $1 AND minute >= $2::timestamptz`,
      [merchantId, new Date(since).toISOString(), new Date(since - DAY_MS).toISOString()],
    );
    return BigInt(used.rows[0]?.used ?? 0);
  }

  /** A create that joins a batch: alone in its transaction, since it also locks the batch and counts what waits in it. */
  private createInBatch(payout: NewPayout, start: PayoutStart, dailyLimitMinor: bigint, now: Date, eventOf: PayoutEventOf, alsoInTransaction?: AlsoOnCreate): Promise<CreateOutcome> {
    return this.observed('create', () =>
      this.client.transaction(async (tx): Promise<CreateOutcome> => {
        await this.ledger.lockAvailable(tx, payout.merchantId, payout.currency);
        const existing = await this.findOn(tx, payout);
        if (existing) return { created: false, payout: existing };
        if (payout.batchReference !== null) {
          const batchKey = { merchantId: payout.merchantId, reference: payout.batchReference };
          const batch = await this.batches.lockOn(tx, batchKey);
          if (!batch) return { refused: 'batch-not-found' };
          if (batch.status !== 'OPEN') return { refused: 'batch-not-open', batchStatus: batch.status };
          if (batch.expired) return { refused: 'batch-not-open', batchStatus: EXPIRED_BATCH };
          if ((await this.batches.waitingIn(tx, batchKey)) >= start.batchMaxItems) return { refused: 'batch-full', maxItems: start.batchMaxItems };
        }
        const usedMinor = await this.usedOn(tx, payout.merchantId, now);
        if (usedMinor + payout.amountMinor > dailyLimitMinor) return { refused: 'daily-limit', usedMinor };
        const [inserted] = await this.insertPayouts(tx, [{ payout, start }], now);
        // A create of the same reference that committed while this one waited: it is the payout.
        if (!inserted) return { created: false, payout: (await this.findOn(tx, payout)) as StoredPayout };
        const created = inserted;
        await this.ledger.holdPayout(tx, money(created), now);
        await this.outbox.writeMany(tx, eventOf(created));
        await alsoInTransaction?.(tx, created);
        return { created: true, payout: created };
      }),
    );
  }

  /**
   * Creates a settlement's transfer on `tx`, the settlement's transaction,
   * QUEUED for the dispatch, and holds its money from `available`, which the
   * caller locked first: undefined when its reference is taken. Its journals
   * and events are the settlement's (PayoutEvents.routeSettlements).
   */
  async createSettlementTransferOn(tx: SqlQueryable, payout: NewPayout & { purpose: 'settlement' }, at: Date, eventOf: PayoutEventOf): Promise<StoredPayout | undefined> {
    const [created] = await this.insertPayouts(tx, [{ payout, start: { status: 'QUEUED', approvalTtlMs: 0, batchMaxItems: 0 } }], at);
    if (!created) return undefined;
    await this.ledger.holdPayout(tx, money(created), at);
    await this.outbox.writeMany(tx, eventOf(created));
    return created;
  }

  async find(key: PayoutKey): Promise<StoredPayout | undefined> {
    return this.observed('find', () => this.findOn(this.client, key));
  }

  async list(query: PayoutListQuery): Promise<StoredPayout[]> {
    const params: unknown[] = [query.merchantId];
    // A settlement's transfer is listed as the settlement it is, never as a payout.
    const where = ['merchant_id = $1', "purpose = 'payout'"];
    if (query.status !== undefined) where.push(`status = $${params.push(query.status)}`);
    if (query.batchReference !== undefined) where.push(`batch_reference = $${params.push(query.batchReference)}`);
    // A reference holds no % or backslash; its _ is escaped (LIKE's default escape is \), so that it matches only itself.
    if (query.referencePrefix !== undefined) where.push(`reference LIKE $${params.push(`${query.referencePrefix.replaceAll('_', '\\_')}%`)}`);
    where.push(...createdWindowConditions(query, params));
    const { rows } = await this.observed('list', () =>
      this.client.query<PayoutRow>(`SELECT ${COLUMNS} FROM payouts WHERE ${where.join(' AND ')} ORDER BY created_at DESC, reference DESC LIMIT $${params.push(query.limit)}`, params),
    );
    return rows.map(fromRow);
  }

  /**
   * Moves the payout as one compare-and-set from the states the move starts
   * from, with its journal and event. Resolves undefined, changing nothing,
   * when the payout is not in one of them (another move won, or it is
   * final). PROCESSING sets the provider reference and the first status
   * check, due `firstCheckMs` later by the store's clock. The last payout of
   * a submitted batch to become final completes the batch, in the same
   * transaction.
   */
  async move(key: PayoutKey, transition: PayoutTransition, now: Date, eventOf: PayoutEventOf, options: { firstCheckMs?: number; reversalWatchMs?: number; alsoInTransaction?: (tx: SqlQueryable) => Promise<void> } = {}): Promise<StoredPayout | undefined> {
    return this.observed('move', () =>
      this.client.transaction(async (tx) => {
        const precondition = movePreconditionOf(transition);
        const params: unknown[] = [key.merchantId, key.reference, transition.to, now.toISOString()];
        const set = ['status = $3', 'version = version + 1'];
        switch (transition.to) {
          case 'QUEUED':
            set.push(`approval_status = 'approved'`, `approval_decided_by = $${params.push(transition.approvedBy)}`, 'approval_decided_at = $4::timestamptz');
            break;
          case 'PROCESSING':
            // A payout keeps the provider and reference it was first given: a resend is never made anywhere else, or under another reference.
            set.push(`provider = coalesce(provider, $${params.push(transition.provider)})`, `provider_reference = coalesce(provider_reference, $${params.push(transition.providerReference)})`);
            set.push('processing_at = $4::timestamptz', 'status_checks = 0');
            set.push(`next_status_check_at = ${sqlNowPlus(this.storeClock, params, options.firstCheckMs ?? 60_000)}`);
            break;
          case 'SUCCESSFUL':
            set.push('completed_at = $4::timestamptz', 'status_checks = 0', 'needs_attention = false');
            set.push(options.reversalWatchMs === undefined ? 'next_status_check_at = NULL' : `next_status_check_at = ${sqlNowPlus(this.storeClock, params, options.reversalWatchMs)}`);
            break;
          case 'FAILED':
            set.push('completed_at = $4::timestamptz', `failure_reason = $${params.push(transition.reason)}`, 'next_status_check_at = NULL', 'needs_attention = false');
            break;
          case 'CANCELLED':
            set.push('completed_at = $4::timestamptz', 'next_status_check_at = NULL', `cancellation_reason = $${params.push(transition.reason)}`);
            if (transition.reason === 'rejected') {
              set.push(`approval_status = 'rejected'`, `approval_decided_by = $${params.push(transition.rejectedBy)}`, 'approval_decided_at = $4::timestamptz', `approval_reason = $${params.push(transition.note)}`);
            }
            if (transition.reason === 'approval_expired') set.push(`approval_status = 'expired'`, 'approval_decided_at = $4::timestamptz');
            if (transition.reason === 'cancelled_by_merchant') set.push(`approval_status = CASE WHEN approval_status = 'pending' THEN 'withdrawn' ELSE approval_status END`);
            break;
          case 'REVERSED':
            set.push('reversed_at = $4::timestamptz', `failure_reason = $${params.push(transition.reason)}`, 'next_status_check_at = NULL');
            break;
        }
        const from = precondition.from.map((status) => `$${params.push(status)}`).join(', ');
        let outsideBatch = precondition.outsideBatch ? ' AND batch_reference IS NULL' : '';
        // An approval is given only while it may be, by the store's clock: not in the moment between its expiry and the sweep that cancels it.
        if (transition.to === 'QUEUED') outsideBatch += ` AND (approval_expires_at IS NULL OR approval_expires_at > ${sqlNow(this.storeClock, params)})`;
        const { rows } = await tx.query<PayoutRow>(
          `UPDATE payouts SET ${set.join(', ')} WHERE merchant_id = $1 AND reference = $2 AND status IN (${from})${outsideBatch} RETURNING ${COLUMNS}`,
          params,
        );
        const moved = rows[0] ? fromRow(rows[0]) : undefined;
        if (!moved) return undefined;
        if (transition.to === 'SUCCESSFUL') await this.ledger.debitPayout(tx, money(moved), now);
        if (transition.to === 'FAILED' || transition.to === 'CANCELLED') await this.ledger.releasePayout(tx, money(moved), now);
        if (transition.to === 'REVERSED') await this.ledger.reversePayout(tx, money(moved), now);
        await this.outbox.writeMany(tx, eventOf(moved));
        // What the caller records of the move (a security log line), committed with it or not at all.
        await options.alsoInTransaction?.(tx);
        if (moved.batchReference !== null && (FINAL_STATUSES as string[]).includes(transition.to) && transition.to !== 'REVERSED') {
          await this.batches.completeIfDone(tx, { merchantId: moved.merchantId, reference: moved.batchReference }, now);
        }
        return moved;
      }),
    );
  }

  /** Payouts waiting for approval outside a batch whose approval expired by the store's clock, at most `limit`. */
  async approvalsExpired(limit: number): Promise<PayoutKey[]> {
    const params: unknown[] = [limit];
    const now = sqlNow(this.storeClock, params);
    const { rows } = await this.observed('approvals', () =>
      this.client.query<{ merchant_id: string; reference: string }>(
        `SELECT merchant_id, reference FROM payouts WHERE status = 'PENDING_APPROVAL' AND batch_reference IS NULL AND approval_expires_at <= ${now} ORDER BY approval_expires_at LIMIT $1`,
        params,
      ),
    );
    return rows.map((row) => ({ merchantId: row.merchant_id, reference: row.reference }));
  }

  private async findOn(on: SqlQueryable, key: PayoutKey): Promise<StoredPayout | undefined> {
    const { rows } = await on.query<PayoutRow>(`SELECT ${COLUMNS} FROM payouts WHERE merchant_id = $1 AND reference = $2`, [key.merchantId, key.reference]);
    return rows[0] ? fromRow(rows[0]) : undefined;
  }

}

