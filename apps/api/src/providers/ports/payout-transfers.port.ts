import type { PayoutFailureReason } from '@paysign/contracts';
import type { AccountNameLookup } from '../ports/account-names.port';

/** A transfer as sent: the provider knows it by `providerReference`, the same on every send. */
export interface Transfer {
  providerReference: string;
  bankCode: string;
  accountNumber: string;
  accountName: string;
  amountMinor: bigint;
  narration: string;
  /** The payout's merchant: a provider's circuits tell one merchant's failures from a failing provider. */
  merchantId: string;
}

/**
 * What the provider said of a transfer it was sent: only `successful` and
 * `failed` are definitive. `mismatch`: the provider reports the transfer
 * with another amount or currency than ours; nothing is moved on it, and
 * the payout needs an operator.
 */
export type SendAnswer =
  | { outcome: 'successful' }
  | { outcome: 'failed'; reason: PayoutFailureReason }
  | { outcome: 'pending' }
  | { outcome: 'mismatch'; amountMinor: bigint; currency: string };

/** What the provider says of a transfer asked about: also `reversed` after success, and `not_found` when it never received it. */
export type TransferStatus = SendAnswer | { outcome: 'reversed'; reason: PayoutFailureReason } | { outcome: 'not_found' };

/**
 * The payout transfers port: where payouts are sent, a bank transfer
 * provider. Every call may time out or fail; the caller treats that as
 * "unknown" and asks again later, never as a refusal, and never sends a
 * second transfer under a new reference.
 *
 * What an adapter must guarantee:
 * - `newReference` mints a reference in the provider's own format, unique
 *   for ever; the payout keeps it, with the adapter's id, from the moment it
 *   becomes PROCESSING, before the provider hears of it.
 * - `send` is idempotent by that reference: the provider moves the money at
 *   most once per reference, however often it is sent.
 * - `status` answers `not_found` only when the provider has no transfer of
 *   the reference at all, never for an error or a timeout (those reject): a
 *   `not_found` past the resend grace sends the transfer again, under the
 *   same reference, to this same adapter, and never to another.
 * - only `successful`, `failed` and `reversed` are definitive.
 */
export interface PayoutTransfers {
  /** A fresh reference for a transfer, in the provider's format. */
  newReference(): string;
  /** The account's name at its bank now, by the provider's own name enquiry: checked at dispatch against the enquired name. */
  accountName(account: { bankCode: string; accountNumber: string; merchantId: string }, signal: AbortSignal): Promise<AccountNameLookup>;
  /** Sends the transfer. Idempotent by `providerReference`: a resend of a transfer the provider has is answered with its state, and moves no money again. */
  send(transfer: Transfer, signal: AbortSignal): Promise<SendAnswer>;
  /**
   * The transfer's state at the provider, checked against the amount it was
   * sent for. `paid`: whether the payout is SUCCESSFUL here already, so that
   * a provider whose "reversed" also covers transfers that never reached the
   * beneficiary can tell a failure from a return.
   */
  status(transfer: { providerReference: string; amountMinor: bigint; paid: boolean; merchantId: string }, signal: AbortSignal): Promise<TransferStatus>;
}
