import type { ProviderPaymentStatus } from './payment-gateway.port';

/**
 * Whether a payment the provider reports paid credits the payin: only when
 * it was for the payin's amount, in the payin's currency, and what the
 * customer was charged covers that amount. Anything else is never credited
 * on a guess; the caller flags the payin for an operator.
 */
export function paysInFull(paid: Extract<ProviderPaymentStatus, { outcome: 'paid' }>, payin: { amountMinor: bigint; currency: string }): boolean {
  return paid.amountMinor === payin.amountMinor && paid.chargedMinor >= payin.amountMinor && paid.currency === payin.currency;
}
