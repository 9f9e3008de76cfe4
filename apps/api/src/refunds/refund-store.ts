import type { PayinStatus } from '@paysign/contracts';
import { anyRow, IdleClaimGate } from '../db/idle-claim-gate';
import { createdWindowConditions } from '../db/listing-conditions';
import type { SqlClient, SqlQueryable } from '../db/sql-client';
import { toDate } from '../db/sql-client';
import { sqlNow, sqlNowPlus, type StoreClock } from '../db/store-clock';
import type { EventOutbox } from '../events/event-outbox';
import { RefundHolds } from '../ledger/refund-holds';
import { refundFeeShareMinor } from '../money/fees';
import { observeThrough, type StoreProbe } from '../stores/store-probe';
import { REFUND_COLUMNS as COLUMNS, refundFromRow as fromRow, refundMoney as money, type NewRefund, type RefundEventOf, type RefundKey, type RefundListQuery, type RefundRow, type StoredRefund } from './refund-rows';
import { movePreconditionOf, type RefundTransition } from './refund-states';

export type { NewRefund, RefundEventOf, RefundKey, RefundListQuery, StoredRefund } from './refund-rows';

/** The payin a refund is of, as its create reads it under the payin's lock. */
export interface RefundedPayin {
  status: PayinStatus;
  amountMinor: bigint;
  feeMinor: bigint | null;
  currency: StoredRefund['currency'];
  paidAt: Date | null;
  provider: string | null;
  providerReference: string | null;
  needsAttention: boolean;
  refundedMinor: bigint;
  refundingMinor: bigint;
}

/** What a refund's create checks that only its transaction can: given the payin, a refusal, or the provider to record and whether the fee is returned. */
export type RefundAdmission = { refused: RefundRefusal } | { provider: string; returnsFee: boolean };

/** Why a refund could not be created: the refusals found inside its transaction, nothing held. */
export type RefundRefusal =
  | { refused: 'payin-not-found' }
  | { refused: 'payin-not-refundable'; payin: RefundedPayin }
  | { refused: 'window-closed'; paidAt: Date }
  | { refused: 'provider-not-configured'; provider: string | null }
  | { refused: 'exceeds-payin'; payin: RefundedPayin; amountMinor: bigint }
  | { refused: 'insufficient-balance'; amountMinor: bigint; currency: string; unsettledMinor: bigint | null; availableMinor: bigint };

export type RefundCreateOutcome = { created: boolean; refund: StoredRefund } | RefundRefusal;

const PAYIN_COLUMNS = `reference, status, amount_minor::text AS amount_minor, fee_minor::text AS fee_minor, currency, paid_at, provider, provider_reference, needs_attention, refunded_minor::text AS refunded_minor, refunding_minor::text AS refunding_minor`;

/**
 * Refunds in the payin database, with their money in the ledger and on
 * their payin. A create locks its payin's row first, so that the refunds of
 * one payin queue, and each is judged against what the ones before it left:
 * the successful and in-flight refunds of a payin never add up to more than
 * it (the payins CHECK is the last line behind this). Every move is one
 * compare-and-set on the status, with its journal, its payin's totals and
 * its event, in one transaction.
 */
export class RefundStore {
  private readonly holds: RefundHolds;
  private readonly observed: ReturnType<typeof observeThrough>;
  private readonly idleClaims = new IdleClaimGate(() => anyRow(this.client, "SELECT 1 FROM refunds WHERE status = 'PENDING'"));

  constructor(
    private readonly client: SqlClient,
    ledger: ConstructorParameters<typeof RefundHolds>[0],
    private readonly outbox: EventOutbox,
    private readonly storeClock: StoreClock,
    probe?: StoreProbe,
  ) {
    this.holds = new RefundHolds(ledger);
    this.observed = observeThrough(probe);
  }

