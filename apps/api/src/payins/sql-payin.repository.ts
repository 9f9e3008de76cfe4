import type { FailureReason, PayinAttempt, PayinChannel, PayinStatus } from '@paysign/contracts';
import type { NewPayin, NewPayinAttempt, PayinKey, PayinListQuery, PayinMatch, PayinRepository, ProviderStart, StoredPayin, TransitionOptions } from './payin-repository.interface';
import { failureReasonOf, transitionOfAttempt, type PayinTransition } from './payin-states';
import { sqlNow, sqlNowPlus, type StoreClock } from '../db/store-clock';
import type { EventOutbox } from '../events/event-outbox';
import type { PayinCredits } from '../ledger/payin-credits';
import type { PayinEventOf } from './payin-events';
import { toDate, type SqlClient, type SqlQueryable } from '../db/sql-client';
import { createdWindowConditions } from '../db/listing-conditions';

interface PayinRow {
  merchant_id: string;
  reference: string;
  status: PayinStatus;
  amount_minor: string | number | bigint;
  currency: StoredPayin['currency'];
  customer_email: string;
  customer_name: string | null;
  gateway: PayinChannel | null;
  narration: string | null;
  notify_url: string | null;
  redirect_url: string | null;
  request_fingerprint: string;
  created_at: Date | string;
  expires_at: Date | string;
  paid_at: Date | string | null;
  failed_at: Date | string | null;
  failure_reason: FailureReason | null;
  checkout_seed: string | null;
  fee_minor: string | number | bigint | null;
  version: number;
  provider: string | null;
  provider_reference: string | null;
  provider_payment_url: string | null;
  needs_attention: boolean;
  refunded_minor: string | number | bigint;
  refunding_minor: string | number | bigint;
  /** JSON: an array, or its text, as the driver gives it. */
  attempts: AttemptRow[] | string;
}

interface AttemptRow {
  channel: PayinChannel;
  outcome: PayinAttempt['outcome'];
  declineReason: PayinAttempt['declineReason'];
  attemptedAt: string;
}

const PAYIN_COLUMNS =
  'merchant_id, reference, status, amount_minor::text AS amount_minor, currency, customer_email, customer_name, gateway, narration, notify_url, redirect_url, request_fingerprint, created_at, expires_at, paid_at, failed_at, failure_reason, checkout_seed, fee_minor::text AS fee_minor, version, provider, provider_reference, provider_payment_url, needs_attention, refunded_minor::text AS refunded_minor, refunding_minor::text AS refunding_minor';
/** A payin with its attempts, oldest first, read in the statement that reads or writes it. */
const COLUMNS = `${PAYIN_COLUMNS}, (
  SELECT coalesce(json_agg(json_build_object('channel', a.channel, 'outcome', a.outcome, 'declineReason', a.decline_reason, 'attemptedAt', a.attempted_at) ORDER BY a.attempt), '[]'::json)
  FROM payin_attempts a WHERE a.merchant_id = payins.merchant_id AND a.reference = payins.reference) AS attempts`;
/**
 * The columns a new payin takes from the store's defaults; every other is as
 * inserted. A create reads back only these: each column read costs the
 * driver a parser per statement: for the whole row, pg's Result.addFields
 * alone took 4.2 % of a payin create's CPU profile (`bench:server -- --money --profile`).
 */
const DEFAULTED_COLUMNS =
  'paid_at, failed_at, failure_reason, fee_minor::text AS fee_minor, version, provider_reference, provider_payment_url, needs_attention, refunded_minor::text AS refunded_minor, refunding_minor::text AS refunding_minor';
type DefaultedRow = Pick<PayinRow, 'paid_at' | 'failed_at' | 'failure_reason' | 'fee_minor' | 'version' | 'provider_reference' | 'provider_payment_url' | 'needs_attention' | 'refunded_minor' | 'refunding_minor'>;

/**
 * Payins in SQL: PGlite on disk by default, PostgreSQL with DATABASE_URL.
 * Every state change is one UPDATE guarded by `status = 'PENDING'`, so the
 * store itself decides which of two racing transitions wins.
 */
export class SqlPayinRepository implements PayinRepository {
  constructor(
    private readonly client: SqlClient,
    private readonly outbox: EventOutbox,
    private readonly storeClock: StoreClock,
    private readonly credits: PayinCredits,
  ) {}

