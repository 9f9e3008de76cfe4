import { SCHEMAS } from '../generated/schemas';
import type { ErrorCode } from '../schemas';
import { DASHBOARD_ERRORS } from './dashboard-errors';
import { PROTOCOL_ERRORS } from './protocol-errors';

/**
 * What kind of failure a code is. The SDK picks its error class by type, as
 * stripe-node's `StripeError.generate()` does, so a new code of a known type
 * needs no SDK change.
 */
export type ErrorType = 'authentication' | 'permission' | 'invalid_request' | 'not_found' | 'conflict' | 'account_rejected' | 'rate_limited' | 'unavailable' | 'internal';

export interface ErrorDefinition {
  status: number;
  type: ErrorType;
  /** Whether the same request, signed afresh, may succeed later. */
  retryable: boolean;
  /**
   * The message the service answers with; `{name}` stands for a value of the
   * request. `{detail}` alone means libs/signing words the message, since it
   * knows the header, the grammar or the byte that failed.
   */
  message: string;
}

/**
 * The one registry of error codes: the protocol's (protocol-errors.ts), then
 * each resource's. `satisfies Record<ErrorCode, …>` ties it to the contract's
 * `ErrorCode` enum: a code added to openapi/payment-api.yaml without an entry
 * here fails typecheck.
 */
