import { SCHEMAS, type PayoutCancellationReason, type PayoutFailureReason, type PayoutStatus } from '@paysign/contracts';

// The states and their transitions are the contract's (openapi/payment-api.yaml).
export const PAYOUT_STATUSES = SCHEMAS.PayoutStatus.enum;
export const PAYOUT_FAILURE_REASONS = SCHEMAS.PayoutFailureReason.enum;
const TRANSITIONS: Readonly<Record<PayoutStatus, readonly PayoutStatus[]>> = SCHEMAS.PayoutStatus['x-transitions'];

/** Whether the contract lets a payout move from `from` to `to`. */
export function canMove(from: PayoutStatus, to: PayoutStatus): boolean {
  return TRANSITIONS[from].includes(to);
}

/** The states a payout waits in, its money held, before it may be sent. */
export const WAITING_STATUSES = ['PENDING_APPROVAL', 'BATCHED'] as const satisfies readonly PayoutStatus[];

/**
 * The moves one payout makes on its own, each with what it records. A
 * batch's payouts move together with their batch (payout-batch-store.ts).
 */
export type PayoutTransition =
  | { to: 'QUEUED'; approvedBy: string }
  /** Sent through `provider` under `providerReference`, which it minted: the payout's provider of record from now on. */
  | { to: 'PROCESSING'; provider: string; providerReference: string }
  | { to: 'SUCCESSFUL' }
  | { to: 'FAILED'; reason: PayoutFailureReason }
  | { to: 'CANCELLED'; reason: Extract<PayoutCancellationReason, 'cancelled_by_merchant' | 'approval_expired'> }
  | { to: 'CANCELLED'; reason: 'rejected'; rejectedBy: string; note: string | null }
  | { to: 'REVERSED'; reason: PayoutFailureReason };

/**
 * The states each move starts from, and whether only a payout outside a
 * batch makes it. Every pair is one of the contract's transitions
 * (payout-states.spec.ts holds it to them).
 */
export function movePreconditionOf(transition: PayoutTransition): { from: readonly PayoutStatus[]; outsideBatch: boolean } {
  switch (transition.to) {
    case 'QUEUED':
      return { from: ['PENDING_APPROVAL'], outsideBatch: true };
    case 'PROCESSING':
      return { from: ['QUEUED'], outsideBatch: false };
    case 'SUCCESSFUL':
    case 'FAILED':
      return { from: ['PROCESSING'], outsideBatch: false };
    case 'REVERSED':
      return { from: ['SUCCESSFUL'], outsideBatch: false };
    case 'CANCELLED':
      return transition.reason === 'cancelled_by_merchant' ? { from: ['QUEUED', 'PENDING_APPROVAL'], outsideBatch: true } : { from: ['PENDING_APPROVAL'], outsideBatch: true };
  }
}

/** The states in which a payout is final: its money has moved or been released, and only a reversal may follow. */
export const FINAL_STATUSES = (Object.keys(TRANSITIONS) as PayoutStatus[]).filter((status) => TRANSITIONS[status].every((to) => to === 'REVERSED'));
