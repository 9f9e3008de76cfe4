import { SCHEMAS, type RefundFailureReason, type RefundStatus } from '@paysign/contracts';

// The states and their transitions are the contract's (openapi/payment-api.yaml).
const TRANSITIONS: Readonly<Record<RefundStatus, readonly RefundStatus[]>> = SCHEMAS.RefundStatus['x-transitions'];

/** Whether the contract lets a refund move from `from` to `to`. */
export function canMove(from: RefundStatus, to: RefundStatus): boolean {
  return TRANSITIONS[from].includes(to);
}

/** The states in which a refund's money is still held: counted against what is left of its payin. */
export const IN_FLIGHT_STATUSES = ['PENDING', 'PROCESSING', 'REQUIRES_ACTION'] as const satisfies readonly RefundStatus[];

/** The moves a refund makes, each with what it records. */
export type RefundTransition =
  /** Sent through its provider of record under `providerReference`, which that provider minted; a refund keeps the first it was given. */
  | { to: 'PROCESSING'; providerReference: string }
  /** Back from REQUIRES_ACTION with the customer's bank account, from an enquiry. */
  | { to: 'PROCESSING'; account: { bankCode: string; accountNumber: string; accountName: string; enquiryId: string } }
  | { to: 'REQUIRES_ACTION' }
  | { to: 'SUCCESSFUL' }
  | { to: 'FAILED'; reason: RefundFailureReason }
  | { to: 'CANCELLED' };

/** The states each move starts from; every pair is one of the contract's transitions (refund-states.spec.ts holds it to them). */
export function movePreconditionOf(transition: RefundTransition): readonly RefundStatus[] {
  switch (transition.to) {
    case 'PROCESSING':
      return 'account' in transition ? ['REQUIRES_ACTION'] : ['PENDING'];
    case 'REQUIRES_ACTION':
      return ['PROCESSING'];
    case 'SUCCESSFUL':
    case 'FAILED':
      // The provider's word settles a refund waiting for an account too: it may have returned the money, or given up, without one.
      return ['PROCESSING', 'REQUIRES_ACTION'];
    case 'CANCELLED':
      return ['PENDING'];
  }
}

/** The states in which a refund is final: its money has left, or been given back. */
export const FINAL_STATUSES = (Object.keys(TRANSITIONS) as RefundStatus[]).filter((status) => TRANSITIONS[status].length === 0);