export const ERROR_REGISTRY = {
  ...PROTOCOL_ERRORS,
  PAYIN_NOT_FOUND: {
    status: 404,
    type: 'not_found',
    retryable: false,
    message: 'No payin with reference {reference} exists for this merchant. Check the reference you created it with.',
  },
  IDEMPOTENCY_CONFLICT: {
    status: 409,
    type: 'conflict',
    retryable: false,
    message: 'Reference {reference} was already used with a different body. Use a new reference for a new request, or resend the original body.',
  },
  PAYIN_NOT_PENDING: {
    status: 409,
    type: 'conflict',
    retryable: false,
    message: 'Payin {reference} is already {status}, a final state that does not change. Read the payin for its outcome.',
  },
  GATEWAY_NOT_CONFIGURED: {
    status: 422,
    type: 'invalid_request',
    retryable: false,
    message: 'No payment gateway adapter for {channel} is configured in this deployment; configured channels are {configured}. Create the payin with a configured gateway, or ask the operator to configure one.',
  },
  EVENT_NOT_FOUND: {
    status: 404,
    type: 'not_found',
    retryable: false,
    message: 'No event {eventId} exists for this merchant. Take the id from the events listing of the payin.',
  },
  PAYOUT_NOT_FOUND: {
    status: 404,
    type: 'not_found',
    retryable: false,
    message: 'No payout with reference {reference} exists for this merchant. Check the reference you created it with.',
  },
  PAYOUT_NOT_CANCELLABLE: {
    status: 409,
    type: 'conflict',
    retryable: false,
    message: 'Payout {reference} is {status}; only a QUEUED or PENDING_APPROVAL payout can be cancelled. Read the payout for its outcome.',
  },
  PAYOUT_TRANSITION_NOT_ALLOWED: {
    status: 409,
    type: 'conflict',
    retryable: false,
    message: 'Payout {reference} is {status} and cannot become {to}. Read the payout for its state.',
  },
  ROLE_REQUIRED: {
    status: 403,
    type: 'permission',
    retryable: false,
    message: 'API key {apiKey} lacks the {role} role, which this operation needs. Sign with a credential that holds it, or ask the operator to grant it (merchants roll-key, or merchants add --roles).',
  },
  APPROVER_REQUIRED: {
    status: 403,
    type: 'permission',
    retryable: false,
    message: 'API key {apiKey} cannot {action} {subject}: {why} Sign the request with another credential that holds the payouts:approve role.',
  },
  PAYOUT_NOT_AWAITING_APPROVAL: {
    status: 409,
    type: 'conflict',
    retryable: false,
    message: 'Payout {reference} is {status}; only a PENDING_APPROVAL payout can be approved or rejected. Read the payout for its state.',
  },
  PAYOUT_IN_BATCH: {
    status: 409,
    type: 'conflict',
    retryable: false,
    message: 'Payout {reference} belongs to batch {batchReference}: it is submitted, approved and cancelled with its batch, not on its own.',
  },
  PAYOUT_BATCH_NOT_FOUND: {
    status: 404,
    type: 'not_found',
    retryable: false,
    message: 'No payout batch with reference {reference} exists for this merchant. Create it with POST /payment/api/payout-batches first.',
  },
  PAYOUT_BATCH_NOT_OPEN: {
    status: 409,
    type: 'conflict',
    retryable: false,
    message: 'Payout batch {reference} is {status}; payouts join, and a batch is submitted or cancelled, only while it is OPEN. Read the batch for its state.',
  },
  PAYOUT_BATCH_MISMATCH: {
    status: 409,
    type: 'conflict',
    retryable: false,
    message: 'Payout batch {reference} holds {count} payouts totalling NGN {total}; you expected {expectedCount} totalling NGN {expectedTotal}. Find the missing or extra payout (GET /payment/api/payouts?batchReference={reference}), then submit again.',
  },
  INSUFFICIENT_BALANCE: {
    status: 422,
    type: 'invalid_request',
    retryable: false,
    message: 'The {subject} needs {currency} {needed}{breakdown}, and {balances}. {advice}',
  },
  ENQUIRY_NOT_FOUND: {
    status: 422,
    type: 'invalid_request',
    retryable: false,
    message: 'No account enquiry {enquiryId} exists for this merchant. Enquire the account with POST /payment/merchant-api/account/inquiry, then send the enquiryId it returns.',
  },
  ENQUIRY_EXPIRED: {
    status: 422,
    type: 'invalid_request',
    retryable: false,
    message: 'Account enquiry {enquiryId} expired at {expiresAt}. Enquire the account again, and send the new enquiryId.',
  },
  PAYOUT_LIMIT_EXCEEDED: {
    status: 422,
    type: 'invalid_request',
    retryable: false,
    message: 'A payout of NGN {amount} is {limit}; nothing was held. Pay out an amount within the limits, or ask the operator about them.',
  },
  ACCOUNT_NAME_MISMATCH: {
    status: 422,
    type: 'invalid_request',
    retryable: false,
    message: 'The account is named {accountName}, which does not match expectedAccountName {expectedAccountName}. Check the beneficiary before paying; nothing was held.',
  },
  PAYOUT_PROVIDER_NOT_CONFIGURED: {
    status: 422,
    type: 'invalid_request',
    retryable: false,
    message: 'This deployment has no payout provider, so no payout can be sent; nothing was held. Ask the operator, or use a sandbox deployment to test payouts.',
  },
  REFUND_NOT_FOUND: {
    status: 404,
    type: 'not_found',
    retryable: false,
    message: 'No refund with reference {reference} exists for this merchant. Check the reference you created it with.',
  },
  PAYIN_NOT_REFUNDABLE: {
    status: 409,
    type: 'conflict',
    retryable: false,
    message: 'Payin {reference} {why}',
  },
  REFUND_EXCEEDS_PAYIN: {
    status: 422,
    type: 'invalid_request',
    retryable: false,
    message: 'The refund of {currency} {amount} is more than payin {reference} has left to refund. It was {currency} {payinAmount}, of which {currency} {taken} is refunded or being refunded, so at most {currency} {left} can be refunded; nothing was held.',
  },
  REFUND_WINDOW_CLOSED: {
    status: 422,
    type: 'invalid_request',
    retryable: false,
    message: 'Payin {reference} was paid at {paidAt}, more than {days} days ago (REFUND_WINDOW_DAYS), so it can no longer be refunded here; nothing was held. Refund the customer another way, such as a payout to their account.',
  },
  REFUND_NOT_CANCELLABLE: {
    status: 409,
    type: 'conflict',
    retryable: false,
    message: 'Refund {reference} is {status}; only a PENDING refund, not yet sent to the provider, can be cancelled. Read the refund for its outcome.',
  },
  REFUND_NOT_AWAITING_ACCOUNT: {
    status: 409,
    type: 'conflict',
    retryable: false,
    message: 'Refund {reference} is {status}; a bank account is given only for a refund in REQUIRES_ACTION. Read the refund for its state.',
  },
  REFUND_TRANSITION_NOT_ALLOWED: {
    status: 409,
    type: 'conflict',
    retryable: false,
    message: 'Refund {reference} is {status} and cannot become {to}. Read the refund for its state.',
  },
  REFUND_PROVIDER_NOT_CONFIGURED: {
    status: 422,
    type: 'invalid_request',
    retryable: false,
    message: 'Payin {reference} was taken by provider {provider}, which cannot refund in this deployment; nothing was held. Ask the operator to configure it, or refund the customer another way.',
  },
  SETTLEMENT_NOT_FOUND: {
    status: 404,
    type: 'not_found',
    retryable: false,
    message: 'No settlement with id {id} exists for this merchant. List the settlements for their ids.',
  },
  SETTLEMENT_ACCOUNT_NOT_SET: {
    status: 409,
    type: 'conflict',
    retryable: false,
    message: 'No settlement account is in force, so nothing can be settled. Name one with PUT /payment/api/settlement-account, from an account enquiry of your own account.',
  },
  SETTLEMENTS_PAUSED: {
    status: 409,
    type: 'conflict',
    retryable: false,
    message: 'Settlements are paused since settlement {id} failed ({reason}). Name a working settlement account (PUT /payment/api/settlement-account), or set the schedule again (PUT /payment/api/settlement-schedule) if the account is right.',
  },
  NOTHING_TO_SETTLE: {
    status: 422,
    type: 'invalid_request',
    retryable: false,
    message: 'The available {currency} balance is {available}, below the {minimum} a settlement pays out at least. Wait for more to settle from pending; a retry of a settlement that was made finds nothing left, so list the settlements for it.',
  },
  SETTLEMENT_ACCOUNT_CHANGE_NOT_PENDING: {
    status: 409,
    type: 'conflict',
    retryable: false,
    message: 'No change of settlement account is waiting, so there is nothing to cancel. Read GET /payment/api/settlement-account for the account in force.',
  },
  SETTLEMENTS_NOT_ENABLED: {
    status: 422,
    type: 'invalid_request',
    retryable: false,
    message: 'This deployment does not settle balances to bank accounts yet (SETTLEMENTS_ENABLED is off); nothing was held. Ask the operator; your settlement account and schedule are kept meanwhile.',
  },
  ...DASHBOARD_ERRORS,
  WEBHOOK_NOT_CONFIGURED: {
    status: 422,
    type: 'invalid_request',
    retryable: false,
    message: 'notifyUrl was given, but merchant {merchantId} has no enabled webhook endpoint whose secret could sign notifications. Create one with POST /payment/api/webhook-endpoints, or leave notifyUrl out.',
  },
  WEBHOOK_ENDPOINT_NOT_FOUND: {
    status: 404,
    type: 'not_found',
    retryable: false,
    message: 'No webhook endpoint {id} exists for this merchant. List them with GET /payment/api/webhook-endpoints.',
  },
  WEBHOOK_ENDPOINTS_LIMIT_REACHED: {
    status: 409,
    type: 'conflict',
    retryable: false,
    message: 'Merchant {merchantId} already has {limit} webhook endpoints, the most it may hold. Delete one it no longer uses, or add events to an existing one.',
  },
  NUBAN_CHECK_FAILED: {
    status: 422,
    type: 'account_rejected',
    retryable: false,
    message: '{accountNumber} is not a valid NUBAN for bank {bankCode}: its check digit is wrong. Check the number with the beneficiary; the bank was not asked.',
  },
  ACCOUNT_NOT_FOUND: {
    status: 422,
    type: 'account_rejected',
    retryable: false,
    message: 'No account {accountNumber} exists at bank {bankCode}. Check the account number with the beneficiary.',
  },
  ACCOUNT_DORMANT: {
    status: 422,
    type: 'account_rejected',
    retryable: false,
    message: 'Account {accountNumber} at bank {bankCode} is dormant and cannot receive payouts. Ask the beneficiary for another account.',
  },
  BANK_UNAVAILABLE: {
    status: 502,
    type: 'unavailable',
    retryable: true,
    message: 'Bank {bankCode} is not answering enquiries right now. Retry later with backoff.',
  },
  UPSTREAM_TIMEOUT: {
    status: 504,
    type: 'unavailable',
    retryable: true,
    message: 'Bank {bankCode} did not answer within {timeoutMs} ms. Retry later with backoff.',
  },
  RATE_LIMITED: {
    status: 429,
    type: 'rate_limited',
    retryable: true,
    message: 'Too many requests from this {source}; the limit is {limit} per {period}. Retry after {retryAfterSeconds} s, with backoff.',
  },
  METRICS_UNAUTHORIZED: {
    status: 401,
    type: 'authentication',
    retryable: false,
    message: 'The metrics answer only a request with Authorization: Bearer and the METRICS_TOKEN the service was started with.',
  },
  STORE_UNAVAILABLE: {
    status: 503,
    type: 'unavailable',
    retryable: true,
    message: 'The {store} is unavailable, so the request was not admitted and nothing was recorded. Retry with backoff.',
  },
  INTERNAL_ERROR: {
    status: 500,
    type: 'internal',
    retryable: true,
    message: 'The service failed to process the request. Retry with backoff; quote the requestId to support if it persists.',
  },
  CURRENCY_NOT_SETTLEABLE: {
    status: 422,
    type: 'invalid_request',
    retryable: false,
    message:
      'This platform cannot settle or pay out {currency}; only {settles} settles. Create the payin in {settles}, or ask the operator to enable {currency} for your merchant (merchants set-unsettled-currencies), if you settle it with them outside the platform.',
  },
} as const satisfies Record<ErrorCode, ErrorDefinition>;

