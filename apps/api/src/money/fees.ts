import { moneyFromAmount } from './money';

/**
 * What a merchant pays us, in exact units: a payin fee of a percentage of the
 * amount (in basis points, 150 = 1.5 %) up to a cap, and a flat fee per
 * payout. Kept per merchant in MERCHANTS_FILE as `fees`, in the contract's
 * units: `{"payinPercent": 1.5, "payinCap": 2000, "payout": 25}`.
 */
export interface FeeSchedule {
  payinBasisPoints: bigint;
  payinCapMinor: bigint;
  payoutMinor: bigint;
  /** Whether a successful refund gives the merchant back its share of the payin's fee; by default not, as the payment services merchants compare us with keep it (docs/refunds.md). */
  refundReturnsFee: boolean;
}

/** The fees of a merchant whose entry names none: 1.5 % of a payin up to ₦2,000, and ₦25 a payout. */
export const DEFAULT_FEES: FeeSchedule = { payinBasisPoints: 150n, payinCapMinor: 200_000n, payoutMinor: 2_500n, refundReturnsFee: false };

const BASIS_POINTS_PER_WHOLE = 10_000n;

/**
 * The fee on a payin of `amountMinor`: its percentage rounded half up to
 * the kobo, never above the cap. Never more than the amount, since the
 * percentage is below 100.
 */
export function payinFeeMinor(amountMinor: bigint, fees: FeeSchedule): bigint {
  const fee = (amountMinor * fees.payinBasisPoints + BASIS_POINTS_PER_WHOLE / 2n) / BASIS_POINTS_PER_WHOLE;
  return fee < fees.payinCapMinor ? fee : fees.payinCapMinor;
}

const FEE_FIELDS = ['payinPercent', 'payinCap', 'payout', 'refundReturnsFee'] as const;

/** Reads a merchant entry's `fees`; each problem is pushed onto `problems`, naming the field. Fields left out take the defaults. */
export function parseFeeSchedule(value: unknown, at: string, problems: string[]): FeeSchedule {
  if (value === undefined) return DEFAULT_FEES;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    problems.push(`${at} must be an object {payinPercent?, payinCap?, payout?, refundReturnsFee?}`);
    return DEFAULT_FEES;
  }
  const fields = value as Record<string, unknown>;
  const unknown = Object.keys(fields).filter((key) => !(FEE_FIELDS as readonly string[]).includes(key));
  if (unknown.length) problems.push(`${at} has unknown field(s) ${unknown.join(', ')}; fees have ${FEE_FIELDS.join(', ')}`);
  // A percentage with 2 decimals is a whole number of basis points: read as an amount, its minor units are those.
  const payinBasisPoints = minorOf(fields.payinPercent, `${at}.payinPercent`, 'a percentage from 0 to 99.99 with at most 2 decimals, such as 1.5', 9_999n, problems) ?? DEFAULT_FEES.payinBasisPoints;
  const payinCapMinor = minorOf(fields.payinCap, `${at}.payinCap`, 'an amount in naira from 0 with at most 2 decimals, such as 2000', 100_000_000_000n, problems) ?? DEFAULT_FEES.payinCapMinor;
  const payoutMinor = minorOf(fields.payout, `${at}.payout`, 'an amount in naira from 0 with at most 2 decimals, such as 25', 100_000_000_000n, problems) ?? DEFAULT_FEES.payoutMinor;
  if (fields.refundReturnsFee !== undefined && typeof fields.refundReturnsFee !== 'boolean') problems.push(`${at}.refundReturnsFee must be true or false`);
  const refundReturnsFee = fields.refundReturnsFee === true;
  return { payinBasisPoints, payinCapMinor, payoutMinor, refundReturnsFee };
}

function minorOf(value: unknown, field: string, rule: string, maxMinor: bigint, problems: string[]): bigint | undefined {
  if (value === undefined) return undefined;
  try {
    if (typeof value !== 'number') throw new RangeError('not a number');
    const { minor } = moneyFromAmount(value, 'NGN');
    if (minor < 0n || minor > maxMinor) throw new RangeError('out of range');
    return minor;
  } catch {
    problems.push(`${field} must be ${rule}`);
    return undefined;
  }
}

/**
 * The share of a payin's fee a refund gives back, when the merchant's fees
 * return it: the fee in proportion to what is refunded, counted on the
 * total refunded so that the shares of refunds that add up to the payin add
 * up to its fee, and never more than what is left of the fee.
 */
export function refundFeeShareMinor(payin: { amountMinor: bigint; feeMinor: bigint }, refundedBeforeMinor: bigint, refundMinor: bigint, feeReturnedBeforeMinor: bigint): bigint {
  const proportional = (refunded: bigint) => (payin.feeMinor * refunded) / payin.amountMinor;
  const share = proportional(refundedBeforeMinor + refundMinor) - proportional(refundedBeforeMinor);
  const left = payin.feeMinor - feeReturnedBeforeMinor;
  return share < left ? share : left > 0n ? left : 0n;
}
