import { formatMinorUnits } from './format-kobo';

describe('formatMinorUnits', () => {
  it.each([
    ['zero', { given: [0, 'NGN'], want: '₦0.00' }],
    ['one kobo', { given: [1, 'NGN'], want: '₦0.01' }],
    ['ten kobo', { given: [10, 'NGN'], want: '₦0.10' }],
    ['a naira', { given: [100, 'NGN'], want: '₦1.00' }],
    ['thousands grouped', { given: [123456789, 'NGN'], want: '₦1,234,567.89' }],
    ['exactly a thousand', { given: [100000, 'NGN'], want: '₦1,000.00' }],
    ['a float would round this one', { given: [1005, 'NGN'], want: '₦10.05' }],
    ['the largest safe integer', { given: [Number.MAX_SAFE_INTEGER, 'NGN'], want: '₦90,071,992,547,409.91' }],
    ['negative', { given: [-5, 'NGN'], want: '-₦0.05' }],
    ['another currency', { given: [250, 'USD'], want: 'USD 2.50' }],
  ] as const)('%s', (_name, { given, want }) => {
    expect(formatMinorUnits(given[0], given[1])).toBe(want);
  });

  it.each([[1.5], [Number.NaN], [Number.MAX_SAFE_INTEGER + 2]])('refuses %p, which is no integer of minor units', (amount) => {
    expect(() => formatMinorUnits(amount, 'NGN')).toThrow(RangeError);
  });
});