  async insertIfAbsent(payin: NewPayin): Promise<{ created: boolean; payin: StoredPayin }> {
    const inserted = await this.client.query<DefaultedRow>(
      `INSERT INTO payins (merchant_id, reference, status, amount_minor, currency, customer_email, customer_name, gateway, narration, notify_url, redirect_url,
                           request_fingerprint, created_at, expires_at, checkout_seed, checkout_token_hash, provider)
       VALUES ($1, $2, 'PENDING', $3, $4, $5, $6, $7, $8, $9, $10, $11, $12::timestamptz, $13::timestamptz, $14, $15, $16)
       ON CONFLICT (merchant_id, reference) DO NOTHING
       RETURNING ${DEFAULTED_COLUMNS}`,
      [
        payin.merchantId,
        payin.reference,
        payin.amountMinor.toString(),
        payin.currency,
        payin.customerEmail,
        payin.customerName,
        payin.gateway,
        payin.narration,
        payin.notifyUrl,
        payin.redirectUrl,
        payin.requestFingerprint,
        payin.createdAt.toISOString(),
        payin.expiresAt.toISOString(),
        payin.checkoutSeed,
        payin.checkoutTokenHash,
        payin.provider,
      ],
    );
    const row = inserted.rows[0];
    if (row) {
      const { checkoutTokenHash: _stored, ...asInserted } = payin;
      return { created: true, payin: { ...asInserted, status: 'PENDING', attempts: [], ...defaultedFields(row) } };
    }
    const existing = await this.find(payin);
    if (!existing) throw new Error(`payin ${payin.reference} conflicted but cannot be read back`);
    return { created: false, payin: existing };
  }

  async find(key: PayinKey): Promise<StoredPayin | undefined> {
    const { rows } = await this.client.query<PayinRow>(`SELECT ${COLUMNS} FROM payins WHERE merchant_id = $1 AND reference = $2`, [key.merchantId, key.reference]);
    return rows[0] ? fromRow(rows[0]) : undefined;
  }

  async findByCheckoutTokenHash(tokenHash: string): Promise<StoredPayin | undefined> {
    const { rows } = await this.client.query<PayinRow>(`SELECT ${COLUMNS} FROM payins WHERE checkout_token_hash = $1`, [tokenHash]);
    return rows[0] ? fromRow(rows[0]) : undefined;
  }

  async transition(key: PayinKey, transition: PayinTransition, now: Date, eventOf: PayinEventOf, options: TransitionOptions = {}): Promise<StoredPayin | undefined> {
    return this.client.transaction(async (tx) => {
      const moved = await this.move(tx, key, transition, now, options);
      if (moved) await this.writeEvents(tx, [moved], eventOf);
      return moved;
    });
  }

  async recordAttempt(key: PayinKey, attempt: NewPayinAttempt, maxAttempts: number, eventOf: PayinEventOf): Promise<StoredPayin | undefined> {
    const at = attempt.attemptedAt.toISOString();
    return this.client.transaction(async (tx) => {
      // The row lock takes two tabs paying at once one after the other: the second counts the first's attempt, or finds the payin final.
      const open = await tx.query(`SELECT 1 FROM payins WHERE merchant_id = $1 AND reference = $2 AND status = 'PENDING' AND expires_at > $3::timestamptz FOR UPDATE`, [
        key.merchantId,
        key.reference,
        at,
      ]);
      if (open.rows.length === 0) return undefined;
      const counted = await tx.query<{ earlier: string | number }>('SELECT count(*) AS earlier FROM payin_attempts WHERE merchant_id = $1 AND reference = $2', [key.merchantId, key.reference]);
      const earlier = Number(counted.rows[0]?.earlier ?? 0);
      // Stamped before the lock, two tabs' attempts can be taken in the other order by a millisecond: none is recorded before the one it follows.
      await tx.query(
        `INSERT INTO payin_attempts (merchant_id, reference, attempt, channel, outcome, decline_reason, attempted_at)
         SELECT $1, $2, $3, $4, $5, $6, GREATEST($7::timestamptz, (SELECT max(attempted_at) FROM payin_attempts WHERE merchant_id = $1 AND reference = $2))`,
        [key.merchantId, key.reference, earlier + 1, attempt.channel, attempt.outcome, attempt.declineReason, at],
      );
      const transition = transitionOfAttempt(attempt, earlier, maxAttempts);
      // A decline that leaves the payin open still changes it: its version moves on, so that its event is ordered before the final one.
      const changed = transition
        ? await this.move(tx, key, transition, attempt.attemptedAt)
        : await tx.query<PayinRow>(`UPDATE payins SET version = version + 1 WHERE merchant_id = $1 AND reference = $2 RETURNING ${COLUMNS}`, [key.merchantId, key.reference]).then(({ rows }) => rows[0] && fromRow(rows[0]));
      if (!changed) throw new Error(`payin ${key.reference} was locked open but did not change`);
      await this.writeEvents(tx, [changed], eventOf);
      return changed;
    });
  }

