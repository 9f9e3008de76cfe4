import type { CreateRefundRequest, EventDeliveryLog, Refund, SetRefundAccountRequest, SimulateRefundRequest, paths } from '@paysign/contracts';
import type { Client } from 'openapi-fetch';
import { expectData } from './expect-data';
import { AutoPaginatingList } from './pagination';

export type ListRefundsParams = NonNullable<paths['/payment/api/refunds']['get']['parameters']['query']>;

/** The namespace `client.refunds`. */
export type RefundsApi = ReturnType<typeof refundsOf>;

/** Money back to the customer of a successful payin, whole or in part, through the provider that took the payment (docs/refunds.md). */
export function refundsOf(http: Client<paths>) {
  return {
    /**
     * Refunds a SUCCESSFUL payin: `amount` of it, or, left out, everything not
     * yet refunded or in flight. The refund is created PENDING with its amount
     * held, and is SUCCESSFUL only when the provider says so. Safe to retry: the
     * `reference` is the idempotency key, so the same reference and body again
     * return the refund as it is now (`idempotentReplayed: true`), never a
     * second one. Never create another refund because the first is slow: a
     * PROCESSING refund may already be paid back.
     * @throws {ValidationError} with code REFUND_EXCEEDS_PAYIN (`details` gives the payin's amount, what is refunded or in flight, and what is left), REFUND_WINDOW_CLOSED, INSUFFICIENT_BALANCE, REFUND_PROVIDER_NOT_CONFIGURED or WEBHOOK_NOT_CONFIGURED; nothing was held. VALIDATION_FAILED lists every invalid field in `details`.
     * @throws {ConflictError} with code PAYIN_NOT_REFUNDABLE when the payin is not SUCCESSFUL or is flagged `needsAttention` (`message` says which), or IDEMPOTENCY_CONFLICT when the reference was used with a different body.
     * @throws {NotFoundError} with code PAYIN_NOT_FOUND when you have no payin with `payinReference`.
     * @throws {PermissionError} with code ROLE_REQUIRED when the credential lacks the `refunds:create` role.
     * @throws {AuthenticationError | RateLimitError | ServiceUnavailableError | ConnectionError | TimeoutError} as every method.
     */
    create: async (input: CreateRefundRequest): Promise<Refund & { idempotentReplayed: boolean }> => {
      const result = await http.POST('/payment/api/refunds', { body: input });
      const refund = expectData(result);
      return { ...refund, idempotentReplayed: result.response.headers.get('idempotent-replayed') === 'true' };
    },

    /**
     * Reads back one of your refunds by its reference.
     * @throws {NotFoundError} with code REFUND_NOT_FOUND when you have no refund with this reference.
     * @throws {AuthenticationError | RateLimitError | ServiceUnavailableError | ConnectionError | TimeoutError} as every method.
     */
    get: async (reference: string): Promise<Refund> => expectData(await http.GET('/payment/api/refunds/{reference}', { params: { path: { reference } } })),

    /**
     * Lists your refunds, newest first: `await` it for one page (from `cursor`,
     * when given: a page's `nextCursor`, with the same filters), or
     * `for await` it for every refund across pages. `payinReference` gives the
     * refunds of one payin.
     * @throws {ValidationError} for a filter outside the contract, listing each in `details`.
     * @throws {AuthenticationError | RateLimitError | ServiceUnavailableError | ConnectionError | TimeoutError} as every method.
     */
    list: (filters: ListRefundsParams = {}): AutoPaginatingList<Refund> => {
      const { cursor: first, ...rest } = filters;
      return new AutoPaginatingList<Refund>(async (cursor) => {
        const from = cursor ?? first;
        return expectData(await http.GET('/payment/api/refunds', { params: { query: { ...rest, ...(from ? { cursor: from } : {}) } } }));
      });
    },

    /**
     * Cancels a PENDING refund, not yet sent to the provider, releasing its hold.
     * @throws {ConflictError} with code REFUND_NOT_CANCELLABLE once it is sent (PROCESSING and after) or final: read it for its outcome.
     * @throws {NotFoundError} with code REFUND_NOT_FOUND when you have no refund with this reference.
     * @throws {PermissionError} with code ROLE_REQUIRED when the credential lacks the `refunds:create` role.
     * @throws {AuthenticationError | RateLimitError | ServiceUnavailableError | ConnectionError | TimeoutError} as every method.
     */
    cancel: async (reference: string): Promise<Refund> => expectData(await http.POST('/payment/api/refunds/{reference}/cancel', { params: { path: { reference } }, body: {} })),

    /**
     * Gives the customer's bank account to a REQUIRES_ACTION refund, one the
     * provider cannot return the way the customer paid: `enquiryId` is an
     * unexpired account enquiry of yours (`accounts.enquire`), as for a payout.
     * The refund is PROCESSING again, sent to that account.
     * @throws {ConflictError} with code REFUND_NOT_AWAITING_ACCOUNT when the refund is not REQUIRES_ACTION.
     * @throws {ValidationError} with code ENQUIRY_NOT_FOUND or ENQUIRY_EXPIRED: enquire the account again.
     * @throws {NotFoundError} with code REFUND_NOT_FOUND when you have no refund with this reference.
     * @throws {PermissionError} with code ROLE_REQUIRED when the credential lacks the `refunds:create` role.
     * @throws {AuthenticationError | RateLimitError | ServiceUnavailableError | ConnectionError | TimeoutError} as every method.
     */
    setAccount: async (reference: string, input: SetRefundAccountRequest): Promise<Refund> =>
      expectData(await http.POST('/payment/api/refunds/{reference}/account', { params: { path: { reference } }, body: input })),

    /**
     * Sandbox only: answers for the provider, as its answers would move the
     * refund: `successful`, `failed` (with an optional `reason`) or
     * `requires_action`, for a PENDING refund (sent first) or a PROCESSING one.
     * In production the service answers 404.
     * @throws {ConflictError} with code REFUND_TRANSITION_NOT_ALLOWED for any other move.
     * @throws {NotFoundError} when you have no refund with this reference, or the service runs in production mode.
     * @throws {AuthenticationError | RateLimitError | ServiceUnavailableError | ConnectionError | TimeoutError} as every method.
     */
    simulate: async (reference: string, input: SimulateRefundRequest): Promise<Refund> =>
      expectData(await http.POST('/payment/api/refunds/{reference}/simulate', { params: { path: { reference } }, body: input })),

    /**
     * The refund's webhook events, oldest first, each with every delivery attempt.
     * @throws {NotFoundError} with code REFUND_NOT_FOUND when you have no refund with this reference.
     * @throws {AuthenticationError | RateLimitError | ServiceUnavailableError | ConnectionError | TimeoutError} as every method.
     */
    events: async (reference: string): Promise<EventDeliveryLog[]> =>
      expectData(await http.GET('/payment/api/refunds/{reference}/events', { params: { path: { reference } } })).data,
  };
}
