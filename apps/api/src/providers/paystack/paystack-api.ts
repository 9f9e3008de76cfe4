import { createHmac, timingSafeEqual } from 'node:crypto';
import type { ProviderAnswer, UpstreamClient } from '../../upstream/upstream-client';
import { ProviderUnavailable } from '../../upstream/upstream-client';

/**
 * The calls the adapters make to Paystack's API, each with the answers it
 * documents. Every fact here is from Paystack's public API reference
 * (https://paystack.com/docs/api/) and its OpenAPI description
 * (github.com/PaystackOSS/openapi); the page of each is named at its call.
 * Every answer is read defensively: a 2xx whose body is not the documented
 * shape is treated as no answer (ProviderUnavailable), never as a result.
 */
export class PaystackApi {
  constructor(
    private readonly client: UpstreamClient,
    private readonly secretKey: string,
    /** Whether the customer may be sent to an http page: only against a local fake, never Paystack's own https pages. */
    private readonly allowHttpPages = false,
  ) {}

  get circuitState(): UpstreamClient['circuitState'] {
    return this.client.circuitState;
  }

  /**
   * GET /bank/resolve (https://paystack.com/docs/api/verification/#resolve-account).
   * 200 with `data.account_name`; 422 "Could not resolve account name" when
   * the bank has no such account, and 400 for a bank code it does not know.
   */
  async resolveAccount(accountNumber: string, bankCode: string, signal: AbortSignal): Promise<{ found: true; accountName: string } | { found: false; status: number; message: string }> {
    const answer = await this.client.request({ call: 'bank_resolve', method: 'GET', path: '/bank/resolve', query: { account_number: accountNumber, bank_code: bankCode }, idempotent: true, signal });
    if (answer.status === 200) {
      const data = dataOf(answer, 'bank_resolve');
      if (typeof data.account_name !== 'string' || data.account_name.trim() === '') throw unreadable('bank_resolve');
      return { found: true, accountName: data.account_name };
    }
    return { found: false, status: answer.status, message: messageOf(answer) };
  }

  /**
   * POST /transferrecipient (https://paystack.com/docs/api/transfer-recipient/#create):
   * a `nuban` recipient for the account; answers its `recipient_code`. The
   * same account again answers the recipient it has, so a retry makes no second one.
   */
  async createRecipient(recipient: { name: string; accountNumber: string; bankCode: string }, signal: AbortSignal): Promise<{ created: true; recipientCode: string } | ({ created: false } & Refusal)> {
    const answer = await this.client.request({
      call: 'transferrecipient_create',
      method: 'POST',
      path: '/transferrecipient',
      body: { type: 'nuban', name: recipient.name, account_number: recipient.accountNumber, bank_code: recipient.bankCode, currency: 'NGN' },
      idempotent: true,
      signal,
    });
    if (answer.status === 200 || answer.status === 201) {
      const data = dataOf(answer, 'transferrecipient_create');
      if (typeof data.recipient_code !== 'string' || !/^RCP_[A-Za-z0-9]+$/.test(data.recipient_code)) throw unreadable('transferrecipient_create');
      return { created: true, recipientCode: data.recipient_code };
    }
    return { created: false, ...refusalOf(answer) };
  }

  /**
   * POST /transfer (https://paystack.com/docs/api/transfer/#initiate), from
   * the balance, amount in kobo. `reference` is the transfer's idempotency
   * key (https://paystack.com/docs/transfers/single-transfers/): it is sent
   * once per payout, and a resend of it never makes a second transfer. Not
   * retried here: a lost answer is settled by verifying the reference.
   */
  async initiateTransfer(transfer: { reference: string; recipientCode: string; amountMinor: bigint; reason: string }, signal: AbortSignal): Promise<{ accepted: true; transfer: PaystackTransfer } | ({ accepted: false } & Refusal)> {
    const answer = await this.client.request({
      call: 'transfer_initiate',
      method: 'POST',
      path: '/transfer',
      body: { source: 'balance', amount: Number(transfer.amountMinor), reference: transfer.reference, recipient: transfer.recipientCode, reason: transfer.reason, currency: 'NGN' },
      idempotent: false,
      signal,
    });
    if (answer.status === 200) return { accepted: true, transfer: transferOf(dataOf(answer, 'transfer_initiate'), 'transfer_initiate') };
    return { accepted: false, ...refusalOf(answer) };
  }

  /** GET /transfer/verify/:reference (https://paystack.com/docs/api/transfer/#verify); undefined when Paystack has no transfer of that reference (404, or 400 "not found"). */
  async verifyTransfer(reference: string, signal: AbortSignal): Promise<PaystackTransfer | undefined> {
    const answer = await this.client.request({ call: 'transfer_verify', method: 'GET', path: `/transfer/verify/${encodeURIComponent(reference)}`, idempotent: true, signal });
    if (answer.status === 200) return transferOf(dataOf(answer, 'transfer_verify'), 'transfer_verify');
    if (answer.status === 404 || (answer.status === 400 && /not found/i.test(messageOf(answer)))) return undefined;
    throw new ProviderUnavailable('paystack', 'transfer_verify', 'error');
  }

