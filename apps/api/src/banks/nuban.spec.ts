import { checkNuban, makeNuban, nubanCheckDigit } from './nuban';

describe('NUBAN', () => {
  it.each<[string, { bankCode: string; accountNumber: string; want: string }]>([
    ['a valid GTBank number', { bankCode: '058', accountNumber: '0123456785', want: 'valid' }],
    ['the same number with the last digit changed', { bankCode: '058', accountNumber: '0123456786', want: 'invalid' }],
    ['the same number at another bank', { bankCode: '044', accountNumber: '0123456785', want: 'invalid' }],
    ['a valid number at a 5-digit institution', { bankCode: '50211', accountNumber: makeNuban('50211', '200000001'), want: 'valid' }],
    ['a 6-digit wallet code', { bankCode: '999992', accountNumber: '8012345678', want: 'not-applicable' }],
    ['a 9-digit account number', { bankCode: '058', accountNumber: '012345678', want: 'invalid' }],
  ])('%s', (_name, { bankCode, accountNumber, want }) => {
    expect(checkNuban(bankCode, accountNumber)).toBe(want);
  });

  it('computes the check digit by the weighted sum', () => {
    // 000058 012345678: 0*3+0*7+0*3+0*3+5*7+8*3+0*3+1*7+2*3+3*3+4*7+5*3+6*3+7*7+8*3 = 215; (10 - 5) % 10 = 5
    expect(nubanCheckDigit('000058', '012345678')).toBe(5);
    // 950211 200000001: 9*3+5*7+0+2*3+1*7+1*3+2*3+0+...+1*3 = 87; (10 - 7) % 10 = 3
    expect(nubanCheckDigit('950211', '200000001')).toBe(3);
  });

  it('gives check digit 0 when the sum is a multiple of 10', () => {
    expect(nubanCheckDigit('000000', '000000000')).toBe(0);
  });
});