type Placeholders<T extends string> = T extends `${string}{${infer Name}}${infer Rest}` ? Name | Placeholders<Rest> : never;

/** The values a code's message template needs, by placeholder name. */
export type ErrorMessageParams<C extends ErrorCode> = { [Name in Placeholders<(typeof ERROR_REGISTRY)[C]['message']>]: string | number };

/** The codes whose message libs/signing words (their template is `{detail}`). */
export type SigningWordedCode = { [C in ErrorCode]: (typeof ERROR_REGISTRY)[C]['message'] extends '{detail}' ? C : never }[ErrorCode];

/** The codes of one type, for example the account rejections that an enquiry answers with. */
export type ErrorCodeOfType<T extends ErrorType> = { [C in ErrorCode]: (typeof ERROR_REGISTRY)[C]['type'] extends T ? C : never }[ErrorCode];

/** Fills a code's message template. */
export function errorMessage<C extends ErrorCode>(code: C, params: ErrorMessageParams<C>): string {
  const values = params as Record<string, string | number>;
  return ERROR_REGISTRY[code].message.replace(/\{([A-Za-z]+)\}/g, (placeholder, name: string) => (name in values ? String(values[name]) : placeholder));
}

/**
 * What each code means and how to fix it, from the contract's
 * `x-enumDescriptions` of `ErrorCode`: the API reference shows it, and
 * docs/errors.md repeats it (a test keeps them equal). Typed so that a code
 * without a description fails typecheck.
 */
export const ERROR_SUMMARIES: Readonly<Record<ErrorCode, string>> = SCHEMAS.ErrorCode['x-enumDescriptions'];

/** The definition of a code, or undefined for a code this copy does not know (a newer server's). */
export function errorDefinition(code: string): ErrorDefinition | undefined {
  return Object.prototype.hasOwnProperty.call(ERROR_REGISTRY, code) ? ERROR_REGISTRY[code as ErrorCode] : undefined;
}

/**
 * What the registry says of a status when no code is known: an answer that is
 * not the service's error body, such as a proxy's 502 page. The type and
 * retryability are those that every code of that status shares, if they agree.
 */
export function errorTraitsOfStatus(status: number): { type: ErrorType | undefined; retryable: boolean } {
  const definitions: ErrorDefinition[] = Object.values(ERROR_REGISTRY).filter((d) => d.status === status);
  const [first] = definitions;
  return {
    type: first && definitions.every((d) => d.type === first.type) ? first.type : undefined,
    retryable: definitions.length > 0 && definitions.every((d) => d.retryable),
  };
}
