import { randomUUID } from 'node:crypto';
import type { PayoutFailureReason } from '@paysign/contracts';
import type { AccountNameLookup } from '../ports/account-names.port';
import type { SqlClient } from '../../db/sql-client';
import type { PayoutTransfers, SendAnswer, Transfer, TransferStatus } from '../ports/payout-transfers.port';
import type { Logger } from 'pino';
import type { ProviderCaller } from '../../upstream/upstream-client';
import type { PaystackApi, PaystackTransfer } from './paystack-api';
import { PaystackAccountNameProvider } from './paystack-account-names';
import { paystackBankCode } from './paystack-banks';

/**
 * Payouts through Paystack Transfers (https://paystack.com/docs/transfers/single-transfers/):
 * a transfer recipient per account, created once and kept
 * (paystack_recipients), then a transfer from the balance under the
 * payout's provider reference, in lower case as Paystack's references must
 * be. Transfer verify settles what a lost answer left unknown.
 *
 * The account must have OTP for transfers turned off (docs/providers.md):
 * a transfer waiting for an OTP stays pending here, and Paystack abandons it
 * after 30 minutes, which is then a failure.
 */
export class PaystackPayoutTransfers implements PayoutTransfers {
  private readonly names: PaystackAccountNameProvider;

  constructor(
    private readonly api: PaystackApi,
    private readonly client: SqlClient,
    private readonly logger: Logger,
  ) {
    this.names = new PaystackAccountNameProvider(api);
  }

  /** `PSX-` and 32 lower-case hex digits: sent to Paystack in lower case, which its references must be, and read back one to one. */
  newReference(): string {
    return `PSX-${randomUUID().replaceAll('-', '')}`;
  }

  accountName(account: { bankCode: string; accountNumber: string; merchantId: string }, signal: AbortSignal): Promise<AccountNameLookup> {
    return this.names.lookup({ bankCode: account.bankCode, accountNumber: account.accountNumber, merchantId: account.merchantId, signal });
  }

  async send(transfer: Transfer, signal: AbortSignal): Promise<SendAnswer> {
    const caller = { signal, merchantId: transfer.merchantId };
    const recipient = await this.recipientFor(transfer, caller);
    if ('outcome' in recipient) return recipient;
    const reference = paystackReference(transfer.providerReference);
    const sent = await this.api.initiateTransfer({ reference, recipientCode: recipient.code, amountMinor: transfer.amountMinor, reason: transfer.narration }, caller);
    if (sent.accepted) return asSendAnswer(answerOf(sent.transfer, transfer.amountMinor));
    // A refusal may answer a resend of a reference Paystack already has: what verify says of the reference decides.
    const known = await this.api.verifyTransfer(reference, caller);
    if (known) return asSendAnswer(answerOf(known, transfer.amountMinor));
    const logged = { providerReference: transfer.providerReference, status: sent.status, type: sent.type, code: sent.code, message: sent.message };
    if (sent.code === DUPLICATE_TRANSFER_REFERENCE) {
      // Paystack's documented answer to a reused reference ("Reference already exists on a transfer"): the transfer exists, though verify does not show it yet. Never a failure: its status checks ask again.
      this.logger.warn(logged, 'paystack has a transfer of the reference that verify does not show yet: its status is asked again');
      return { outcome: 'pending' };
    }
    if (sent.code === 'invalid_transfer_recipient') {
      // The kept recipient is gone at Paystack (deleted, or made under another key): made afresh at the resend.
      await this.client.query('DELETE FROM paystack_recipients WHERE bank_code = $1 AND account_number = $2 AND recipient_code = $3', [transfer.bankCode, transfer.accountNumber, recipient.code]);
      this.logger.warn(logged, 'paystack no longer knows the kept transfer recipient: it is made again when the payout is sent again');
      return { outcome: 'pending' };
    }
    // A validation error about the transfer itself is a definitive refusal: Paystack has no transfer of the reference, and will not make one.
    if (sent.type === 'validation_error' && !/balance/i.test(sent.message)) {
      this.logger.warn(logged, 'paystack refused the transfer, and has none of its reference: nothing was sent');
      return { outcome: 'failed', reason: 'provider_error' };
    }
    // Anything else (a low balance, a refusal of unknown meaning) leaves the payout unsettled: the status checks find no transfer and send it again, under the same reference, after PAYOUT_RESEND_GRACE_SECONDS.
    this.logger.warn(logged, 'paystack did not take the transfer: it is sent again under the same reference after PAYOUT_RESEND_GRACE_SECONDS');
    return { outcome: 'pending' };
  }

  async status(transfer: { providerReference: string; amountMinor: bigint; paid: boolean; merchantId: string }, signal: AbortSignal): Promise<TransferStatus> {
    const known = await this.api.verifyTransfer(paystackReference(transfer.providerReference), { signal, merchantId: transfer.merchantId });
    if (!known) return { outcome: 'not_found' };
    const status = answerOf(known, transfer.amountMinor);
    // Paystack's `reversed` also covers a transfer that never reached the beneficiary ("could not be processed; amount returned"): for a payout not yet paid, a failure.
    return status.outcome === 'reversed' && !transfer.paid ? { outcome: 'failed', reason: 'reversed_by_beneficiary_bank' } : status;
  }

