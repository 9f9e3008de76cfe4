import { SCHEMAS, type DeclineReason, type FailureReason, type PayinStatus } from '@paysign/contracts';

// The states, their transitions, the channels and the reasons are the contract's (openapi/payment-api.yaml).
export const PAYIN_STATUSES = SCHEMAS.PayinStatus.enum;
export const PAYIN_CHANNELS = SCHEMAS.PayinChannel.enum;
export const DECLINE_REASONS = SCHEMAS.DeclineReason.enum;
const TRANSITIONS: Readonly<Record<PayinStatus, readonly PayinStatus[]>> = SCHEMAS.PayinStatus['x-transitions'];

export type FinalStatus = Exclude<PayinStatus, 'PENDING'>;

/** A final state never changes: it has no transition out. */
export function isFinal(status: PayinStatus): status is FinalStatus {
  return TRANSITIONS[status].length === 0;
}

/** The states the contract lets a payin move to from `from`. */
export function transitionsFrom(from: PayinStatus): readonly PayinStatus[] {
  return TRANSITIONS[from];
}

/** A move to a final state, with what it records. */
export type PayinTransition =
  | { to: 'SUCCESSFUL' }
  | { to: 'FAILED'; reason: DeclineReason }
  | { to: 'CANCELLED' }
  | { to: 'ABANDONED' };

/** The `failureReason` each final state records; FAILED records the decline's own. */
export function failureReasonOf(transition: PayinTransition): FailureReason | null {
  switch (transition.to) {
    case 'SUCCESSFUL':
      return null;
    case 'FAILED':
      return transition.reason;
    case 'CANCELLED':
      return 'customer_cancelled';
    case 'ABANDONED':
      return 'checkout_expired';
  }
}

export function isPayinStatus(value: unknown): value is PayinStatus {
  return (PAYIN_STATUSES as readonly unknown[]).includes(value);
}
