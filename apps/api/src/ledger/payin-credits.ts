import type { SqlQueryable } from '../db/sql-client';
import { payinFeeMinor, type FeeSchedule } from '../money/fees';
import type { Ledger } from './ledger';

/** A payin that just became successful, as its credit needs it. */
export interface SuccessfulPayin {
  merchantId: string;
  reference: string;
  currency: string;
  amountMinor: bigint;
}

/**
 * What a payin's success does to the merchant's money: its fee from the
 * merchant's schedule, and the credit to `pending`, posted on the
 * transaction that makes the payin successful.
 */
export class PayinCredits {
  constructor(
    private readonly ledger: Ledger,
    private readonly feesOf: (merchantId: string) => FeeSchedule,
    private readonly settlementDelayMs: number,
  ) {}

  /** Posts the credit on `tx`; resolves with the fee it took, for the payin to show. */
  async credit(tx: SqlQueryable, payin: SuccessfulPayin, at: Date): Promise<bigint> {
    const feeMinor = payinFeeMinor(payin.amountMinor, this.feesOf(payin.merchantId));
    await this.ledger.creditPayin(tx, { ...payin, feeMinor }, at, this.settlementDelayMs);
    return feeMinor;
  }
}
