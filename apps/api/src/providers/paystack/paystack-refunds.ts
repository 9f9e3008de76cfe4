import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { PaymentRefunds, RefundAccountDetails, RefundAnswer, RefundOrder, RefundStatusAnswer } from '../ports/payment-refunds.port';
import { ProviderUnavailable, type ProviderCaller } from '../../upstream/upstream-client';
import type { SqlQueryable } from '../../db/sql-client';
import type { PaystackApi, PaystackRefund } from './paystack-api';
import { PaystackBankIds } from './paystack-bank-ids';

/** Refunds asked for per page of List Refunds. */
const REFUNDS_PER_PAGE = 100;

/** The most pages of a transaction's refunds read for one lookup; a listing longer than this is no answer, never `not_found`. */
const MAX_REFUND_PAGES = 10;

/** Where the adapter keeps the Paystack id of each refund it made, by our reference. */
export interface PaystackRefundIds {
  idOf(providerReference: string): Promise<number | undefined>;
  record(providerReference: string, refundId: number): Promise<void>;
}

/** The ids in the adapter's own table (PAYSTACK_REFUNDS). */
export class SqlPaystackRefundIds implements PaystackRefundIds {
  constructor(private readonly client: SqlQueryable) {}

  async idOf(providerReference: string): Promise<number | undefined> {
    const { rows } = await this.client.query<{ refund_id: string }>('SELECT refund_id::text AS refund_id FROM paystack_refunds WHERE provider_reference = $1', [providerReference]);
    return rows[0] ? Number(rows[0].refund_id) : undefined;
  }

  async record(providerReference: string, refundId: number): Promise<void> {
    await this.client.query('INSERT INTO paystack_refunds (provider_reference, refund_id) VALUES ($1, $2) ON CONFLICT (provider_reference) DO NOTHING', [providerReference, refundId]);
  }
}

export interface PaystackRefundsOptions {
  /** 32 lower-case hex digits for a new reference. Default: a random UUID's. */
  mintHex?: () => string;
}

/**
 * Refunds through Paystack's Refunds API (https://paystack.com/docs/payments/refunds/).
 * Paystack takes no idempotency key for a refund, so every send first looks
 * for the refund it may already have made: by the Paystack id kept when it
 * was made (PAYSTACK_REFUNDS), else among the transaction's refunds by our
 * reference, which travels at the start of its `merchant_note` (`PSR-…`, or
 * `PSR-…: <merchant note>`). A refund found is answered with its state and
 * never made again. The
 * transaction's refunds are listed by its Paystack id, which Verify
 * Transaction gives for the payin's reference.
 */
export class PaystackRefunds implements PaymentRefunds {
  private readonly bankIds: PaystackBankIds;
  private readonly mintHex: () => string;

  constructor(
    private readonly api: PaystackApi,
    private readonly logger: Logger,
    private readonly ids: PaystackRefundIds,
    options: PaystackRefundsOptions = {},
  ) {
    this.bankIds = new PaystackBankIds(api);
    this.mintHex = options.mintHex ?? (() => randomUUID().replaceAll('-', ''));
  }

  /** `PSR-` and 32 lower-case hex digits. */
  newReference(): string {
    return `PSR-${this.mintHex()}`;
  }

  async refund(order: RefundOrder, signal: AbortSignal): Promise<RefundAnswer> {
    const caller = callerOf(order, signal);
    const known = await this.find(order, caller);
    if (known) return answerOf(known, order);
    const sent = await this.api.createRefund(
      { transactionReference: order.paymentReference, amountMinor: order.amountMinor, currency: order.currency, merchantNote: merchantNoteOf(order), customerNote: order.customerNote },
      caller,
    );
    if (sent.accepted) {
      await this.ids.record(order.providerReference, sent.refund.id);
      if (!carriesReference(sent.refund.merchantNote, order.providerReference)) {
        // The lookup depends on the note: without it a resend would not find this refund, and could refund twice.
        this.logger.error({ providerReference: order.providerReference, refundId: sent.refund.id }, 'paystack did not keep our reference in the refund\'s merchant_note: stop sending refunds to Paystack until this is understood');
      }
      return answerOf(sent.refund, order);
    }
    // A refusal may answer a send Paystack already took (a lost answer, sent again): what the listing says decides.
    const again = await this.find(order, caller);
    if (again) return answerOf(again, order);
    this.logger.warn({ providerReference: order.providerReference, status: sent.status, type: sent.type, code: sent.code, message: sent.message }, 'paystack refused the refund, and has none of its reference: nothing was refunded');
    return { outcome: 'failed', reason: 'declined_by_provider' };
  }

  async status(order: RefundOrder, signal: AbortSignal): Promise<RefundStatusAnswer> {
    const known = await this.find(order, callerOf(order, signal));
    return known ? answerOf(known, order) : { outcome: 'not_found' };
  }

