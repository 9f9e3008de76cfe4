import { randomUUID } from 'node:crypto';
import type {
  AccountEnquiryResult,
  Balance,
  BalanceEntry,
  Bank,
  CreatePayinRequest,
  CreatePayoutBatchRequest,
  CreatePayoutRequest,
  EventDeliveryLog,
  Payin,
  Payout,
  PayoutBatch,
  SimulatePayinRequest,
  SimulatePayoutRequest,
  SubmitPayoutBatchRequest,
  paths,
} from '@paysign/contracts';
import { createBatchWithItems, type CreateBatchWithItemsInput, type CreateBatchWithItemsResult } from './batch-builder';
import createClient, { type Client } from 'openapi-fetch';
import { DEFAULTS, type PaymentClientOptions } from './client-options';
import { expectData } from './expect-data';
import { AutoPaginatingList } from './pagination';
import { exportReport, type ExportReportInput, type ExportReportResult } from './report-export';
import { SignedTransport } from './signed-transport';
import { SDK_VERSION } from './version';
import { refundsOf, type RefundsApi } from './refunds';
import { settlementsOf, type SettlementsApi } from './settlements';
import { webhookEndpointsOf, type WebhookEndpointsApi } from './webhook-endpoints';

export type { CreateWebhookEndpointInput, UpdateWebhookEndpointInput, WebhookEventsInput } from './webhook-endpoints';

/** The filters of a payin listing: `status`, `createdFrom`, `createdTo` (RFC 3339), `limit` (1 to 100), and the `cursor` of the page to start from. */
export type ListPayinsParams = NonNullable<paths['/payment/api/payins']['get']['parameters']['query']>;
export type ListPayoutsParams = NonNullable<paths['/payment/api/payouts']['get']['parameters']['query']>;
export type ListPayoutBatchesParams = NonNullable<paths['/payment/api/payout-batches']['get']['parameters']['query']>;
/** The filters of a refund listing: `status`, `payinReference`, `createdFrom`, `createdTo` (RFC 3339), `limit` (1 to 100), and the `cursor` of the page to start from. */
export type { ListRefundsParams } from './refunds';
export type ListBalanceEntriesParams = NonNullable<paths['/payment/api/balance/entries']['get']['parameters']['query']>;

/**
 * The merchant client of the payment service, one namespace per resource
 * (`banks`, `accounts`, `payins`, `payouts`, `payoutBatches`, `refunds`, `balance`, `reports`, `events`, `webhookEndpoints`, `settlements`), as stripe-node. Every call is
 * signed; transient failures are retried with fresh signatures; failures
 * throw a `PaymentError` subclass.
 */
export class PaymentClient {
  private readonly http: Client<paths>;
  private readonly transport: SignedTransport;
  private readonly baseUrl: string;
  private readonly sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

  /**
   * The URLs your webhooks go to, each receiving the event types it enables,
   * signed with secrets of its own (the API reference, `Webhook endpoints`).
   * Every method needs a credential with the `webhooks:manage` role.
   */
  readonly webhookEndpoints: WebhookEndpointsApi;