  /** Moves a PENDING payin, crediting the merchant when it succeeds; its event is the caller's to write in the same transaction. */
  private async move(tx: SqlQueryable, key: PayinKey, transition: PayinTransition, now: Date, options: TransitionOptions = {}): Promise<StoredPayin | undefined> {
    const at = now.toISOString();
    const reason = failureReasonOf(transition);
    // A provider's confirmed outcome is recorded past expiry too: the payment was made while the payin was still open at the provider.
    const openParams: unknown[] = [key.merchantId, key.reference, transition.to, transition.to === 'SUCCESSFUL' ? at : null, transition.to === 'SUCCESSFUL' ? null : at, reason];
    const stillOpen = options.confirmedByProvider ? '' : `AND expires_at > $${openParams.push(at)}::timestamptz`;
    // An abandoned payin failed when it expired, or now if it was abandoned sooner (a simulation).
    const { rows } =
      transition.to === 'ABANDONED'
        ? await tx.query<PayinRow>(
            `UPDATE payins SET status = 'ABANDONED', failed_at = LEAST(expires_at, $3::timestamptz), failure_reason = $4, version = version + 1, next_provider_check_at = NULL
             WHERE merchant_id = $1 AND reference = $2 AND status = 'PENDING'
             RETURNING ${COLUMNS}`,
            [key.merchantId, key.reference, at, reason],
          )
        : await tx.query<PayinRow>(
            `UPDATE payins SET status = $3, paid_at = $4::timestamptz, failed_at = $5::timestamptz, failure_reason = $6, version = version + 1, next_provider_check_at = NULL
             WHERE merchant_id = $1 AND reference = $2 AND status = 'PENDING' ${stillOpen}
             RETURNING ${COLUMNS}`,
            openParams,
          );
    const moved = rows[0] ? fromRow(rows[0]) : undefined;
    if (moved?.status !== 'SUCCESSFUL') return moved;
    // The money in the same transaction as the move and its event: the merchant is credited exactly when the payin succeeded.
    const feeMinor = await this.credits.credit(tx, moved, now);
    await tx.query('UPDATE payins SET fee_minor = $3 WHERE merchant_id = $1 AND reference = $2', [key.merchantId, key.reference, feeMinor.toString()]);
    return { ...moved, feeMinor };
  }

  async expireDue(options: { limit: number; merchantId?: string }, eventOf: PayinEventOf): Promise<PayinKey[]> {
    const params: unknown[] = [options.limit];
    const now = sqlNow(this.storeClock, params);
    const ofMerchant = options.merchantId === undefined ? '' : `AND merchant_id = $${params.push(options.merchantId)}`;
    return this.client.transaction(async (tx) => {
      // SKIP LOCKED: instances sweeping together take disjoint batches instead of queueing on each other's rows.
      const { rows } = await tx.query<PayinRow>(
        `UPDATE payins SET status = 'ABANDONED', failed_at = expires_at, failure_reason = 'checkout_expired', version = version + 1
         WHERE (merchant_id, reference) IN (
           SELECT merchant_id, reference FROM payins
           WHERE status = 'PENDING' AND expires_at <= ${now} AND provider_reference IS NULL ${ofMerchant}
           ORDER BY expires_at LIMIT $1 FOR UPDATE SKIP LOCKED)
         AND status = 'PENDING'
         RETURNING ${COLUMNS}`,
        params,
      );
      const moved = rows.map(fromRow);
      await this.writeEvents(tx, moved, eventOf);
      return moved.map((payin) => ({ merchantId: payin.merchantId, reference: payin.reference }));
    });
  }

