import { SCHEMAS, type RefundStatus } from '@paysign/contracts';
import { canMove, FINAL_STATUSES, IN_FLIGHT_STATUSES, movePreconditionOf, type RefundTransition } from './refund-states';

const MOVES: RefundTransition[] = [
  { to: 'PROCESSING', providerReference: 'psr_1' },
  { to: 'PROCESSING', account: { bankCode: '058', accountNumber: '0123456785', accountName: 'ADA', enquiryId: 'enq_1' } },
  { to: 'REQUIRES_ACTION' },
  { to: 'SUCCESSFUL' },
  { to: 'FAILED', reason: 'declined_by_provider' },
  { to: 'CANCELLED' },
];

describe('refund states', () => {
  it.each(MOVES.map((move) => [`${move.to}${'account' in move ? ' with an account' : ''}`, move] as const))('moves to %s only from states the contract allows', (_name, move) => {
    for (const from of movePreconditionOf(move)) expect(canMove(from, move.to)).toBe(true);
  });

  it('reaches every transition of the contract by some move', () => {
    const reached = new Set(MOVES.flatMap((move) => movePreconditionOf(move).map((from) => `${from}->${move.to}`)));
    const contract = Object.entries(SCHEMAS.RefundStatus['x-transitions']).flatMap(([from, tos]) => (tos as readonly RefundStatus[]).map((to) => `${from}->${to}`));
    expect([...reached].sort()).toEqual(contract.sort());
  });

  it('holds money in every state that is not final, and in none that is', () => {
    expect([...IN_FLIGHT_STATUSES, ...FINAL_STATUSES].sort()).toEqual([...SCHEMAS.RefundStatus.enum].sort());
  });
});