  /**
   * Creates the refund `PENDING` and holds its money, in one transaction,
   * unless the merchant already has one with this reference: then resolves
   * with that one and `created: false`. `admit` judges the payin, read
   * under its lock; the amount left out is everything not yet refunded.
   * `alsoInTransaction` (a security log line) commits with a refund this
   * call creates, or not at all.
   */
  async create(
    refund: NewRefund,
    admit: (payin: RefundedPayin) => RefundAdmission,
    now: Date,
    eventOf: RefundEventOf,
    alsoInTransaction?: (tx: SqlQueryable, created: StoredRefund) => Promise<void>,
  ): Promise<RefundCreateOutcome> {
    return this.observed('create', () =>
      this.client.transaction(async (tx): Promise<RefundCreateOutcome> => {
        const { rows } = await tx.query<Record<string, string | boolean | Date | null>>(`SELECT ${PAYIN_COLUMNS} FROM payins WHERE merchant_id = $1 AND reference = $2 FOR UPDATE`, [refund.merchantId, refund.payinReference]);
        // Read under the payin's lock: a create of the same reference that committed while this one waited is the refund.
        const existing = await this.findOn(tx, refund);
        if (existing) return { created: false, refund: existing };
        if (!rows[0]) return { refused: 'payin-not-found' };
        const payin = payinFromRow(rows[0]);
        const admission = admit(payin);
        if ('refused' in admission) return admission.refused;
        const leftMinor = payin.amountMinor - payin.refundedMinor - payin.refundingMinor;
        const amountMinor = refund.amountMinor ?? leftMinor;
        if (amountMinor <= 0n || amountMinor > leftMinor) return { refused: 'exceeds-payin', payin, amountMinor };

        const sources = await this.holds.lockSources(tx, { merchantId: refund.merchantId, payinReference: refund.payinReference, currency: payin.currency });
        const fundedFrom = RefundHolds.fundingOf(sources, amountMinor);
        if (!fundedFrom) return { refused: 'insufficient-balance', amountMinor, currency: payin.currency, ...sources };
        const feeReturnedMinor = admission.returnsFee && payin.feeMinor !== null ? refundFeeShareMinor({ amountMinor: payin.amountMinor, feeMinor: payin.feeMinor }, payin.refundedMinor + payin.refundingMinor, amountMinor, await this.feeReturnedOf(tx, refund)) : 0n;

        const params = [
          refund.merchantId, refund.reference, refund.payinReference, payin.providerReference ?? refund.payinReference, amountMinor.toString(), payin.currency, refund.reason, refund.merchantNote, refund.customerNote, refund.notifyUrl,
          fundedFrom, feeReturnedMinor.toString(), admission.provider, refund.requestFingerprint, refund.createdBy, now.toISOString(),
        ];
        const inserted = await tx.query<RefundRow>(
          `INSERT INTO refunds (merchant_id, reference, payin_reference, payment_reference, status, amount_minor, currency, reason, merchant_note, customer_note, notify_url, funded_from, fee_returned_minor, provider, request_fingerprint, created_by, created_at)
           VALUES ($1, $2, $3, $4, 'PENDING', $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16::timestamptz)
           ON CONFLICT (merchant_id, reference) DO NOTHING
           RETURNING ${COLUMNS}`,
          params,
        );
        // The same reference, created meanwhile for another payin (whose lock this create does not take): it is the refund. Nothing was written yet.
        if (!inserted.rows[0]) return { created: false, refund: (await this.findOn(tx, refund)) as StoredRefund };
        const created = fromRow(inserted.rows[0]);
        // Guarded as the CHECK is; never expected under the payin's lock, and thrown, it rolls everything back.
        const taken = await tx.query(
          'UPDATE payins SET refunding_minor = refunding_minor + $3 WHERE merchant_id = $1 AND reference = $2 AND refunded_minor + refunding_minor + $3 <= amount_minor RETURNING 1',
          [refund.merchantId, refund.payinReference, amountMinor.toString()],
        );
        if (taken.rows.length === 0) throw new Error(`payin ${refund.payinReference} has less left to refund than its lock showed`);
        await this.holds.hold(tx, money(created), now);
        await this.outbox.writeMany(tx, eventOf(created));
        await alsoInTransaction?.(tx, created);
        return { created: true, refund: created };
      }),
    );
  }