  async sendToAccount(order: RefundOrder & { account: RefundAccountDetails }, signal: AbortSignal): Promise<RefundAnswer> {
    const caller = callerOf(order, signal);
    const known = await this.find(order, caller);
    if (!known) {
      this.logger.error({ providerReference: order.providerReference }, 'paystack has no refund of the reference to send to the account: an operator must look at it');
      throw new ProviderUnavailable('paystack', 'refund_list', 'error');
    }
    const answer = answerOf(known, order);
    // Sent already, or in another state: answered as it is, and sent nowhere again.
    if (answer.outcome !== 'requires_action') return answer;
    const bankId = await this.bankIds.idOf(order.account.bankCode, caller);
    if (bankId === undefined) {
      this.logger.warn({ providerReference: order.providerReference, bankCode: order.account.bankCode }, 'paystack lists no bank of the account\'s code: the refund still needs an account it can send to');
      return { outcome: 'requires_action' };
    }
    const sent = await this.api.retryRefund(known.id, { currency: order.currency, accountNumber: order.account.accountNumber, bankId }, caller);
    if (sent.accepted) return answerOf(sent.refund, order);
    // 422 "Invalid Refund state": sent already, by an earlier call whose answer was lost.
    const again = await this.find(order, caller);
    const now = again && answerOf(again, order);
    if (now && now.outcome !== 'requires_action') return now;
    this.logger.warn({ providerReference: order.providerReference, status: sent.status, type: sent.type, code: sent.code, message: sent.message }, 'paystack refused the account for the refund: it still needs attention');
    return { outcome: 'requires_action' };
  }

  /**
   * The refund of ours, by the reference its note carries, among the
   * refunds of the payment's transaction; undefined only when every page of
   * the listing was read. Rejects when Paystack has no transaction of the
   * payment, or the listing cannot be read to its end.
   */
  private async find(order: RefundOrder, caller: ProviderCaller): Promise<PaystackRefund | undefined> {
    // Made here and its id kept: found by it, whatever its note says.
    const id = await this.ids.idOf(order.providerReference);
    if (id !== undefined) return this.api.fetchRefund(id, caller);
    const transaction = await this.api.verifyTransaction(order.paymentReference, caller);
    if (!transaction || transaction.id === null) {
      this.logger.error({ providerReference: order.providerReference, paymentReference: order.paymentReference }, 'paystack has no transaction of the payment the refund returns money from: check the secret key the service runs with');
      throw new ProviderUnavailable('paystack', 'transaction_verify', 'error');
    }
    for (let page = 1; page <= MAX_REFUND_PAGES; page++) {
      const listed = await this.api.listRefunds({ transactionId: transaction.id, page, perPage: REFUNDS_PER_PAGE }, caller);
      const ours = listed.refunds.find((refund) => carriesReference(refund.merchantNote, order.providerReference));
      if (ours) {
        await this.ids.record(order.providerReference, ours.id);
        return ours;
      }
      // Without a page count, only an empty page ends the listing: Paystack may give fewer a page than were asked for.
      const last = listed.pageCount === null ? listed.refunds.length === 0 : page >= listed.pageCount;
      if (last) return undefined;
    }
    this.logger.error({ providerReference: order.providerReference, pages: MAX_REFUND_PAGES }, 'paystack listed more refunds of the transaction than are read: the refund is neither found nor known to be absent');
    throw new ProviderUnavailable('paystack', 'refund_list', 'error');
  }
}

/** A refund's calls are made for its merchant. */
function callerOf(order: RefundOrder, signal: AbortSignal): ProviderCaller {
  return { signal, merchantId: order.merchantId };
}

/** The refund's `merchant_note`: our reference, then the merchant's note, if any. */
export function merchantNoteOf(order: { providerReference: string; merchantNote: string | null }): string {
  return order.merchantNote === null ? order.providerReference : `${order.providerReference}: ${order.merchantNote}`;
}

/** Whether a `merchant_note` is one of ours for the reference: the reference alone, or followed by `:`. Case is ignored. */
export function carriesReference(merchantNote: string, providerReference: string): boolean {
  const head = merchantNote.slice(0, providerReference.length);
  return head.toLowerCase() === providerReference.toLowerCase() && (merchantNote.length === providerReference.length || merchantNote[providerReference.length] === ':');
}

/**
 * Paystack's refund statuses (https://paystack.com/docs/payments/refunds/,
 * and its support article "Understanding refund statuses") to ours:
 * `processed` is returned to the customer; `failed` could not be processed,
 * and Paystack credits the amount back; `needs-attention` waits for the
 * customer's bank account. `pending`, `processing` and any status not
 * documented are under way. A report of another amount or currency than
 * the refund's moves nothing.
 */
export function answerOf(refund: Pick<PaystackRefund, 'status' | 'amountMinor' | 'currency'>, order: { amountMinor: bigint; currency: string }): RefundAnswer {
  if (refund.amountMinor !== order.amountMinor || refund.currency !== order.currency) return { outcome: 'mismatch', amountMinor: refund.amountMinor, currency: refund.currency };
  switch (refund.status) {
    case 'processed':
      return { outcome: 'successful' };
    case 'failed':
      return { outcome: 'failed', reason: 'provider_error' };
    case 'needs-attention':
      return { outcome: 'requires_action' };
    default:
      return { outcome: 'processing' };
  }
}
