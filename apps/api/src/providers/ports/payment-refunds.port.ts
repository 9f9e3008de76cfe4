import type { RefundFailureReason } from '@paysign/contracts';

/** A refund as sent: the provider knows it by `providerReference`, the same on every send, and the payment it returns by `paymentReference`. */
export interface RefundOrder {
  providerReference: string;
  /** The payin's reference at the provider: the payment the refund returns money from. */
  paymentReference: string;
  amountMinor: bigint;
  currency: string;
  customerNote: string | null;
  merchantNote: string | null;
  /** The customer's bank account, once a refund the provider could not return to the payment method was given one. */
  account: RefundAccountDetails | null;
  /** The refund's merchant: a provider's circuits tell one merchant's failures from a failing provider. */
  merchantId: string;
}

/** The customer's bank account for a refund in REQUIRES_ACTION, from an account enquiry of the merchant. */
export interface RefundAccountDetails {
  bankCode: string;
  accountNumber: string;
  accountName: string;
}

/**
 * What the provider said of a refund: only `successful`, `failed` and
 * `requires_action` are definitive. `mismatch`: the provider reports the
 * refund with another amount or currency than ours; nothing is moved on
 * it, and the refund needs an operator.
 */
export type RefundAnswer =
  | { outcome: 'processing' }
  | { outcome: 'successful' }
  | { outcome: 'failed'; reason: RefundFailureReason }
  | { outcome: 'requires_action' }
  | { outcome: 'mismatch'; amountMinor: bigint; currency: string };

/** What the provider says of a refund asked about: also `not_found` when it never received it. */
export type RefundStatusAnswer = RefundAnswer | { outcome: 'not_found' };

/**
 * The payment refunds port: how money a provider took is returned to the
 * customer, by the provider that took it. Every call may time out or fail;
 * the caller treats that as "unknown" and asks again later, never as a
 * refusal.
 *
 * What an adapter must guarantee:
 * - `newReference` mints a reference unique for ever; the refund keeps it
 *   from the moment it becomes PROCESSING, before the provider hears of it.
 * - `refund` moves money at most once per `providerReference`, however often
 *   it is called: an adapter whose provider takes no idempotency key finds
 *   a refund it already made by that reference before making another.
 * - `status` answers `not_found` only when the provider has no refund of
 *   the reference at all, never for an error or a timeout (those reject).
 * - `sendToAccount` sends a REQUIRES_ACTION refund to the customer's bank
 *   account, and is idempotent as `refund` is.
 */
export interface PaymentRefunds {
  /** A fresh reference for a refund, in the provider's format. */
  newReference(): string;
  refund(order: RefundOrder, signal: AbortSignal): Promise<RefundAnswer>;
  status(order: RefundOrder, signal: AbortSignal): Promise<RefundStatusAnswer>;
  sendToAccount(order: RefundOrder & { account: RefundAccountDetails }, signal: AbortSignal): Promise<RefundAnswer>;
}
