import { SCHEMAS } from '@paysign/contracts';
import fc from 'fast-check';
import { amountOf, formatMoney, moneyFromAmount } from './money';

const MAX_AMOUNT = SCHEMAS.CreatePayinRequest.properties.amount.maximum;
/** What the contract lets a client write: plain decimals, at most 2 places (the DTO's pattern). */
const AMOUNT_TEXT = /^(0|[1-9][0-9]*)(\.[0-9]{1,2})?$/;

describe('Money', () => {
  it('converts every amount the contract allows to kobo and back exactly', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: BigInt(Math.round(MAX_AMOUNT * 100)) }), (minor) => {
        const amount = amountOf({ minor, currency: 'NGN' });
        expect(amount).toBeGreaterThan(0);
        expect(amount).toBeLessThanOrEqual(MAX_AMOUNT);
        // As JSON would send it: within the contract's grammar, and read back to the same kobo.
        expect(String(amount)).toMatch(AMOUNT_TEXT);
        expect(moneyFromAmount(JSON.parse(JSON.stringify(amount)) as number, 'NGN').minor).toBe(minor);
      }),
      { numRuns: 2000 },
    );
  });

  it.each([
    [0.29, 29n],
    [1000.5, 100050n],
    [0.01, 1n],
    [MAX_AMOUNT, BigInt(Math.round(MAX_AMOUNT * 100))],
  ])('reads %s as %s kobo', (amount, minor) => {
    expect(moneyFromAmount(amount, 'NGN').minor).toBe(minor);
  });

  it.each([[1.005], [0.001], [Number.NaN], [Number.POSITIVE_INFINITY]])('refuses %s, which is no whole number of kobo', (amount) => {
    expect(() => moneyFromAmount(amount, 'NGN')).toThrow(RangeError);
  });

  it('formats for a customer', () => {
    expect(formatMoney({ minor: 150050n, currency: 'NGN' })).toBe('₦1,500.50');
  });
});
