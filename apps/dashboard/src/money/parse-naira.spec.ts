import { koboOfNaira, nairaTextOf } from './parse-naira';

describe('naira typed in a field', () => {
  it.each([
    ['a whole amount', { given: '5000', want: 500_000 }],
    ['thousands commas', { given: '1,250,000', want: 125_000_000 }],
    ['one decimal', { given: '5000.5', want: 500_050 }],
    ['two decimals', { given: ' 0.01 ', want: 1 }],
    ['zero', { given: '0', want: 0 }],
    ['three decimals', { given: '1.005', want: undefined }],
    ['a misplaced comma', { given: '12,34', want: undefined }],
    ['a sign', { given: '-5', want: undefined }],
    ['nothing', { given: '', want: undefined }],
    ['more than a safe integer of kobo', { given: '999999999999999999', want: undefined }],
    ['decimals and commas', { given: '1,250,000.75', want: 125_000_075 }],
    ['a float would round this one', { given: '10.05', want: 1005 }],
    ['letters', { given: 'abc', want: undefined }],
    ['an exponent', { given: '1e3', want: undefined }],
    ['no whole part', { given: '.5', want: undefined }],
  ])('%s', (_name, { given, want }) => {
    expect(koboOfNaira(given)).toBe(want);
  });

  it('shows kobo again as naira with two decimals', () => {
    expect(nairaTextOf(500_050)).toBe('5000.50');
    expect(nairaTextOf(7)).toBe('0.07');
  });
});