  async recordProviderStart(key: PayinKey, start: ProviderStart): Promise<StoredPayin | undefined> {
    const { rows } = await this.client.query<PayinRow>(
      `UPDATE payins SET provider_reference = $3, provider_payment_url = $4, next_provider_check_at = $5::timestamptz, provider = coalesce(provider, $6)
       WHERE merchant_id = $1 AND reference = $2 AND status = 'PENDING' AND provider_reference IS NULL AND (provider IS NULL OR provider = $6)
       RETURNING ${COLUMNS}`,
      [key.merchantId, key.reference, start.providerReference, start.paymentPageUrl, start.firstCheckAt.toISOString(), start.provider],
    );
    return rows[0] ? fromRow(rows[0]) : undefined;
  }

  async findByProviderReference(provider: string, providerReference: string): Promise<StoredPayin | undefined> {
    // A row without a provider yet (written by the release before) is taken as the notifying provider's: its reference is unique across providers.
    const { rows } = await this.client.query<PayinRow>(`SELECT ${COLUMNS} FROM payins WHERE provider_reference = $1 AND (provider = $2 OR provider IS NULL)`, [providerReference, provider]);
    return rows[0] ? fromRow(rows[0]) : undefined;
  }

  async claimProviderChecks(limit: number, leaseMs: number): Promise<StoredPayin[]> {
    const params: unknown[] = [limit];
    const now = sqlNow(this.storeClock, params);
    const { rows } = await this.client.query<PayinRow>(
      `UPDATE payins SET next_provider_check_at = ${sqlNowPlus(this.storeClock, params, leaseMs)}
       WHERE (merchant_id, reference) IN (
         SELECT merchant_id, reference FROM payins
         WHERE status = 'PENDING' AND next_provider_check_at IS NOT NULL AND next_provider_check_at <= ${now}
         ORDER BY next_provider_check_at LIMIT $1 FOR UPDATE SKIP LOCKED)
       AND status = 'PENDING'
       RETURNING ${COLUMNS}`,
      params,
    );
    return rows.map(fromRow);
  }

  async flagForAttention(key: PayinKey): Promise<StoredPayin | undefined> {
    const { rows } = await this.client.query<PayinRow>(
      `UPDATE payins SET needs_attention = true, next_provider_check_at = NULL WHERE merchant_id = $1 AND reference = $2 AND NOT needs_attention RETURNING ${COLUMNS}`,
      [key.merchantId, key.reference],
    );
    return rows[0] ? fromRow(rows[0]) : undefined;
  }

  async scheduleProviderCheck(key: PayinKey, nextCheckAt: Date, needsAttention: boolean): Promise<StoredPayin | undefined> {
    const { rows } = await this.client.query<PayinRow>(
      // Only a payin whose checks were not stopped meanwhile (flagged for an operator, its provider retired): a check that ends late never starts them again.
      `UPDATE payins SET next_provider_check_at = CASE WHEN status = 'PENDING' THEN $3::timestamptz END, needs_attention = needs_attention OR $4
       WHERE merchant_id = $1 AND reference = $2 AND next_provider_check_at IS NOT NULL
       RETURNING ${COLUMNS}`,
      [key.merchantId, key.reference, nextCheckAt.toISOString(), needsAttention],
    );
    return rows[0] ? fromRow(rows[0]) : undefined;
  }

  async list(query: PayinListQuery, now: Date): Promise<StoredPayin[]> {
    const params: unknown[] = [query.merchantId];
    const where = ['merchant_id = $1'];
    if (query.status !== undefined) where.push(statusAt(query.status, params, now));
    if (query.gateway !== undefined) where.push(`gateway = $${params.push(query.gateway)}`);
    where.push(...createdWindowConditions(query, params));
    const alternatives = query.matching === undefined ? [] : matchConditions(query.matching, params);
    const page = `ORDER BY created_at DESC, reference DESC LIMIT $${params.push(query.limit)}`;
    const select = (conditions: string[]) => `SELECT ${COLUMNS} FROM payins WHERE ${conditions.join(' AND ')} ${page}`;
    // Two things searched at once (1500: a reference, or 1500 naira) are two ordered index scans of at most a page each, merged:
    // one OR would make the planner walk the merchant's whole listing when neither is common.
    const sql =
      alternatives.length <= 1
        ? select([...where, ...alternatives])
        : `SELECT * FROM (${alternatives.map((condition, i) => `(${select([...where, condition, ...alternatives.slice(0, i).map((earlier) => `NOT ${earlier}`)])})`).join(' UNION ALL ')}) AS matched ${page}`;
    const { rows } = await this.client.query<PayinRow>(sql, params);
    return rows.map(fromRow);
  }