  /** Your settlements to your own bank account, their account and schedule (docs/settlements.md). */
  readonly settlements: SettlementsApi;

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
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.http = createClient<paths>({ baseUrl: this.baseUrl, fetch: this.transport.fetch });
    this.webhookEndpoints = webhookEndpointsOf(this.http, this.transport);
    this.settlements = settlementsOf(this.http, this.transport);
    this.refunds = refundsOf(this.http);
  }

  /** Server time minus local time in seconds, as learned from clock-skew answers. 0 until one arrives. */
  get clockOffsetSeconds(): number {
    return this.transport.clockOffsetSeconds;
  }

  /** The banks the service supports, for payouts and account enquiry. */
  readonly banks = {
    /**
     * Lists the banks supported for payouts and account enquiry.
     * @throws {AuthenticationError} when a signing check fails (wrong key or secret, clock skew).
     * @throws {RateLimitError | ServiceUnavailableError | ConnectionError | TimeoutError} after the retries.
     */
    list: async (): Promise<Bank[]> => expectData(await this.http.GET('/payment/merchant-api/banks')),
  };

  /** Account enquiry: the name behind a bank account, before you pay it. */
  readonly accounts = {
    /**
     * Resolves the account holder's name.
     * @throws {AccountEnquiryError} for a wrong check digit, an unknown or a dormant account (`code` says which).
     * @throws {ValidationError} for a bank code or account number outside the contract.
     * @throws {ServiceUnavailableError} when the bank does not answer, after the retries.
     * @throws {AuthenticationError | RateLimitError | ConnectionError | TimeoutError} as every method.
     */
    enquire: async (input: { bankCode: string; accountNumber: string }): Promise<AccountEnquiryResult> =>
      expectData(await this.http.POST('/payment/merchant-api/account/inquiry', { body: { bankCode: input.bankCode, accountNumber: input.accountNumber } })),
  };

  /** Payins: money your customers pay you through the hosted checkout. */
  readonly payins = {
    /**
     * Creates a payin. Safe to retry: the `reference` is the idempotency key, so a
     * retried create returns the original payin instead of a second one.
     * @throws {ValidationError} listing every invalid field in `details`.
     * @throws {ConflictError} when the reference was used with a different body.
     * @throws {SigningError} when the input cannot be signed (a nested value); nothing is sent.
     * @throws {AuthenticationError | RateLimitError | ServiceUnavailableError | ConnectionError | TimeoutError} as every method.
     */
    create: async (input: CreatePayinRequest): Promise<Payin & { idempotentReplayed: boolean }> => {
      const result = await this.http.POST('/payment/api/payins', { body: input });
      const payin = expectData(result);
      return { ...payin, idempotentReplayed: result.response.headers.get('idempotent-replayed') === 'true' };
    },

    /**
     * Reads back one of your payins by its reference.
     * @throws {NotFoundError} when you have no payin with this reference.
     * @throws {AuthenticationError | RateLimitError | ServiceUnavailableError | ConnectionError | TimeoutError} as every method.
     */
    get: async (reference: string): Promise<Payin> => expectData(await this.http.GET('/payment/api/payins/{reference}', { params: { path: { reference } } })),

    /**
     * Lists your payins, newest first: `await` it for one page (from `cursor`,
     * when given: a page's `nextCursor`, with the same filters), or
     * `for await` it for every payin across pages.
     * @throws {ValidationError} for a filter outside the contract, listing each in `details`.
     * @throws {AuthenticationError | RateLimitError | ServiceUnavailableError | ConnectionError | TimeoutError} as every method.
     */
    list: (filters: ListPayinsParams = {}): AutoPaginatingList<Payin> => {
      const { cursor: first, ...rest } = filters;
      return new AutoPaginatingList<Payin>(async (cursor) => {
        const from = cursor ?? first;
        return expectData(await this.http.GET('/payment/api/payins', { params: { query: { ...rest, ...(from ? { cursor: from } : {}) } } }));
      });
    },

    /**
     * Cancels one of your payins not yet paid, such as an order you can no
     * longer fill: `CANCELLED` with `failureReason` `merchant_cancelled`, and
     * its checkout link takes no payment.
     * @throws {ConflictError} with code `PAYIN_NOT_PENDING` when the payin is already final (a payment that won the race stands).
     * @throws {NotFoundError} when you have no payin with this reference.
     * @throws {AuthenticationError | RateLimitError | ServiceUnavailableError | ConnectionError | TimeoutError} as every method.
     */
    cancel: async (reference: string): Promise<Payin> => expectData(await this.http.POST('/payment/api/payins/{reference}/cancel', { params: { path: { reference } }, body: {} })),

    /**
     * Sandbox only: drives a PENDING payin to a final state, or records a
     * declined attempt (`declined`), through the same transitions as the
     * hosted checkout, for automated tests. In production the service
     * answers 404.
     * @throws {ConflictError} with code `PAYIN_NOT_PENDING` when the payin is already final.
     * @throws {NotFoundError} when you have no payin with this reference, or the service runs in production mode.
     * @throws {AuthenticationError | RateLimitError | ServiceUnavailableError | ConnectionError | TimeoutError} as every method.
     */
    simulate: async (reference: string, input: SimulatePayinRequest): Promise<Payin> =>
      expectData(await this.http.POST('/payment/api/payins/{reference}/simulate', { params: { path: { reference } }, body: input })),

    /**
     * The events of one of your payins, oldest first, each with every
     * delivery attempt: when, the status code or the network error, how long it
     * took, and when the next attempt is due.
     * @throws {NotFoundError} when you have no payin with this reference.
     */
    events: async (reference: string): Promise<EventDeliveryLog[]> =>
      expectData(await this.http.GET('/payment/api/payins/{reference}/events', { params: { path: { reference } } })).data,
  };

  /** Money out to bank accounts, each bound to an account enquiry (docs/payouts.md). */
  readonly payouts = {
    /**
     * Creates a payout, or returns the one with this reference as it is now
     * (`idempotentReplayed: true`). Never create a second payout because the
     * first is slow: a PROCESSING payout may already be paid.
     * @throws {ValidationError} with code INSUFFICIENT_BALANCE, ENQUIRY_EXPIRED, ENQUIRY_NOT_FOUND, PAYOUT_LIMIT_EXCEEDED or ACCOUNT_NAME_MISMATCH; nothing was held.
     */
    create: async (input: CreatePayoutRequest): Promise<Payout & { idempotentReplayed: boolean }> => {
      const result = await this.http.POST('/payment/api/payouts', { body: input });
      const payout = expectData(result);
      return { ...payout, idempotentReplayed: result.response.headers.get('idempotent-replayed') === 'true' };
    },

    get: async (reference: string): Promise<Payout> => expectData(await this.http.GET('/payment/api/payouts/{reference}', { params: { path: { reference } } })),

    /** Your payouts, newest first: `await` it for a page, or `for await` every payout across pages. */
    list: (filters: ListPayoutsParams = {}): AutoPaginatingList<Payout> => {
      const { cursor: first, ...rest } = filters;
      return new AutoPaginatingList<Payout>(async (cursor) => {
        const from = cursor ?? first;
        return expectData(await this.http.GET('/payment/api/payouts', { params: { query: { ...rest, ...(from ? { cursor: from } : {}) } } }));
      });
    },

    /** Cancels a QUEUED or PENDING_APPROVAL payout, releasing its hold. @throws {ConflictError} PAYOUT_NOT_CANCELLABLE once it is being sent. */
    cancel: async (reference: string): Promise<Payout> => expectData(await this.http.POST('/payment/api/payouts/{reference}/cancel', { params: { path: { reference } }, body: {} })),

    /**
     * Approves a PENDING_APPROVAL payout: it becomes QUEUED and is sent. Sign
     * with a credential that holds `payouts:approve` and did not create it.
     * @throws {PermissionError} APPROVER_REQUIRED otherwise.
     * @throws {ConflictError} PAYOUT_NOT_AWAITING_APPROVAL, or PAYOUT_IN_BATCH for a batch's payout (submit the batch).
     */
    approve: async (reference: string): Promise<Payout> => expectData(await this.http.POST('/payment/api/payouts/{reference}/approve', { params: { path: { reference } }, body: {} })),

    /** Rejects a PENDING_APPROVAL payout: it is cancelled and its hold released, with your reason. Needs `payouts:approve`. */
    reject: async (reference: string, reason?: string): Promise<Payout> =>
      expectData(await this.http.POST('/payment/api/payouts/{reference}/reject', { params: { path: { reference } }, body: reason === undefined ? {} : { reason } })),

    /** Asks the provider for a PROCESSING payout's status now. @throws {RateLimitError} when asked again within a minute. */
    requery: async (reference: string): Promise<Payout> => expectData(await this.http.POST('/payment/api/payouts/{reference}/requery', { params: { path: { reference } }, body: {} })),

    /** Sandbox only: answers for the provider, as its answers would move the payout. */
    simulate: async (reference: string, input: SimulatePayoutRequest): Promise<Payout> =>
      expectData(await this.http.POST('/payment/api/payouts/{reference}/simulate', { params: { path: { reference } }, body: input })),

    /** The payout's webhook events, oldest first, each with every delivery attempt. */
    events: async (reference: string): Promise<EventDeliveryLog[]> =>
      expectData(await this.http.GET('/payment/api/payouts/{reference}/events', { params: { path: { reference } } })).data,
  };

  /** Payouts sent together, such as a payroll: payouts join with `batchReference`, and the batch is submitted as a whole (docs/payouts.md). */
  readonly payoutBatches = {
    /** Opens a batch, or returns the one with this reference as it is now (`idempotentReplayed: true`). */
    create: async (input: CreatePayoutBatchRequest): Promise<PayoutBatch & { idempotentReplayed: boolean }> => {
      const result = await this.http.POST('/payment/api/payout-batches', { body: input });
      return { ...expectData(result), idempotentReplayed: result.response.headers.get('idempotent-replayed') === 'true' };
    },

    /** Your batches, newest first, each with its totals: `await` it for a page, or `for await` every batch across pages. */
    list: (filters: ListPayoutBatchesParams = {}): AutoPaginatingList<PayoutBatch> => {
      const { cursor: first, ...rest } = filters;
      return new AutoPaginatingList<PayoutBatch>(async (cursor) => {
        const from = cursor ?? first;
        return expectData(await this.http.GET('/payment/api/payout-batches', { params: { query: { ...rest, ...(from ? { cursor: from } : {}) } } }));
      });
    },

    /** The batch, with the count and total of its payouts in each status; `payouts.list({ batchReference })` lists them. */
    get: async (reference: string): Promise<PayoutBatch> => expectData(await this.http.GET('/payment/api/payout-batches/{reference}', { params: { path: { reference } } })),

    /**
     * Submits an OPEN batch holding exactly the count and total you expect; its payouts are then sent.
     * @throws {ConflictError} PAYOUT_BATCH_MISMATCH (with both counts and totals) or PAYOUT_BATCH_NOT_OPEN.
     * @throws {PermissionError} APPROVER_REQUIRED when a payout in it needs approval and this credential may not give it.
     */
    submit: async (reference: string, input: SubmitPayoutBatchRequest): Promise<PayoutBatch> =>
      expectData(await this.http.POST('/payment/api/payout-batches/{reference}/submit', { params: { path: { reference } }, body: input })),

    /** Cancels an OPEN batch and every payout in it, releasing their holds. */
    cancel: async (reference: string): Promise<PayoutBatch> => expectData(await this.http.POST('/payment/api/payout-batches/{reference}/cancel', { params: { path: { reference } }, body: {} })),

    /**
     * Opens a batch, adds every item (`concurrency` at once, each retried on a
     * retryable failure), and, with `submit: true` and no item failed, submits
     * it with their count and total. Safe to run again with the same input
     * after a crash: the batch and every payout are idempotent by reference.
     */
    createWithItems: (input: CreateBatchWithItemsInput): Promise<CreateBatchWithItemsResult> =>
      createBatchWithItems(
        {
          createBatch: (batch) => this.payoutBatches.create(batch),
          createPayout: (payout) => this.payouts.create(payout),
          submitBatch: (reference, expected) => this.payoutBatches.submit(reference, expected),
          getBatch: (reference) => this.payoutBatches.get(reference),
        },
        input,
      ),
  };

  /** Money back to the customer of a successful payin, whole or in part, through the provider that took the payment (docs/refunds.md). */
  readonly refunds: RefundsApi;

  /** The merchant's money, from its ledger: what successful payins credited, net of fees, and what settled. */
  readonly balance = {
    /** The balance in one currency (NGN when none is given): `available`, `pending` and `held`, in naira. */
    get: async (currency?: Balance['currency']): Promise<Balance> => expectData(await this.http.GET('/payment/api/balance', { params: { query: currency ? { currency } : {} } })),

    /** The ledger's entries, newest first: `await` it for a page, or `for await` every entry across pages. */
    entries: (filters: ListBalanceEntriesParams = {}): AutoPaginatingList<BalanceEntry> => {
      const { cursor: first, ...rest } = filters;
      return new AutoPaginatingList<BalanceEntry>(async (cursor) => {
        const from = cursor ?? first;
        return expectData(await this.http.GET('/payment/api/balance/entries', { params: { query: { ...rest, ...(from ? { cursor: from } : {}) } } }));
      });
    },
  };

  /** CSV reports of a window of time (docs/reports.md). */
  readonly reports = {
    /**
     * Downloads a report to `write`, as `paysign export` does: every record
     * once, the header row once, resuming a cut transfer after the last
     * complete record with the report's `after` cursor.
     * @throws {ValidationError} for a window or filter the report refuses, listing each in `details`.
     * @throws {ReportExportError} after `retries` tries in a row that brought no new record.
     * @throws {AuthenticationError | RateLimitError | ServiceUnavailableError} as every method.
     */
    export: (input: ExportReportInput): Promise<ExportReportResult> =>
      exportReport((path) => this.transport.fetch(new Request(`${this.baseUrl}${path}`)), input, this.sleep),
  };

  /** The events the service sends your webhook endpoint. */
  readonly events = {
    /**
     * Schedules one more delivery of an event now, with the same webhook-id and body.
     * @throws {NotFoundError} with code `EVENT_NOT_FOUND` when you have no event with this id.
     */
    redeliver: async (eventId: string): Promise<EventDeliveryLog> =>
      expectData(await this.http.POST('/payment/api/events/{eventId}/redeliver', { params: { path: { eventId } }, body: {} })),
  };
}
