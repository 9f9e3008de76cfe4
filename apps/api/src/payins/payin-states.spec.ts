// The store moves a payin with `UPDATE … WHERE status = 'PENDING'` to a final
// state (sql-payin.repository.ts). That is the whole of the contract's
// transitions only while PENDING is the one state with a way out, and every
// other state is final and reachable from it. A state or transition added to
// openapi/payment-api.yaml breaks this test, and points here.
import { SCHEMAS } from '@paysign/contracts';
import { PAYIN_STATUSES, failureReasonOf, isFinal, transitionsFrom } from './payin-states';

describe('the payin states of the contract', () => {
  it('are PENDING, the only state with transitions, and final states reachable from it', () => {
    const finals = PAYIN_STATUSES.filter((status) => status !== 'PENDING');
    expect([...transitionsFrom('PENDING')].sort()).toEqual([...finals].sort());
    for (const status of finals) {
      expect(isFinal(status)).toBe(true);
      expect(transitionsFrom(status)).toEqual([]);
    }
    expect(isFinal('PENDING')).toBe(false);
  });

  it('record a failure reason of the contract for every final state but SUCCESSFUL', () => {
    const reasons: readonly string[] = SCHEMAS.FailureReason.enum;
    expect(failureReasonOf({ to: 'SUCCESSFUL' })).toBeNull();
    for (const reason of SCHEMAS.DeclineReason.enum) expect(failureReasonOf({ to: 'FAILED', reason })).toBe(reason);
    expect(reasons).toContain(failureReasonOf({ to: 'CANCELLED' }));
    expect(reasons).toContain(failureReasonOf({ to: 'ABANDONED' }));
    expect([...SCHEMAS.DeclineReason.enum, failureReasonOf({ to: 'CANCELLED' }), failureReasonOf({ to: 'ABANDONED' })].sort()).toEqual([...reasons].sort());
  });
});
