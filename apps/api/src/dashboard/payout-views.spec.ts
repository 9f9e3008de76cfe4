import type { StoredPayout } from '../payouts/payout-rows';
import { payoutEvents } from './payout-views';

const at = (minute: number) => new Date(Date.UTC(2026, 10, 27, 9, minute));
const payout = (changes: Partial<StoredPayout>): StoredPayout =>
  ({ createdAt: at(0), createdBy: 'dashboard:ada@example.com', approval: null, processingAt: null, completedAt: null, reversedAt: null, status: 'QUEUED', failureReason: null, cancellationReason: null, ...changes }) as StoredPayout;
const approval = (status: 'approved' | 'rejected', reason: string | null) => ({ status, decidedBy: 'dashboard:bo@example.com', decidedAt: at(1), reason, expiresAt: null });

describe('payoutEvents', () => {
  it.each([
    ['queued', { given: payout({}), want: [['created', 'dashboard:ada@example.com', null]] }],
    [
      'approved, sent and successful',
      { given: payout({ status: 'SUCCESSFUL', approval: approval('approved', null), processingAt: at(2), completedAt: at(3) }), want: [['created', 'dashboard:ada@example.com', null], ['approved', 'dashboard:bo@example.com', null], ['sending', null, null], ['successful', null, null]] },
    ],
    ['rejected, listed once', { given: payout({ status: 'CANCELLED', cancellationReason: 'rejected', approval: approval('rejected', 'No'), completedAt: at(1) }), want: [['created', 'dashboard:ada@example.com', null], ['rejected', 'dashboard:bo@example.com', 'No']] }],
    [
      'rejected with its batch, listed once',
      { given: payout({ status: 'CANCELLED', cancellationReason: 'batch_cancelled', approval: approval('rejected', 'Not this month'), completedAt: at(1) }), want: [['created', 'dashboard:ada@example.com', null], ['rejected', 'dashboard:bo@example.com', 'Not this month']] },
    ],
    [
      'withdrawn with its batch',
      { given: payout({ status: 'CANCELLED', cancellationReason: 'batch_cancelled', completedAt: at(1) }), want: [['created', 'dashboard:ada@example.com', null], ['cancelled', null, 'batch_cancelled']] },
    ],
    ['failed', { given: payout({ status: 'FAILED', processingAt: at(2), completedAt: at(3), failureReason: 'account_dormant' }), want: [['created', 'dashboard:ada@example.com', null], ['sending', null, null], ['failed', null, 'account_dormant']] }],
    [
      'successful, then reversed',
      { given: payout({ status: 'REVERSED', processingAt: at(2), completedAt: at(3), reversedAt: at(9), failureReason: 'reversed_by_beneficiary_bank' }), want: [['created', 'dashboard:ada@example.com', null], ['sending', null, null], ['successful', null, null], ['reversed', null, 'reversed_by_beneficiary_bank']] },
    ],
  ])('%s', (_name, { given, want }) => {
    expect(payoutEvents(given).map((event) => [event.type, event.by, event.note])).toEqual(want);
  });
});
