import { randomUUID } from 'node:crypto';
import type { AccountEnquiryResult, Bank, CreatePayinRequest, Payin, paths } from '@paysign/contracts';
import createClient, { type Client } from 'openapi-fetch';
import { DEFAULTS, type PaymentClientOptions } from './client-options';
import { ApiError } from './errors';
import { SignedTransport } from './signed-transport';
import { SDK_VERSION } from './version';

/**
 * The merchant client of the payment service. Every call is signed; transient
 * failures are retried with fresh signatures; failures throw a `PaymentError`
 * subclass.
 */
export class PaymentClient {
  private readonly http: Client<paths>;
  private readonly transport: SignedTransport;

  constructor(options: PaymentClientOptions) {
    for (const field of ['baseUrl', 'apiKey', 'secretKey', 'merchantId', 'tenantId'] as const) {
      if (typeof options[field] !== 'string' || options[field] === '') throw new TypeError(`PaymentClient: options.${field} is required.`);
    }
    const userAgent = `paysign-sdk/${SDK_VERSION} node/${process.versions.node}${options.userAgent ? ` ${options.userAgent}` : ''}`;
    this.transport = new SignedTransport({
      apiKey: options.apiKey,
      secretKey: options.secretKey,
      merchantId: options.merchantId,
      tenantId: options.tenantId,
      timeoutMs: options.timeoutMs ?? DEFAULTS.timeoutMs,
      deadlineMs: options.deadlineMs ?? DEFAULTS.deadlineMs,
      maxRetries: options.maxRetries ?? DEFAULTS.maxRetries,
      retryDelayMs: options.retryDelayMs ?? DEFAULTS.retryDelayMs,
      fetch: options.fetch ?? ((request) => globalThis.fetch(request)),
      userAgent,
      clock: options.clock ?? Date.now,
      nonce: options.nonce ?? randomUUID,
      random: Math.random,
      sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    });
    this.http = createClient<paths>({ baseUrl: options.baseUrl.replace(/\/+$/, ''), fetch: this.transport.fetch });
  }

  /** Server time minus local time in seconds, as learned from clock-skew answers. 0 until one arrives. */
  get clockOffsetSeconds(): number {
    return this.transport.clockOffsetSeconds;
  }

  /**
   * Lists the banks supported for payouts and account enquiry.
   * @throws {AuthenticationError} when a signing check fails (wrong key or secret, clock skew).
   * @throws {RateLimitError | UpstreamUnavailableError | ConnectionError | TimeoutError} after the retries.
   */
  async listBanks(): Promise<Bank[]> {
    return expectData(await this.http.GET('/payment/merchant-api/banks'));
  }

  /**
   * Resolves the account holder's name.
   * @throws {AccountEnquiryError} for a wrong check digit, an unknown or a dormant account (`code` says which).
   * @throws {ValidationError} for a bank code or account number outside the contract.
   * @throws {UpstreamUnavailableError} when the bank does not answer, after the retries.
   * @throws {AuthenticationError | RateLimitError | ConnectionError | TimeoutError} as every method.
   */
  async enquireAccount(input: { bankCode: string; accountNumber: string }): Promise<AccountEnquiryResult> {
    return expectData(await this.http.POST('/payment/merchant-api/account/inquiry', { body: { bankCode: input.bankCode, accountNumber: input.accountNumber } }));
  }

  /**
   * Creates a payin. Safe to retry: the `reference` is the idempotency key, so a
   * retried create returns the original payin instead of a second one.
   * @throws {ValidationError} listing every invalid field in `details`.
   * @throws {ConflictError} when the reference was used with a different body.
   * @throws {SigningError} when the input cannot be signed (a nested value); nothing is sent.
   * @throws {AuthenticationError | RateLimitError | UpstreamUnavailableError | ConnectionError | TimeoutError} as every method.
   */
  async createPayin(input: CreatePayinRequest): Promise<Payin & { idempotentReplayed: boolean }> {
    const result = await this.http.POST('/payment/api/payins', { body: input });
    const payin = expectData(result);
    return { ...payin, idempotentReplayed: result.response.headers.get('idempotent-replayed') === 'true' };
  }

  /**
   * Reads back one of your payins by its reference.
   * @throws {NotFoundError} when you have no payin with this reference.
   * @throws {AuthenticationError | RateLimitError | UpstreamUnavailableError | ConnectionError | TimeoutError} as every method.
   */
  async getPayin(reference: string): Promise<Payin> {
    return expectData(await this.http.GET('/payment/api/payins/{reference}', { params: { path: { reference } } }));
  }
}

function expectData<T>(result: { data?: T; response: Response }): T {
  if (result.data === undefined) {
    throw new ApiError({ code: 'UNEXPECTED_RESPONSE', message: `The service answered HTTP ${result.response.status} without a JSON body.`, status: result.response.status });
  }
  return result.data;
}
