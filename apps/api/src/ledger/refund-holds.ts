import type { SqlQueryable } from '../db/sql-client';
import { InsufficientBalanceError, merchantAccount, platformAccount, type JournalLine, type JournalType, type Ledger } from './ledger';

/** The balance a refund's hold was drawn from. */
export type RefundFunding = 'pending' | 'available';

/** A refund as its journals need it: amounts in minor units. */
export interface RefundMoney {
  merchantId: string;
  reference: string;
  payinReference: string;
  currency: string;
  amountMinor: bigint;
  fundedFrom: RefundFunding;
  /** The share of the payin's fee given back with it when it succeeds; 0 by default. */
  feeReturnedMinor: bigint;
}

/** What a refund could be drawn from: the payin's own credit still waiting to settle (null once it settled), and `available`. */
export interface RefundSources {
  unsettledMinor: bigint | null;
  availableMinor: bigint;
}

/**
 * A refund's money in the ledger. Its amount is held at once, out of the
 * merchant's `pending` while the payin's own credit is unsettled and more
 * than the refund (that credit then settles less, by the refund), else out
 * of `available`; success sends it to the provider, which returns it to the
 * customer; failure and cancellation give it back to where it came from, or
 * to `available` if the payin has settled since.
 */
export class RefundHolds {
  constructor(private readonly ledger: Ledger) {}

  /**
   * Locks what a refund of the payin may be drawn from, for the rest of
   * `tx`, and resolves it: the payin's credit still due to settle (its row,
   * so that the settlement cannot take it meanwhile), then `available`. The
   * order is every refund's, and the settlement's (its row, then the
   * balances), so that they queue instead of deadlocking.
   */
  async lockSources(tx: SqlQueryable, refund: { merchantId: string; payinReference: string; currency: string }): Promise<RefundSources> {
    const { rows } = await tx.query<{ amount_minor: string }>(
      `SELECT amount_minor::text AS amount_minor FROM ledger_settlements_due WHERE merchant_id = $1 AND object_type = 'payin' AND object_id = $2 FOR UPDATE`,
      [refund.merchantId, refund.payinReference],
    );
    const availableMinor = await this.ledger.lockAvailable(tx, refund.merchantId, refund.currency);
    return { unsettledMinor: rows[0] ? BigInt(rows[0].amount_minor) : null, availableMinor };
  }

  /** Where a refund of `amountMinor` is drawn from, given its sources; undefined when neither covers it. */
  static fundingOf(sources: RefundSources, amountMinor: bigint): RefundFunding | undefined {
    // Strictly more: a credit wholly refunded before it settles would leave a settlement of nothing.
    if (sources.unsettledMinor !== null && sources.unsettledMinor > amountMinor) return 'pending';
    if (sources.availableMinor >= amountMinor) return 'available';
    return undefined;
  }

  /**
   * Holds the refund's amount, out of the balance it is funded from, into
   * `held`. A refund funded from `pending` takes its amount off the payin's
   * credit due to settle. Throws InsufficientBalanceError when the source
   * no longer covers it; the caller's transaction then rolls back whole.
   */
  async hold(tx: SqlQueryable, refund: RefundMoney, at: Date): Promise<void> {
    const from = merchantAccount(refund.merchantId, refund.currency, refund.fundedFrom);
    if (refund.fundedFrom === 'pending') {
      const { rows } = await tx.query(
        `UPDATE ledger_settlements_due SET amount_minor = amount_minor - $3 WHERE merchant_id = $1 AND object_type = 'payin' AND object_id = $2 AND amount_minor > $3 RETURNING 1`,
        [refund.merchantId, refund.payinReference, refund.amountMinor.toString()],
      );
      if (rows.length === 0) throw new InsufficientBalanceError(from, refund.amountMinor);
    }
    await this.post(tx, refund, 'refund_hold', [
      { account: from, type: 'refund_hold', amountMinor: -refund.amountMinor },
      { account: merchantAccount(refund.merchantId, refund.currency, 'held'), type: 'refund_hold', amountMinor: refund.amountMinor },
    ], at);
  }

  /** Gives a failed or cancelled refund's hold back: to `pending` and the payin's credit due, while it is still unsettled; else to `available`. */
  async release(tx: SqlQueryable, refund: RefundMoney, at: Date): Promise<void> {
    let to: 'pending' | 'available' = 'available';
    if (refund.fundedFrom === 'pending') {
      const { rows } = await tx.query(
        `UPDATE ledger_settlements_due SET amount_minor = amount_minor + $3 WHERE merchant_id = $1 AND object_type = 'payin' AND object_id = $2 RETURNING 1`,
        [refund.merchantId, refund.payinReference, refund.amountMinor.toString()],
      );
      if (rows.length > 0) to = 'pending';
    }
    await this.post(tx, refund, 'refund_release', [
      { account: merchantAccount(refund.merchantId, refund.currency, 'held'), type: 'refund_release', amountMinor: -refund.amountMinor },
      { account: merchantAccount(refund.merchantId, refund.currency, to), type: 'refund_release', amountMinor: refund.amountMinor },
    ], at);
  }

  /** A successful refund leaves: its amount out of `held` to the provider, which returns it to the customer; and the fee's share, if any, from fee revenue back to `available`. */
  async debit(tx: SqlQueryable, refund: RefundMoney, at: Date): Promise<void> {
    await this.post(tx, refund, 'refund_debit', [
      { account: merchantAccount(refund.merchantId, refund.currency, 'held'), type: 'refund_debit', amountMinor: -refund.amountMinor },
      { account: platformAccount(refund.currency, 'provider_settlement'), type: 'refund_debit', amountMinor: refund.amountMinor },
      { account: platformAccount(refund.currency, 'fee_revenue'), type: 'refund_fee_return', amountMinor: -refund.feeReturnedMinor },
      { account: merchantAccount(refund.merchantId, refund.currency, 'available'), type: 'refund_fee_return', amountMinor: refund.feeReturnedMinor },
    ], at);
  }

  /** A refund's journal; posting one twice is a bug in the refund's state machine, never a retry, so it throws. */
  private async post(tx: SqlQueryable, refund: RefundMoney, type: JournalType, lines: JournalLine[], at: Date): Promise<void> {
    const posted = await this.ledger.post(tx, { type, merchantId: refund.merchantId, currency: refund.currency, objectType: 'refund', objectId: refund.reference, lines }, at);
    if (!posted) throw new Error(`journal ${type} of refund ${refund.reference} was already posted`);
  }
}