  /**
   * POST /transaction/initialize (https://paystack.com/docs/api/transaction/#initialize):
   * amount in kobo, our reference, the customer's email, the channels, and
   * where the customer is sent back. Answers the hosted page's
   * `authorization_url`. A reference used before is refused (400 "Duplicate
   * Transaction Reference"), so a retry cannot make a second transaction.
   */
  async initializeTransaction(transaction: { reference: string; amountMinor: bigint; currency: string; email: string; channels: readonly string[]; callbackUrl: string }, signal: AbortSignal): Promise<{ authorizationUrl: string } | { refused: true; status: number; message: string }> {
    const answer = await this.client.request({
      call: 'transaction_initialize',
      method: 'POST',
      path: '/transaction/initialize',
      body: { email: transaction.email, amount: transaction.amountMinor.toString(), currency: transaction.currency, reference: transaction.reference, callback_url: transaction.callbackUrl, channels: transaction.channels },
      idempotent: false,
      signal,
    });
    if (answer.status !== 200) return { refused: true, status: answer.status, message: messageOf(answer) };
    const data = dataOf(answer, 'transaction_initialize');
    if (typeof data.authorization_url !== 'string' || !URL.canParse(data.authorization_url)) throw unreadable('transaction_initialize');
    const page = new URL(data.authorization_url);
    // The customer is sent here with a 303, and the checkout page's CSP names its origin: only a plain https page will do.
    if (!(page.protocol === 'https:' || (this.allowHttpPages && page.protocol === 'http:')) || page.username !== '' || page.password !== '' || page.href.length > 2048) throw unreadable('transaction_initialize');
    return { authorizationUrl: page.href };
  }

  /** GET /transaction/verify/:reference (https://paystack.com/docs/api/transaction/#verify); undefined when Paystack has no transaction of that reference. */
  async verifyTransaction(reference: string, signal: AbortSignal): Promise<PaystackTransaction | undefined> {
    const answer = await this.client.request({ call: 'transaction_verify', method: 'GET', path: `/transaction/verify/${encodeURIComponent(reference)}`, idempotent: true, signal });
    if (answer.status === 404 || (answer.status === 400 && /not found/i.test(messageOf(answer)))) return undefined;
    if (answer.status !== 200) throw new ProviderUnavailable('paystack', 'transaction_verify', 'error');
    const data = dataOf(answer, 'transaction_verify');
    const { status, reference: ref, amount, requested_amount: requested, currency, gateway_response: gatewayResponse } = data;
    if (typeof status !== 'string' || typeof ref !== 'string' || !Number.isSafeInteger(amount) || typeof currency !== 'string') throw unreadable('transaction_verify');
    // `amount` includes Paystack's fee when the account passes charges to customers; `requested_amount` is what was asked for, the payin's amount.
    const asked = Number.isSafeInteger(requested) ? (requested as number) : (amount as number);
    return { status, reference: ref, amountMinor: BigInt(asked), currency, gatewayResponse: typeof gatewayResponse === 'string' ? gatewayResponse : '' };
  }

  /**
   * Whether `x-paystack-signature` is the HMAC-SHA512, in hex, of the raw
   * body under the secret key (https://paystack.com/docs/payments/webhooks/#verify-event-origin).
   * Compared in constant time, over the bytes as they arrived.
   */
  signatureMatches(rawBody: Buffer, signature: string | undefined): boolean {
    if (signature === undefined || !/^[0-9a-f]{128}$/i.test(signature)) return false;
    const expected = createHmac('sha512', this.secretKey).update(rawBody).digest();
    return timingSafeEqual(expected, Buffer.from(signature, 'hex'));
  }
}

/** A transfer as Paystack reports it (https://paystack.com/docs/transfers/how-transfers-work/ lists the statuses). */
export interface PaystackTransfer {
  reference: string;
  status: string;
  amountMinor: bigint;
  currency: string;
  /** Paystack's words on a failed or reversed transfer, when it gives any. */
  failureText: string;
}

export interface PaystackTransaction {
  status: string;
  reference: string;
  amountMinor: bigint;
  currency: string;
  /** The processor's words on the charge: "Approved", "Declined", "Insufficient Funds". */
  gatewayResponse: string;
}

function dataOf(answer: ProviderAnswer, call: string): Record<string, unknown> {
  const body = answer.body as { status?: unknown; data?: unknown } | null;
  if (typeof body !== 'object' || body === null || body.status !== true || typeof body.data !== 'object' || body.data === null) throw unreadable(call);
  return body.data as Record<string, unknown>;
}

function transferOf(data: Record<string, unknown>, call: string): PaystackTransfer {
  const { reference, status, amount, currency } = data;
  if (typeof reference !== 'string' || typeof status !== 'string' || !Number.isSafeInteger(amount) || typeof currency !== 'string') throw unreadable(call);
  const failures = data.failures;
  const failureText = [data.gateway_response, typeof failures === 'string' ? failures : null].filter((part): part is string => typeof part === 'string').join(' ');
  return { reference, status, amountMinor: BigInt(amount as number), currency, failureText };
}

/**
 * A 4xx answer: its status, message, and the `type` and `code` Paystack's
 * error bodies carry (https://paystack.com/docs/api/errors/), such as
 * `validation_error` and `invalid_transfer_recipient`.
 */
export interface Refusal {
  status: number;
  message: string;
  type: string;
  code: string;
}

function refusalOf(answer: ProviderAnswer): Refusal {
  const body = answer.body as { type?: unknown; code?: unknown } | null;
  return { status: answer.status, message: messageOf(answer), type: typeof body?.type === 'string' ? body.type : '', code: typeof body?.code === 'string' ? body.code : '' };
}

/** The message of a refusal, for our logs only: it is never shown to merchants as is. */
function messageOf(answer: ProviderAnswer): string {
  const message = (answer.body as { message?: unknown } | null)?.message;
  return typeof message === 'string' ? message.slice(0, 200) : '';
}

function unreadable(call: string): ProviderUnavailable {
  return new ProviderUnavailable('paystack', call, 'error');
}
