import { createHmac, timingSafeEqual } from 'node:crypto';
import type { ProviderAnswer, ProviderCaller, UpstreamClient } from '../../upstream/upstream-client';
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
  async resolveAccount(accountNumber: string, bankCode: string, caller: ProviderCaller): Promise<{ found: true; accountName: string } | { found: false; status: number; message: string }> {
    const answer = await this.client.request({ call: 'bank_resolve', circuit: 'enquiry', bank: bankCode, method: 'GET', path: '/bank/resolve', query: { account_number: accountNumber, bank_code: bankCode }, idempotent: true, ...caller });
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
  async createRecipient(recipient: { name: string; accountNumber: string; bankCode: string }, caller: ProviderCaller): Promise<{ created: true; recipientCode: string } | ({ created: false } & Refusal)> {
    const answer = await this.client.request({
      call: 'transferrecipient_create',
      circuit: 'transfer',
      method: 'POST',
      path: '/transferrecipient',
      body: { type: 'nuban', name: recipient.name, account_number: recipient.accountNumber, bank_code: recipient.bankCode, currency: 'NGN' },
      idempotent: true,
      ...caller,
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
  async initiateTransfer(transfer: { reference: string; recipientCode: string; amountMinor: bigint; reason: string }, caller: ProviderCaller): Promise<{ accepted: true; transfer: PaystackTransfer } | ({ accepted: false } & Refusal)> {
    const answer = await this.client.request({
      call: 'transfer_initiate',
      circuit: 'transfer',
      method: 'POST',
      path: '/transfer',
      body: { source: 'balance', amount: Number(transfer.amountMinor), reference: transfer.reference, recipient: transfer.recipientCode, reason: transfer.reason, currency: 'NGN' },
      idempotent: false,
      ...caller,
    });
    if (answer.status === 200) return { accepted: true, transfer: transferOf(dataOf(answer, 'transfer_initiate'), 'transfer_initiate') };
    return { accepted: false, ...refusalOf(answer) };
  }

  /** GET /transfer/verify/:reference (https://paystack.com/docs/api/transfer/#verify); undefined when Paystack has no transfer of that reference (404, or 400 "not found"). */
  async verifyTransfer(reference: string, caller: ProviderCaller): Promise<PaystackTransfer | undefined> {
    const answer = await this.client.request({ call: 'transfer_verify', circuit: 'verify', method: 'GET', path: `/transfer/verify/${encodeURIComponent(reference)}`, idempotent: true, ...caller });
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
  async initializeTransaction(transaction: { reference: string; amountMinor: bigint; currency: string; email: string; channels: readonly string[]; callbackUrl: string }, caller: ProviderCaller): Promise<{ authorizationUrl: string } | { refused: true; status: number; message: string }> {
    const answer = await this.client.request({
      call: 'transaction_initialize',
      circuit: 'payin_start',
      method: 'POST',
      path: '/transaction/initialize',
      body: { email: transaction.email, amount: transaction.amountMinor.toString(), currency: transaction.currency, reference: transaction.reference, callback_url: transaction.callbackUrl, channels: transaction.channels },
      idempotent: false,
      ...caller,
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
  async verifyTransaction(reference: string, caller: ProviderCaller): Promise<PaystackTransaction | undefined> {
    const answer = await this.client.request({ call: 'transaction_verify', circuit: 'verify', method: 'GET', path: `/transaction/verify/${encodeURIComponent(reference)}`, idempotent: true, ...caller });
    if (answer.status === 404 || (answer.status === 400 && /not found/i.test(messageOf(answer)))) return undefined;
    if (answer.status !== 200) throw new ProviderUnavailable('paystack', 'transaction_verify', 'error');
    const data = dataOf(answer, 'transaction_verify');
    const { id, status, reference: ref, amount, requested_amount: requested, currency, gateway_response: gatewayResponse } = data;
    if (typeof status !== 'string' || typeof ref !== 'string' || !Number.isSafeInteger(amount) || typeof currency !== 'string') throw unreadable('transaction_verify');
    return {
      id: Number.isSafeInteger(id) ? (id as number) : null,
      status,
      reference: ref,
      amountMinor: BigInt(amount as number),
      requestedAmountMinor: Number.isSafeInteger(requested) ? BigInt(requested as number) : null,
      currency,
      gatewayResponse: typeof gatewayResponse === 'string' ? gatewayResponse : '',
    };
  }

  /**
   * GET /bank (https://paystack.com/docs/api/miscellaneous/#bank): one page
   * of Nigeria's banks, by cursor (`use_cursor`, `next`), each with its
   * `id` (the `bank_id` a refund retry takes) and its `code`.
   */
  async listBanks(cursor: string | null, caller: ProviderCaller): Promise<{ banks: { id: number; code: string }[]; next: string | null }> {
    const query: Record<string, string> = { country: 'nigeria', currency: 'NGN', use_cursor: 'true', perPage: String(BANKS_PER_PAGE) };
    if (cursor !== null) query.next = cursor;
    const answer = await this.client.request({ call: 'bank_list', circuit: 'bank_list', method: 'GET', path: '/bank', query, idempotent: true, ...caller });
    if (answer.status !== 200) throw unreadable('bank_list');
    const { items, meta } = listOf(answer, 'bank_list');
    const banks = items.map((item) => {
      if (!Number.isSafeInteger(item.id) || typeof item.code !== 'string') throw unreadable('bank_list');
      return { id: item.id as number, code: item.code };
    });
    return { banks, next: typeof meta.next === 'string' && meta.next !== '' ? meta.next : null };
  }

  /**
   * GET /refund (the refunds guide, https://paystack.com/docs/payments/refunds/):
   * one page of the refunds of a transaction, by its id. Paystack's OpenAPI
   * description names only `perPage`, `page`, `from` and `to`; the
   * `transaction` filter is from its SDKs' descriptions, so the caller also
   * matches each refund itself and reads every page. Any answer but 200 is
   * no answer.
   */
  async listRefunds(query: { transactionId: number; page: number; perPage: number }, caller: ProviderCaller): Promise<{ refunds: PaystackRefund[]; pageCount: number | null }> {
    const answer = await this.client.request({
      call: 'refund_list',
      circuit: 'verify',
      method: 'GET',
      path: '/refund',
      query: { transaction: String(query.transactionId), perPage: String(query.perPage), page: String(query.page) },
      idempotent: true,
      ...caller,
    });
    // A 404 is not "none": an error is never taken for an answer that a refund is absent, which would send it again.
    if (answer.status !== 200) throw unreadable('refund_list');
    const { items, meta } = listOf(answer, 'refund_list');
    return { refunds: items.map((item) => refundOf(item, 'refund_list')), pageCount: Number.isSafeInteger(meta.pageCount) ? (meta.pageCount as number) : null };
  }

  /**
   * One page of a List call over a time range: GET /transaction, /transfer,
   * /refund or /settlement (https://paystack.com/docs/api/transaction/#list and
   * the same section of each), with `from`, `to`, `perPage` and `page`, or a
   * cursor (`use_cursor`, `next`; https://paystack.com/docs/api/#pagination)
   * when an earlier page gave one. Its `meta` says what follows: `pageCount`
   * (offset paging) or `next` (a cursor, null on the last page). Any answer
   * but 200 is no answer.
   */
  async listPage(
    list: { path: '/transaction' | '/transfer' | '/refund' | '/settlement'; from: Date; to: Date; perPage: number; page: number; cursor: string | null },
    caller: ProviderCaller & { timeoutMs: number },
  ): Promise<{ items: Record<string, unknown>[]; pageCount: number | null; next: string | null | undefined }> {
    const call = `${list.path.slice(1)}_list_range`;
    const query: Record<string, string> = { from: list.from.toISOString(), to: list.to.toISOString(), perPage: String(list.perPage) };
    if (list.cursor === null) query.page = String(list.page);
    else Object.assign(query, { use_cursor: 'true', next: list.cursor });
    const answer = await this.client.request({ call, circuit: 'records', method: 'GET', path: list.path, query, idempotent: true, ...caller });
    if (answer.status !== 200) throw unreadable(call);
    const { items, meta } = listOf(answer, call);
    // `next`: undefined when the meta has none (offset paging), null on a cursor's last page.
    const next = typeof meta.next === 'string' && meta.next !== '' && meta.next !== 'null' ? meta.next : 'next' in meta ? null : undefined;
    return { items, pageCount: Number.isSafeInteger(meta.pageCount) ? (meta.pageCount as number) : null, next };
  }

  /** GET /refund/:id: the refund Paystack made under `id`. Any answer but 200 is no answer. */
  async fetchRefund(id: number, caller: ProviderCaller): Promise<PaystackRefund> {
    const answer = await this.client.request({ call: 'refund_fetch', circuit: 'verify', method: 'GET', path: `/refund/${id}`, idempotent: true, ...caller });
    if (answer.status !== 200) throw unreadable('refund_fetch');
    return refundOf(dataOf(answer, 'refund_fetch'), 'refund_fetch');
  }

  /**
   * POST /refund: a refund of the transaction of `reference`, of `amountMinor`
   * in kobo. Paystack takes no idempotency key for it: the caller finds a
   * refund it already made by the reference it carries in `merchant_note`
   * before it makes another. Never retried here.
   */
  async createRefund(
    refund: { transactionReference: string; amountMinor: bigint; currency: string; merchantNote: string; customerNote: string | null },
    caller: ProviderCaller,
  ): Promise<{ accepted: true; refund: PaystackRefund } | ({ accepted: false } & Refusal)> {
    const body: Record<string, unknown> = { transaction: refund.transactionReference, amount: Number(refund.amountMinor), currency: refund.currency, merchant_note: refund.merchantNote };
    if (refund.customerNote !== null) body.customer_note = refund.customerNote;
    const answer = await this.client.request({ call: 'refund_create', circuit: 'refund', method: 'POST', path: '/refund', body, idempotent: false, ...caller });
    if (answer.status === 200 || answer.status === 201) return { accepted: true, refund: refundOf(dataOf(answer, 'refund_create'), 'refund_create') };
    return { accepted: false, ...refusalOf(answer) };
  }

  /**
   * POST /refund/retry_with_customer_details/:id: sends a refund in
   * `needs-attention` to the customer's bank account. 422 "Invalid Refund
   * state" for a refund in any other state, so a second send moves nothing
   * twice. Never retried here.
   */
  async retryRefund(id: number, account: { currency: string; accountNumber: string; bankId: number }, caller: ProviderCaller): Promise<{ accepted: true; refund: PaystackRefund } | ({ accepted: false } & Refusal)> {
    const answer = await this.client.request({
      call: 'refund_retry',
      circuit: 'refund',
      method: 'POST',
      path: `/refund/retry_with_customer_details/${id}`,
      body: { refund_account_details: { currency: account.currency, account_number: account.accountNumber, bank_id: String(account.bankId) } },
      idempotent: false,
      ...caller,
    });
    if (answer.status === 200) return { accepted: true, refund: refundOf(dataOf(answer, 'refund_retry'), 'refund_retry') };
    return { accepted: false, ...refusalOf(answer) };
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
  /** Paystack's own id of the transaction, which its refunds name; null when the answer has none. */
  id: number | null;
  status: string;
  reference: string;
  /** `amount`: what the customer was charged, Paystack's fee included when the account passes charges to customers. */
  amountMinor: bigint;
  /** `requested_amount`: what the transaction was initialized for; null when the answer has none. */
  requestedAmountMinor: bigint | null;
  currency: string;
  /** The processor's words on the charge: "Approved", "Declined", "Insufficient Funds". */
  gatewayResponse: string;
}

/** Banks asked for per page of List Banks. */
const BANKS_PER_PAGE = 100;

/**
 * A refund as Paystack reports it. Its `transaction` is the transaction's id
 * in list and fetch answers, and the transaction itself in a create answer.
 */
export interface PaystackRefund {
  id: number;
  status: string;
  amountMinor: bigint;
  currency: string;
  transactionId: number | null;
  transactionReference: string | null;
  /** Where our reference is carried; Paystack writes one of its own when none is sent. */
  merchantNote: string;
}

function refundOf(data: Record<string, unknown>, call: string): PaystackRefund {
  const { id, status, amount, currency, transaction } = data;
  const minor = Number.isSafeInteger(amount) ? BigInt(amount as number) : typeof amount === 'string' && /^[0-9]{1,15}$/.test(amount) ? BigInt(amount) : undefined;
  if (!Number.isSafeInteger(id) || typeof status !== 'string' || minor === undefined || typeof currency !== 'string') throw unreadable(call);
  const embedded = typeof transaction === 'object' && transaction !== null ? (transaction as Record<string, unknown>) : undefined;
  const transactionId = Number.isSafeInteger(transaction) ? (transaction as number) : Number.isSafeInteger(embedded?.id) ? (embedded?.id as number) : null;
  const reference = typeof data.transaction_reference === 'string' ? data.transaction_reference : typeof embedded?.reference === 'string' ? embedded.reference : null;
  return { id: id as number, status, amountMinor: minor, currency, transactionId, transactionReference: reference, merchantNote: typeof data.merchant_note === 'string' ? data.merchant_note : '' };
}

/** The items and `meta` of a list answer; an answer of another shape is no answer. */
function listOf(answer: ProviderAnswer, call: string): { items: Record<string, unknown>[]; meta: Record<string, unknown> } {
  const body = answer.body as { status?: unknown; data?: unknown; meta?: unknown } | null;
  if (typeof body !== 'object' || body === null || body.status !== true || !Array.isArray(body.data)) throw unreadable(call);
  const items = body.data.map((item: unknown) => {
    if (typeof item !== 'object' || item === null) throw unreadable(call);
    return item as Record<string, unknown>;
  });
  // List Banks carries its cursor in `meta`; List Refunds its page count.
  const meta = typeof body.meta === 'object' && body.meta !== null ? (body.meta as Record<string, unknown>) : {};
  return { items, meta };
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
