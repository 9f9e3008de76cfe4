import type { PayoutStatus } from '@paysign/contracts';
import { anyRow, IdleClaimGate } from '../db/idle-claim-gate';
import type { SqlClient } from '../db/sql-client';
import { sqlNow, sqlNowPlus, type StoreClock } from '../db/store-clock';
import { observeThrough, type StoreProbe } from '../stores/store-probe';
import { PAYOUT_COLUMNS as COLUMNS, payoutFromRow as fromRow, type PayoutKey, type PayoutRow, type StoredPayout } from './payout-rows';

/**
 * The sending side of payouts in the payin database: the claims that take
 * QUEUED payouts to send and status checks that are due, the schedule of
 * those checks, the merchant's requeries, and the lookup a provider's
 * webhook makes. Each claim is safe with N instances (SKIP LOCKED); the
 * moves a send's answer makes are PayoutStore's.
 */
export class PayoutSendStore {
  private readonly observed: ReturnType<typeof observeThrough>;
  private readonly idleClaims = new IdleClaimGate(() => anyRow(this.client, "SELECT 1 FROM payouts WHERE status = 'QUEUED'"));

  constructor(
    private readonly client: SqlClient,
    private readonly storeClock: StoreClock,
    probe?: StoreProbe,
  ) {
    this.observed = observeThrough(probe);
  }

  /** The payout `provider` sent under `providerReference`; one sent by the release before records were kept has none recorded, and the reference alone finds it. */
  async findByProviderReference(provider: string, providerReference: string): Promise<StoredPayout | undefined> {
    const { rows } = await this.observed('find', () =>
      this.client.query<PayoutRow>(`SELECT ${COLUMNS} FROM payouts WHERE provider_reference = $1 AND (provider = $2 OR provider IS NULL)`, [providerReference, provider]),
    );
    return rows[0] ? fromRow(rows[0]) : undefined;
  }

  /**
   * Takes up to `limit` QUEUED payouts to send, moving each to PROCESSING
   * with its provider reference before anything is sent: a crash after this
   * never sends a second transfer, since the status check finds the first
   * by that reference. Merchants take turns, oldest payout first within
   * each: a submitted batch of a thousand takes one slot per round, beside
   * every other merchant's payouts, never the whole dispatch. Safe with N
   * instances: each takes the payouts next in turn that no other instance
   * holds (SKIP LOCKED), in one order with ties broken by key.
   */
  async claimQueued(limit: number, now: Date, firstCheckMs: number, sendThrough: { provider: string; newReference: () => string }): Promise<StoredPayout[]> {
    return this.observed('claim', () => this.idleClaims.claim(() => this.takeQueued(limit, now, firstCheckMs, sendThrough)));
  }

  /** The claim itself, once the idle gate lets it run. */
  private takeQueued(limit: number, now: Date, firstCheckMs: number, sendThrough: { provider: string; newReference: () => string }): Promise<StoredPayout[]> {
    return this.client.transaction(async (tx) => {
      const { rows: taken } = await tx.query<{ merchant_id: string; reference: string }>(
        `WITH turns AS (
           SELECT merchant_id, reference, created_at, row_number() OVER (PARTITION BY merchant_id ORDER BY created_at, reference) AS merchant_turn
           FROM payouts WHERE status = 'QUEUED')
         SELECT p.merchant_id, p.reference FROM payouts p JOIN turns t ON t.merchant_id = p.merchant_id AND t.reference = p.reference
         WHERE p.status = 'QUEUED'
         ORDER BY t.merchant_turn, t.created_at, p.merchant_id, p.reference
         LIMIT $1 FOR UPDATE OF p SKIP LOCKED`,
        [limit],
      );
      if (taken.length === 0) return [];
      // Each payout gets a reference the adapter minted; one it already had (never expected while QUEUED) is kept.
      const params: unknown[] = [now.toISOString(), sendThrough.provider];
      const firstCheck = sqlNowPlus(this.storeClock, params, firstCheckMs);
      const values = taken.map((row) => `($${params.push(row.merchant_id)}, $${params.push(row.reference)}, $${params.push(sendThrough.newReference())})`);
      const { rows } = await tx.query<PayoutRow>(
        `UPDATE payouts SET status = 'PROCESSING', version = version + 1, provider = coalesce(payouts.provider, $2), provider_reference = coalesce(payouts.provider_reference, minted.provider_reference),
           processing_at = $1::timestamptz, status_checks = 0, next_status_check_at = ${firstCheck}
         FROM (VALUES ${values.join(', ')}) AS minted (merchant_id, reference, provider_reference)
         WHERE payouts.merchant_id = minted.merchant_id AND payouts.reference = minted.reference AND payouts.status = 'QUEUED'
         RETURNING ${COLUMNS.split(',').map((column) => `payouts.${column.trim()}`).join(', ')}`,
        params,
      );
      return rows.map(fromRow);
    });
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
        // Only a payout whose checks were not stopped meanwhile (flagged for an operator, its provider retired): a check that ends late never starts them again.
        `UPDATE payouts SET status_checks = $4, next_status_check_at = $5::timestamptz, needs_attention = needs_attention OR $6
         WHERE merchant_id = $1 AND reference = $2 AND status = $3 AND next_status_check_at IS NOT NULL RETURNING ${COLUMNS}`,
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
}