  async find(key: RefundKey): Promise<StoredRefund | undefined> {
    return this.observed('find', () => this.findOn(this.client, key));
  }

  async list(query: RefundListQuery): Promise<StoredRefund[]> {
    const params: unknown[] = [query.merchantId];
    const where = ['merchant_id = $1'];
    if (query.status !== undefined) where.push(`status = $${params.push(query.status)}`);
    if (query.payinReference !== undefined) where.push(`payin_reference = $${params.push(query.payinReference)}`);
    where.push(...createdWindowConditions(query, params));
    const { rows } = await this.observed('list', () =>
      this.client.query<RefundRow>(`SELECT ${COLUMNS} FROM refunds WHERE ${where.join(' AND ')} ORDER BY created_at DESC, reference DESC LIMIT $${params.push(query.limit)}`, params),
    );
    return rows.map(fromRow);
  }

  /** The refunds in flight at `provider` of the payment it knows by `paymentReference`: what one of its refund webhooks is about. */
  async inFlightOfPayment(provider: string, paymentReference: string): Promise<StoredRefund[]> {
    const { rows } = await this.observed('find', () =>
      this.client.query<RefundRow>(`SELECT ${COLUMNS} FROM refunds WHERE provider = $1 AND payment_reference = $2 AND status IN ('PROCESSING', 'REQUIRES_ACTION')`, [provider, paymentReference]),
    );
    return rows.map(fromRow);
  }

  /**
   * Moves the refund as one compare-and-set from the states the move starts
   * from, with its journal, its payin's totals and its event. Resolves
   * undefined, changing nothing, when the refund is not in one of them
   * (another move won, or it is final). PROCESSING schedules the first
   * status check `firstCheckMs` later by the store's clock, REQUIRES_ACTION
   * the next `waitingCheckMs` later.
   */
  async move(key: RefundKey, transition: RefundTransition, now: Date, eventOf: RefundEventOf, options: { firstCheckMs?: number; waitingCheckMs?: number } = {}): Promise<StoredRefund | undefined> {
    const firstCheckMs = options.firstCheckMs ?? 60_000;
    return this.observed('move', () =>
      this.client.transaction(async (tx) => {
        const params: unknown[] = [key.merchantId, key.reference, transition.to, now.toISOString()];
        const set = ['status = $3', 'version = version + 1'];
        switch (transition.to) {
          case 'PROCESSING':
            if ('account' in transition) {
              const { bankCode, accountNumber, accountName, enquiryId } = transition.account;
              set.push(`account_bank_code = $${params.push(bankCode)}`, `account_number = $${params.push(accountNumber)}`, `account_name = $${params.push(accountName)}`, `account_enquiry_id = $${params.push(enquiryId)}`);
              // Sent again from now: the resend grace and the 72-hour deadline count from the send to the account.
              set.push('processing_at = $4::timestamptz');
            } else {
              set.push(`provider_reference = coalesce(provider_reference, $${params.push(transition.providerReference)})`, 'processing_at = $4::timestamptz');
            }
            set.push('status_checks = 0', `next_status_check_at = ${sqlNowPlus(this.storeClock, params, firstCheckMs)}`);
            break;
          case 'REQUIRES_ACTION':
            // Still asked, less often (waitingCheckMs): the provider may settle it without the customer's account.
            set.push(`next_status_check_at = ${sqlNowPlus(this.storeClock, params, options.waitingCheckMs ?? 3_600_000)}`, 'status_checks = 0', 'processing_at = coalesce(processing_at, $4::timestamptz)');
            break;
          case 'SUCCESSFUL':
          case 'CANCELLED':
            set.push('completed_at = $4::timestamptz', 'next_status_check_at = NULL', 'needs_attention = false');
            break;
          case 'FAILED':
            set.push('completed_at = $4::timestamptz', `failure_reason = $${params.push(transition.reason)}`, 'next_status_check_at = NULL', 'needs_attention = false');
            break;
        }
        const from = movePreconditionOf(transition).map((status) => `$${params.push(status)}`).join(', ');
        const { rows } = await tx.query<RefundRow>(`UPDATE refunds SET ${set.join(', ')} WHERE merchant_id = $1 AND reference = $2 AND status IN (${from}) RETURNING ${COLUMNS}`, params);
        const moved = rows[0] ? fromRow(rows[0]) : undefined;
        if (!moved) return undefined;
        if (transition.to === 'SUCCESSFUL' || transition.to === 'FAILED' || transition.to === 'CANCELLED') {
          const refunded = transition.to === 'SUCCESSFUL' ? moved.amountMinor : 0n;
          await tx.query('UPDATE payins SET refunding_minor = refunding_minor - $3, refunded_minor = refunded_minor + $4 WHERE merchant_id = $1 AND reference = $2', [
            moved.merchantId,
            moved.payinReference,
            moved.amountMinor.toString(),
            refunded.toString(),
          ]);
          if (transition.to === 'SUCCESSFUL') await this.holds.debit(tx, money(moved), now);
          else await this.holds.release(tx, money(moved), now);
        }
        await this.outbox.writeMany(tx, eventOf(moved));
        return moved;
      }),
    );
  }

