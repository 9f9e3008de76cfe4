import { SCHEMAS } from '@paysign/contracts';
import { canMove, FINAL_STATUSES, movePreconditionOf, type PayoutTransition } from './payout-states';

describe('payout states', () => {
  const transitions: PayoutTransition[] = [
    { to: 'QUEUED', approvedBy: 'pk_a' },
    { to: 'PROCESSING', provider: 'sandbox', providerReference: 'PSX-0' },
    { to: 'SUCCESSFUL' },
    { to: 'FAILED', reason: 'provider_error' },
    { to: 'CANCELLED', reason: 'cancelled_by_merchant' },
    { to: 'CANCELLED', reason: 'approval_expired' },
    { to: 'CANCELLED', reason: 'rejected', rejectedBy: 'pk_b', note: null },
    { to: 'REVERSED', reason: 'reversed_by_beneficiary_bank' },
  ];

  it.each(transitions)('moves to $to only from states the contract allows', (transition) => {
    const { from } = movePreconditionOf(transition);
    expect(from.length).toBeGreaterThan(0);
    for (const status of from) expect([status, transition.to, canMove(status, transition.to)]).toEqual([status, transition.to, true]);
  });

  it('covers every transition of the contract between single payouts and their batches', () => {
    const covered = new Set(transitions.flatMap((t) => movePreconditionOf(t).from.map((from) => `${from}>${t.to}`)));
    // BATCHED and a batch's PENDING_APPROVAL payouts move with their batch's submit or cancel.
    const batchMoves = ['BATCHED>QUEUED', 'BATCHED>CANCELLED'];
    const contract = Object.entries(SCHEMAS.PayoutStatus['x-transitions']).flatMap(([from, tos]) => (tos as readonly string[]).map((to) => `${from}>${to}`));
    expect(contract.filter((move) => !covered.has(move) && !batchMoves.includes(move))).toEqual([]);
  });

  it('calls final the states a payout leaves only by reversal', () => {
    expect([...FINAL_STATUSES].sort()).toEqual(['CANCELLED', 'FAILED', 'REVERSED', 'SUCCESSFUL']);
  });
});
