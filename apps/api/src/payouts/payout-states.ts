import { SCHEMAS, type PayoutFailureReason, type PayoutStatus } from '@paysign/contracts';

// The states and their transitions are the contract's (openapi/payment-api.yaml).
export const PAYOUT_STATUSES = SCHEMAS.PayoutStatus.enum;
export const PAYOUT_FAILURE_REASONS = SCHEMAS.PayoutFailureReason.enum;
const TRANSITIONS: Readonly<Record<PayoutStatus, readonly PayoutStatus[]>> = SCHEMAS.PayoutStatus['x-transitions'];

/** Whether the contract lets a payout move from `from` to `to`. */
export function canMove(from: PayoutStatus, to: PayoutStatus): boolean {
  return TRANSITIONS[from].includes(to);
}

/** The moves a payout makes, each with what it records. */
export type PayoutTransition =
  | { to: 'PROCESSING' }
  | { to: 'SUCCESSFUL' }
  | { to: 'FAILED'; reason: PayoutFailureReason }
  | { to: 'CANCELLED' }
  | { to: 'REVERSED'; reason: PayoutFailureReason };

/** The state each move starts from: one, since every state has one way in. */
export function fromStatusOf(transition: PayoutTransition): PayoutStatus {
  const from = (Object.keys(TRANSITIONS) as PayoutStatus[]).filter((status) => TRANSITIONS[status].includes(transition.to));
  if (from.length !== 1) throw new Error(`the contract gives ${transition.to} ${from.length} states to come from; the payout store needs exactly one`);
  return from[0] as PayoutStatus;
}
