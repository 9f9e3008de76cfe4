import { parseNaira } from './parse-naira';

describe('parseNaira', () => {
  it.each([
    ['whole naira', { given: '5000', want: 500_000 }],
    ['one decimal', { given: '5000.5', want: 500_050 }],
    ['two decimals', { given: '0.05', want: 5 }],
    ['thousands separated by commas', { given: '1,250,000.75', want: 125_000_075 }],
    ['spaces around', { given: ' 12 ', want: 1200 }],
    ['a float would round this one', { given: '10.05', want: 1005 }],
  ])('%s', (_name, { given, want }) => {
    expect(parseNaira(given)).toBe(want);
  });

  it.each([[''], ['abc'], ['1.234'], ['-5'], ['01'], ['1e3'], ['.5']])('refuses %p', (given) => {
    expect(parseNaira(given)).toBeUndefined();
  });
});
