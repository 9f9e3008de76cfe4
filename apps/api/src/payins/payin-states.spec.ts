// The store moves a payin with `UPDATE … WHERE status = 'PENDING'` to a final
// state, or records a declined attempt that leaves it PENDING
// (sql-payin.repository.ts). That is the whole of the contract's transitions
// only while PENDING is the one state with a way out, to itself and to every
// other state, each final. A state or transition added to
// openapi/payment-api.yaml breaks this test, and points here.
import { SCHEMAS } from '@paysign/contracts';
import { PAYIN_STATUSES, failureReasonOf, isFinal, transitionOfAttempt, transitionsFrom } from './payin-states';

describe('the payin states of the contract', () => {
  it('are PENDING, the only state with transitions (to itself, a declined attempt), and final states reachable from it', () => {
    const finals = PAYIN_STATUSES.filter((status) => status !== 'PENDING');
    expect([...transitionsFrom('PENDING')].sort()).toEqual(['PENDING', ...finals].sort());
    for (const status of finals) {
      expect(isFinal(status)).toBe(true);
      expect(transitionsFrom(status)).toEqual([]);
    }
    expect(isFinal('PENDING')).toBe(false);
  });

  it('record a failure reason of the contract for every final state but SUCCESSFUL', () => {
    const reasons: readonly string[] = SCHEMAS.FailureReason.enum;
    expect(failureReasonOf({ to: 'SUCCESSFUL' })).toBeNull();
    for (const reason of [...SCHEMAS.DeclineReason.enum, 'too_many_attempts'] as const) expect(failureReasonOf({ to: 'FAILED', reason })).toBe(reason);
    expect(reasons).toContain(failureReasonOf({ to: 'CANCELLED', by: 'customer' }));
    expect(reasons).toContain(failureReasonOf({ to: 'CANCELLED', by: 'merchant' }));
    expect(reasons).toContain(failureReasonOf({ to: 'ABANDONED' }));
    expect([...SCHEMAS.DeclineReason.enum, 'too_many_attempts', failureReasonOf({ to: 'CANCELLED', by: 'customer' }), failureReasonOf({ to: 'CANCELLED', by: 'merchant' }), failureReasonOf({ to: 'ABANDONED' })].sort()).toEqual([...reasons].sort());
  });
});

describe('what an attempt does to a PENDING payin', () => {
  const declined = (declineReason: 'card_declined' | 'fraud_suspected') => ({ outcome: 'declined' as const, declineReason });
  it('pays it when it succeeded, whatever came before', () => {
    expect(transitionOfAttempt({ outcome: 'succeeded', declineReason: null }, 2, 3)).toEqual({ to: 'SUCCESSFUL' });
  });
  it('leaves it open on a decline short of the last allowed, and fails it at the last', () => {
    expect(transitionOfAttempt(declined('card_declined'), 0, 3)).toBeUndefined();
    expect(transitionOfAttempt(declined('card_declined'), 1, 3)).toBeUndefined();
    expect(transitionOfAttempt(declined('card_declined'), 2, 3)).toEqual({ to: 'FAILED', reason: 'too_many_attempts' });
    expect(transitionOfAttempt(declined('card_declined'), 0, 1)).toEqual({ to: 'FAILED', reason: 'too_many_attempts' });
  });
  it('fails it at once on a decline that ends it', () => {
    expect(transitionOfAttempt(declined('fraud_suspected'), 0, 3)).toEqual({ to: 'FAILED', reason: 'fraud_suspected' });
  });
});