  /**
   * Takes up to `limit` PENDING refunds to send, oldest first, and moves
   * each to PROCESSING with a reference its provider of record minted,
   * before anything is sent: a crash after this never sends a second
   * refund, since the status check finds the first by that reference. Only
   * the refunds of `mint.providers`, those configured on this instance, are
   * taken; the others are left for an instance that has their provider.
   * Safe with N instances (SKIP LOCKED).
   */
  async claimPending(limit: number, now: Date, firstCheckMs: number, mint: { providers: readonly string[]; newReference: (provider: string) => string | undefined }, eventOf: RefundEventOf): Promise<StoredRefund[]> {
    if (mint.providers.length === 0) return [];
    return this.observed('claim', () => this.idleClaims.claim(() => this.takePending(limit, now, firstCheckMs, mint, eventOf)));
  }

  /** The claim itself, once the idle gate lets it run. */
  private takePending(limit: number, now: Date, firstCheckMs: number, mint: { providers: readonly string[]; newReference: (provider: string) => string | undefined }, eventOf: RefundEventOf): Promise<StoredRefund[]> {
    return this.client.transaction(async (tx) => {
      // Only the refunds of providers configured here: another's would take this instance's turns without ever being sent.
      const { rows: taken } = await tx.query<{ merchant_id: string; reference: string; provider: string }>(
        `SELECT merchant_id, reference, provider FROM refunds WHERE status = 'PENDING' AND provider = ANY($2::text[]) ORDER BY created_at, merchant_id, reference LIMIT $1 FOR UPDATE SKIP LOCKED`,
        [limit, mint.providers],
      );
      const minted = taken.flatMap((row) => {
        const providerReference = mint.newReference(row.provider);
        return providerReference === undefined ? [] : [{ ...row, providerReference }];
      });
      if (minted.length === 0) return [];
      const params: unknown[] = [now.toISOString()];
      const firstCheck = sqlNowPlus(this.storeClock, params, firstCheckMs);
      const values = minted.map((row) => `($${params.push(row.merchant_id)}, $${params.push(row.reference)}, $${params.push(row.providerReference)})`);
      const { rows } = await tx.query<RefundRow>(
        `UPDATE refunds SET status = 'PROCESSING', version = version + 1, provider_reference = coalesce(refunds.provider_reference, minted.provider_reference),
           processing_at = $1::timestamptz, status_checks = 0, next_status_check_at = ${firstCheck}
         FROM (VALUES ${values.join(', ')}) AS minted (merchant_id, reference, provider_reference)
         WHERE refunds.merchant_id = minted.merchant_id AND refunds.reference = minted.reference AND refunds.status = 'PENDING'
         RETURNING ${COLUMNS.split(',').map((column) => `refunds.${column.trim()}`).join(', ')}`,
        params,
      );
      const claimed = rows.map(fromRow);
      await this.outbox.writeMany(tx, claimed.flatMap((refund) => eventOf(refund)));
      return claimed;
    });
  }

