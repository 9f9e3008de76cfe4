import fc from 'fast-check';
import { DEFAULT_FEES, parseFeeSchedule, payinFeeMinor, refundFeeShareMinor } from './fees';

describe('the payin fee', () => {
  it('is the percentage rounded half up to the kobo: 1.5 % of ₦1,000.50 is ₦15.01', () => {
    expect(payinFeeMinor(100_050n, DEFAULT_FEES)).toBe(1_501n);
    expect(payinFeeMinor(100n, DEFAULT_FEES)).toBe(2n);
    expect(payinFeeMinor(33n, DEFAULT_FEES)).toBe(0n);
  });

  it('stops at the cap: ₦2,000 from a payin of about ₦133,333 up', () => {
    expect(payinFeeMinor(13_333_000n, DEFAULT_FEES)).toBe(199_995n);
    expect(payinFeeMinor(13_333_300n, DEFAULT_FEES)).toBe(200_000n);
    expect(payinFeeMinor(100_000_000_000n, DEFAULT_FEES)).toBe(200_000n);
  });

  it('is never negative and never more than the amount, for any schedule', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: 100_000_000_000n }), fc.bigInt({ min: 0n, max: 9_999n }), fc.bigInt({ min: 0n, max: 100_000_000_000n }), (amount, basisPoints, cap) => {
        const fee = payinFeeMinor(amount, { payinBasisPoints: basisPoints, payinCapMinor: cap, payoutMinor: 0n, refundReturnsFee: false });
        expect(fee >= 0n && fee <= amount && fee <= cap).toBe(true);
      }),
    );
  });
});

describe("a merchant's fees in MERCHANTS_FILE", () => {
  it('takes the defaults for what the entry leaves out', () => {
    const problems: string[] = [];
    expect(parseFeeSchedule(undefined, 'merchants[0].fees', problems)).toEqual(DEFAULT_FEES);
    expect(parseFeeSchedule({ payinPercent: 0.75 }, 'merchants[0].fees', problems)).toEqual({ ...DEFAULT_FEES, payinBasisPoints: 75n });
    expect(parseFeeSchedule({ payinPercent: 0, payinCap: 0, payout: 10.5 }, 'merchants[0].fees', problems)).toEqual({ payinBasisPoints: 0n, payinCapMinor: 0n, payoutMinor: 1_050n, refundReturnsFee: false });
    expect(problems).toEqual([]);
  });

  it('names each field that is wrong, and how to write it', () => {
    const problems: string[] = [];
    parseFeeSchedule({ payinPercent: 100, payinCap: -1, payout: 0.001, refundReturnsFee: 'yes', extra: 1 }, 'merchants[2].fees', problems);
    expect(problems).toEqual([
      'merchants[2].fees has unknown field(s) extra; fees have payinPercent, payinCap, payout, refundReturnsFee',
      'merchants[2].fees.payinPercent must be a percentage from 0 to 99.99 with at most 2 decimals, such as 1.5',
      'merchants[2].fees.payinCap must be an amount in naira from 0 with at most 2 decimals, such as 2000',
      'merchants[2].fees.payout must be an amount in naira from 0 with at most 2 decimals, such as 25',
      'merchants[2].fees.refundReturnsFee must be true or false',
    ]);
  });
});

describe('refundFeeShareMinor', () => {
  it('gives back, over refunds that add up to the payin, exactly its fee, and never more than is left', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: 10_000_000n }), fc.bigInt({ min: 0n, max: 200_000n }), fc.array(fc.bigInt({ min: 1n, max: 1_000_000n }), { minLength: 1, maxLength: 8 }), (amount, fee, parts) => {
        const payin = { amountMinor: amount, feeMinor: fee < amount ? fee : amount - 1n };
        let refunded = 0n;
        let returned = 0n;
        for (const part of parts) {
          const refund = part < amount - refunded ? part : amount - refunded;
          if (refund <= 0n) break;
          const share = refundFeeShareMinor(payin, refunded, refund, returned);
          expect(share >= 0n).toBe(true);
          refunded += refund;
          returned += share;
        }
        const last = amount - refunded;
        if (last > 0n) returned += refundFeeShareMinor(payin, refunded, last, returned);
        expect(returned).toBe(payin.feeMinor);
      }),
    );
  });
});