  async ping(): Promise<void> {
    await this.client.query('SELECT 1');
  }

  async close(): Promise<void> {
    await this.client.close();
  }

  /** The outbox rows of the payins a statement just made final, in the same transaction: a transition without its event, or the reverse, cannot be committed. */
  private async writeEvents(tx: SqlQueryable, moved: StoredPayin[], eventOf: PayinEventOf): Promise<void> {
    for (const payin of moved) {
      await this.outbox.writeMany(tx, eventOf(payin));
    }
  }
}

/** The status filter on the state at `now`: an expired PENDING payin is ABANDONED, whether or not the sweep has written it yet. The listing's and the report's. */
export function statusAt(status: PayinStatus, params: unknown[], now: Date): string {
  // A payin started at a provider stays PENDING past expiry until the provider has been asked (effectivePayin).
  if (status === 'PENDING') return `(status = 'PENDING' AND (expires_at > $${params.push(now.toISOString())}::timestamptz OR provider_reference IS NOT NULL))`;
  if (status === 'ABANDONED') return `(status = 'ABANDONED' OR (status = 'PENDING' AND provider_reference IS NULL AND expires_at <= $${params.push(now.toISOString())}::timestamptz))`;
  return `status = $${params.push(status)}`;
}

/** Each of the search's values as its own condition, on its own index (payins.migrations.ts, PAYIN_SEARCH_INDEXES); a payin matching any is found. */
function matchConditions(match: PayinMatch, params: unknown[]): string[] {
  const any: string[] = [];
  if (match.reference !== undefined) any.push(`(reference = $${params.push(match.reference)})`);
  if (match.email !== undefined) any.push(`(lower(customer_email) = lower($${params.push(match.email)}))`);
  if (match.amountMinor !== undefined) any.push(`(amount_minor = $${params.push(match.amountMinor.toString())})`);
  return any;
}

const toDateOrNull = (value: Date | string | null): Date | null => (value === null ? null : toDate(value));

function defaultedFields(row: DefaultedRow): Pick<StoredPayin, 'paidAt' | 'failedAt' | 'failureReason' | 'feeMinor' | 'version' | 'providerReference' | 'providerPaymentUrl' | 'needsAttention' | 'refundedMinor' | 'refundingMinor'> {
  return {
    paidAt: toDateOrNull(row.paid_at),
    failedAt: toDateOrNull(row.failed_at),
    failureReason: row.failure_reason,
    feeMinor: row.fee_minor === null ? null : BigInt(row.fee_minor),
    version: Number(row.version),
    providerReference: row.provider_reference,
    providerPaymentUrl: row.provider_payment_url,
    needsAttention: row.needs_attention === true,
    refundedMinor: BigInt(row.refunded_minor),
    refundingMinor: BigInt(row.refunding_minor),
  };
}

function fromRow(row: PayinRow): StoredPayin {
  return {
    merchantId: row.merchant_id,
    reference: row.reference,
    status: row.status,
    amountMinor: BigInt(row.amount_minor),
    currency: row.currency,
    customerEmail: row.customer_email,
    customerName: row.customer_name,
    gateway: row.gateway,
    narration: row.narration,
    notifyUrl: row.notify_url,
    redirectUrl: row.redirect_url,
    requestFingerprint: row.request_fingerprint,
    createdAt: toDate(row.created_at),
    expiresAt: toDate(row.expires_at),
    checkoutSeed: row.checkout_seed,
    provider: row.provider,
    ...defaultedFields(row),
    attempts: (typeof row.attempts === 'string' ? (JSON.parse(row.attempts) as AttemptRow[]) : row.attempts).map((attempt) => ({
      channel: attempt.channel,
      outcome: attempt.outcome,
      declineReason: attempt.declineReason,
      attemptedAt: toDate(attempt.attemptedAt),
    })),
  };
}
