import { parseNaira } from './parse-naira';

describe('parseNaira', () => {
  it.each([
    ['1500', 150_000],
    ['1500.5', 150_050],
    ['1500.05', 150_005],
    [' 0.01 ', 1],
    ['999999999.99', 99_999_999_999],
    ['1,500', undefined],
    ['-1', undefined],
    ['1.234', undefined],
    ['01', undefined],
    ['', undefined],
  ] as const)('%s is %s kobo', (given, want) => {
    expect(parseNaira(given)).toBe(want);
  });
});