  /**
   * Takes up to `limit` refunds of `providers` (those configured on this
   * instance) whose status check is due by the store's clock, and moves each
   * one's next check `leaseMs` on, as a lease.
   */
  async claimDueChecks(limit: number, leaseMs: number, providers: readonly string[]): Promise<StoredRefund[]> {
    if (providers.length === 0) return [];
    return this.observed('claim', () =>
      this.client.transaction(async (tx) => {
        const params: unknown[] = [limit, providers];
        const now = sqlNow(this.storeClock, params);
        const lease = sqlNowPlus(this.storeClock, params, leaseMs);
        const { rows } = await tx.query<RefundRow>(
          `UPDATE refunds SET next_status_check_at = ${lease}
           WHERE (merchant_id, reference) IN (
             SELECT merchant_id, reference FROM refunds WHERE next_status_check_at <= ${now} AND provider = ANY($2::text[]) ORDER BY next_status_check_at LIMIT $1 FOR UPDATE SKIP LOCKED)
           RETURNING ${COLUMNS}`,
          params,
        );
        return rows.map(fromRow);
      }),
    );
  }

  /** Records a status check that settled nothing: the next is due at `nextCheckAt` (null: none), and `needsAttention` may be raised. Only a refund still PROCESSING or REQUIRES_ACTION, and scheduled. */
  async rescheduleCheck(key: RefundKey, statusChecks: number, nextCheckAt: Date | null, needsAttention: boolean): Promise<StoredRefund | undefined> {
    const { rows } = await this.observed('reschedule', () =>
      this.client.query<RefundRow>(
        `UPDATE refunds SET status_checks = $3, next_status_check_at = $4::timestamptz, needs_attention = needs_attention OR $5
         WHERE merchant_id = $1 AND reference = $2 AND status IN ('PROCESSING', 'REQUIRES_ACTION') AND next_status_check_at IS NOT NULL RETURNING ${COLUMNS}`,
        [key.merchantId, key.reference, statusChecks, nextCheckAt?.toISOString() ?? null, needsAttention],
      ),
    );
    return rows[0] ? fromRow(rows[0]) : undefined;
  }

  /** The fee already given back, or to be, by the payin's refunds that have not failed or been cancelled. */
  private async feeReturnedOf(tx: SqlQueryable, refund: { merchantId: string; payinReference: string }): Promise<bigint> {
    const { rows } = await tx.query<{ returned: string }>(
      `SELECT coalesce(sum(fee_returned_minor), 0)::text AS returned FROM refunds WHERE merchant_id = $1 AND payin_reference = $2 AND status NOT IN ('FAILED', 'CANCELLED')`,
      [refund.merchantId, refund.payinReference],
    );
    return BigInt(rows[0]?.returned ?? 0);
  }

  private async findOn(on: SqlQueryable, key: RefundKey): Promise<StoredRefund | undefined> {
    const { rows } = await on.query<RefundRow>(`SELECT ${COLUMNS} FROM refunds WHERE merchant_id = $1 AND reference = $2`, [key.merchantId, key.reference]);
    return rows[0] ? fromRow(rows[0]) : undefined;
  }
}

function payinFromRow(row: Record<string, string | boolean | Date | null>): RefundedPayin {
  return {
    status: row.status as PayinStatus,
    amountMinor: BigInt(row.amount_minor as string),
    feeMinor: row.fee_minor === null ? null : BigInt(row.fee_minor as string),
    currency: row.currency as RefundedPayin['currency'],
    paidAt: row.paid_at === null ? null : toDate(row.paid_at as Date | string),
    provider: row.provider as string | null,
    providerReference: row.provider_reference as string | null,
    needsAttention: row.needs_attention === true,
    refundedMinor: BigInt(row.refunded_minor as string),
    refundingMinor: BigInt(row.refunding_minor as string),
  };
}
