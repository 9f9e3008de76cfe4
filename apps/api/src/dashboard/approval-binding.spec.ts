import { boundChallenge, challengeText, payoutBinding } from './approval-binding';

const PAYOUT = { reference: 'inv-1', amountMinor: 150_000n, currency: 'NGN', bankCode: '058', accountNumber: '0123456785', accountName: 'ADA LOVELACE' };
const NONCE = 'n0nce-n0nce-n0nce';

describe('the challenge an approval binds', () => {
  const base = challengeText(boundChallenge(payoutBinding(PAYOUT), NONCE));

  it('is the same for the same payout and nonce', () => {
    expect(challengeText(boundChallenge(payoutBinding({ ...PAYOUT }), NONCE))).toBe(base);
  });

  it.each<[string, Partial<typeof PAYOUT> | { nonce: string }]>([
    ['another reference', { reference: 'inv-2' }],
    ['another amount, by one kobo', { amountMinor: 150_001n }],
    ['another currency', { currency: 'USD' }],
    ['another bank', { bankCode: '044' }],
    ['another account', { accountNumber: '0123456786' }],
    ['another account name', { accountName: 'ADA BYRON' }],
    ['another nonce', { nonce: 'another-nonce' }],
  ])('differs for %s', (_name, change) => {
    const nonce = 'nonce' in change ? change.nonce : NONCE;
    const payout = 'nonce' in change ? PAYOUT : { ...PAYOUT, ...change };
    expect(challengeText(boundChallenge(payoutBinding(payout), nonce))).not.toBe(base);
  });

  it('cannot be made equal by moving text between fields', () => {
    const shifted = boundChallenge({ ...payoutBinding(PAYOUT), reference: 'inv-1NGN', currency: '' }, NONCE);
    expect(challengeText(shifted)).not.toBe(base);
  });

  it('shows the approver the amount in kobo and the destination with its name', () => {
    expect(payoutBinding(PAYOUT)).toEqual({ kind: 'payout', reference: 'inv-1', amount: 150_000, currency: 'NGN', destination: '058/0123456785 ADA LOVELACE', count: 1 });
  });
});
