import { SCHEMAS, type DeclineReason, type FailureReason, type PayinAttempt, type PayinStatus } from '@paysign/contracts';

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

/** Why a payin FAILED: a decline that ends it (a simulated one, or a provider's), or one decline too many. */
export type FailedReason = DeclineReason | 'too_many_attempts';

/** A move to a final state, with what it records. */
export type PayinTransition =
  | { to: 'SUCCESSFUL' }
  | { to: 'FAILED'; reason: FailedReason }
  | { to: 'CANCELLED'; by: 'customer' | 'merchant' }
  | { to: 'ABANDONED' };

/** The `failureReason` each final state records; FAILED records the decline's own. */
export function failureReasonOf(transition: PayinTransition): FailureReason | null {
  switch (transition.to) {
    case 'SUCCESSFUL':
      return null;
    case 'FAILED':
      return transition.reason;
    case 'CANCELLED':
      return transition.by === 'merchant' ? 'merchant_cancelled' : 'customer_cancelled';
    case 'ABANDONED':
      return 'checkout_expired';
  }
}

/**
 * The payin as it is at `now`: one still PENDING at or past its expiry is
 * shown ABANDONED, as the expiry sweep will write it (failed at its expiry,
 * one version on). Reads answer with this and write nothing. A payin started
 * at a provider is the exception: the customer may have paid there just
 * before expiry, so it stays PENDING until the provider has been asked.
 */
export function effectivePayin<P extends { status: PayinStatus; expiresAt: Date; failedAt: Date | null; failureReason: FailureReason | null; version: number; providerReference?: string | null }>(
  payin: P,
  now: number,
): P {
  if (payin.status !== 'PENDING' || payin.expiresAt.getTime() > now || payin.providerReference) return payin;
  return { ...payin, status: 'ABANDONED', failedAt: payin.expiresAt, failureReason: failureReasonOf({ to: 'ABANDONED' }), version: payin.version + 1 };
}

/** A decline that ends the payin at once, whatever attempts are left: another card would be the same shopper. */
const DECLINES_THAT_END: ReadonlySet<DeclineReason> = new Set(['fraud_suspected']);

/**
 * What an attempt does to a PENDING payin that has had `earlier` attempts:
 * one that succeeded pays it; a decline fails it when it is the
 * `maxAttempts`-th or one that ends it, and otherwise leaves it open.
 */
export function transitionOfAttempt(attempt: Pick<PayinAttempt, 'outcome' | 'declineReason'>, earlier: number, maxAttempts: number): PayinTransition | undefined {
  if (attempt.outcome === 'succeeded') return { to: 'SUCCESSFUL' };
  const reason = attempt.declineReason ?? 'card_declined';
  if (DECLINES_THAT_END.has(reason)) return { to: 'FAILED', reason };
  return earlier + 1 >= maxAttempts ? { to: 'FAILED', reason: 'too_many_attempts' } : undefined;
}

export function isPayinStatus(value: unknown): value is PayinStatus {
  return (PAYIN_STATUSES as readonly unknown[]).includes(value);
}