  /** The account's recipient code: the one kept, or a new one. A refusal to create one is definitive only as a validation error or 422: no money was sent. */
  private async recipientFor(transfer: Transfer, caller: ProviderCaller): Promise<{ code: string } | SendAnswer> {
    const bankCode = paystackBankCode(transfer.bankCode);
    if (bankCode === undefined) return { outcome: 'failed', reason: 'beneficiary_bank_unavailable' };
    const kept = await this.client.query<{ recipient_code: string }>('SELECT recipient_code FROM paystack_recipients WHERE bank_code = $1 AND account_number = $2', [transfer.bankCode, transfer.accountNumber]);
    if (kept.rows[0]) return { code: kept.rows[0].recipient_code };
    const created = await this.api.createRecipient({ name: transfer.accountName, accountNumber: transfer.accountNumber, bankCode }, caller);
    if (!created.created) {
      const definitive = created.status === 422 || created.type === 'validation_error';
      this.logger.warn({ providerReference: transfer.providerReference, status: created.status, type: created.type, code: created.code, message: created.message }, 'paystack refused the transfer recipient');
      if (!definitive) return { outcome: 'pending' };
      return { outcome: 'failed', reason: created.status === 422 ? 'account_not_found' : 'provider_error' };
    }
    await this.client.query('INSERT INTO paystack_recipients (bank_code, account_number, recipient_code) VALUES ($1, $2, $3) ON CONFLICT (bank_code, account_number) DO NOTHING', [
      transfer.bankCode,
      transfer.accountNumber,
      created.recipientCode,
    ]);
    return { code: created.recipientCode };
  }
}

/** Paystack's code for a transfer under a reference it already has (https://paystack.com/docs/api/errors/transfer/). */
export const DUPLICATE_TRANSFER_REFERENCE = 'duplicate_transfer_reference';

/** Our provider reference of a Paystack transfer reference, as its webhooks name it; undefined for one not of ours. */
export function providerReferenceOf(paystackReference: string): string | undefined {
  return /^psx-[0-9a-f]{32}$/.test(paystackReference) ? `PSX-${paystackReference.slice(4)}` : undefined;
}

/** Paystack references are lower case, with `-` and `_` (https://paystack.com/docs/transfers/single-transfers/#generate-a-transfer-reference); ours are `PSX-` and lower-case hex, so lower-casing is one to one. */
export function paystackReference(providerReference: string): string {
  return providerReference.toLowerCase();
}

/**
 * Paystack's transfer statuses (https://paystack.com/docs/transfers/how-transfers-work/)
 * to ours: `success` is paid, `failed` failed, `reversed` returned;
 * `abandoned` (an OTP never given), `blocked` and `rejected` (refused at
 * approval) sent nothing, so they fail too. `pending`, `otp`, `received`
 * and `queued` are not yet known. A report of another amount or currency
 * than the payout's moves nothing.
 */
export function answerOf(transfer: PaystackTransfer, amountMinor: bigint): TransferStatus {
  if (transfer.amountMinor !== amountMinor || transfer.currency !== 'NGN') return { outcome: 'mismatch', amountMinor: transfer.amountMinor, currency: transfer.currency };
  switch (transfer.status) {
    case 'success':
      return { outcome: 'successful' };
    case 'failed':
    case 'abandoned':
    case 'blocked':
    case 'rejected':
      return { outcome: 'failed', reason: failureReasonOf(transfer.failureText) };
    case 'reversed':
      return { outcome: 'reversed', reason: 'reversed_by_beneficiary_bank' };
    default:
      return { outcome: 'pending' };
  }
}

/** At send, a transfer already reversed never reached the beneficiary: a failure (see `status`). */
function asSendAnswer(status: TransferStatus): SendAnswer {
  if (status.outcome === 'reversed') return { outcome: 'failed', reason: status.reason };
  return status.outcome === 'not_found' ? { outcome: 'pending' } : status;
}

/** Paystack's words on a failed transfer, to our reasons; anything unrecognised is the provider's error. */
export function failureReasonOf(text: string): PayoutFailureReason {
  const words = text.toLowerCase();
  if (/dormant/.test(words)) return 'account_dormant';
  if (/invalid account|account not found|no such account|could not resolve/.test(words)) return 'account_not_found';
  if (/limit/.test(words)) return 'transfer_limit_exceeded';
  if (/do not honou?r/.test(words)) return 'do_not_honor';
  if (/fraud/.test(words)) return 'suspected_fraud';
  if (/unavailable|not available|timeout|timed out|inactive/.test(words)) return 'beneficiary_bank_unavailable';
  return 'provider_error';
}
