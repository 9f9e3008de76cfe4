import type { ErrorCode } from '../schemas';

/**
 * What kind of failure a code is. The SDK picks its error class by type, as
 * stripe-node's `StripeError.generate()` does, so a new code of a known type
 * needs no SDK change.
 */
export type ErrorType = 'authentication' | 'invalid_request' | 'not_found' | 'conflict' | 'account_rejected' | 'rate_limited' | 'unavailable' | 'internal';

export interface ErrorDefinition {
  status: number;
  type: ErrorType;
  /** Whether the same request, signed afresh, may succeed later. */
  retryable: boolean;
  /** What the code means and how to fix it: the row of docs/errors.md (a test keeps them equal). */
  summary: string;
  /**
   * The message the service answers with; `{name}` stands for a value of the
   * request. `{detail}` alone means libs/signing words the message, since it
   * knows the header, the grammar or the byte that failed.
   */
  message: string;
}

/**
 * The one registry of error codes. `satisfies Record<ErrorCode, …>` ties it to
 * the contract's `ErrorCode` enum: a code added to openapi/payment-api.yaml
 * without an entry here fails typecheck.
 */
export const ERROR_REGISTRY = {
  AUTH_HEADER_MISSING: {
    status: 401,
    type: 'authentication',
    retryable: false,
    summary: 'A signing header is missing. Send all six on every signed request.',
    message: '{detail}',
  },
  AUTH_HEADER_MALFORMED: {
    status: 401,
    type: 'authentication',
    retryable: false,
    summary: 'A signing header is outside its grammar, or was sent twice. See docs/protocol.md section 1.',
    message: '{detail}',
  },
  AUTH_UNKNOWN_API_KEY: {
    status: 401,
    type: 'authentication',
    retryable: false,
    summary: 'The API key is not an active credential.',
    message: '{detail}',
  },
  AUTH_TIMESTAMP_SKEW: {
    status: 401,
    type: 'authentication',
    retryable: false,
    summary: 'The timestamp is more than 300 s from server time. Correct your clock by `serverTime`.',
    message: '{detail}',
  },
  AUTH_SIGNATURE_MISMATCH: {
    status: 401,
    type: 'authentication',
    retryable: false,
    summary: 'The signature does not match. Compare your intermediate values with `debug` (sandbox).',
    message: '{detail}',
  },
  AUTH_NONCE_REPLAYED: {
    status: 401,
    type: 'authentication',
    retryable: false,
    summary: 'The nonce was already used with this API key in the last 600 s. Use a new nonce per request.',
    message: 'X-Nonce {nonce} was already used with this API key. Sign every request, including retries, with a new nonce.',
  },
  AUTH_MERCHANT_MISMATCH: {
    status: 401,
    type: 'authentication',
    retryable: false,
    summary: '`X-Merchant-ID` or `X-Tenant-ID` is not that of the API key\'s merchant.',
    message: 'X-Merchant-ID and X-Tenant-ID must be those of the merchant that owns X-API-KEY. Check them in your merchant dashboard.',
  },
  INVALID_JSON: {
    status: 400,
    type: 'invalid_request',
    retryable: false,
    summary: 'The body is not JSON.',
    message: '{detail}',
  },
  INVALID_UTF8: {
    status: 400,
    type: 'invalid_request',
    retryable: false,
    summary: 'The body is not UTF-8, or holds an unpaired surrogate escape.',
    message: '{detail}',
  },
  BODY_NOT_OBJECT: {
    status: 400,
    type: 'invalid_request',
    retryable: false,
    summary: 'The body is JSON but not an object.',
    message: '{detail}',
  },
  NESTED_VALUE: {
    status: 400,
    type: 'invalid_request',
    retryable: false,
    summary: 'A field holds an object or array; only flat fields can be signed.',
    message: '{detail}',
  },
  DUPLICATE_KEY: {
    status: 400,
    type: 'invalid_request',
    retryable: false,
    summary: 'A field appears twice.',
    message: '{detail}',
  },
  TOO_MANY_FIELDS: {
    status: 400,
    type: 'invalid_request',
    retryable: false,
    summary: 'The body has more fields than the service reads (32 by default); it was refused before the rest was read.',
    message: '{detail}',
  },
  VALIDATION_FAILED: {
    status: 400,
    type: 'invalid_request',
    retryable: false,
    summary: 'One or more fields are invalid; see `details`.',
    message: 'The request has {count} invalid {fieldOrFields}: {problems}',
  },
  MALFORMED_REQUEST: {
    status: 400,
    type: 'invalid_request',
    retryable: false,
    summary: 'The request is not valid HTTP/1.1, or its path cannot be read.',
    message: 'The request could not be parsed as HTTP/1.1. Check the request line, the header syntax and Content-Length.',
  },
  REQUEST_TIMEOUT: {
    status: 408,
    type: 'unavailable',
    retryable: true,
    summary: 'The request did not arrive in time (15 s by default); the connection was closed. Send the whole request at once.',
    message: 'The request did not arrive within {timeoutMs} ms, so the connection was closed. Send the head and the whole body without pausing.',
  },
  HEADERS_TOO_LARGE: {
    status: 431,
    type: 'invalid_request',
    retryable: false,
    summary: 'The request head is larger than the service reads. Send fewer or shorter headers.',
    message: 'The request head is larger than the service reads. Send fewer or shorter headers.',
  },
  UNSUPPORTED_MEDIA_TYPE: {
    status: 415,
    type: 'invalid_request',
    retryable: false,
    summary: 'The body is not sent as `application/json`.',
    message: 'Content-Type must be application/json. Set the header and send a JSON object.',
  },
  BODY_TOO_LARGE: {
    status: 413,
    type: 'invalid_request',
    retryable: false,
    summary: 'The body is larger than the service accepts (64 KiB by default).',
    message: 'The request body is larger than {limitBytes} bytes. Send a smaller body.',
  },
  ROUTE_NOT_FOUND: {
    status: 404,
    type: 'not_found',
    retryable: false,
    summary: 'No operation at this method and path.',
    message: 'No operation at this method and path. Check the path against the API reference at /payment/docs; it includes the /payment prefix.',
  },
  PAYIN_NOT_FOUND: {
    status: 404,
    type: 'not_found',
    retryable: false,
    summary: 'The merchant has no payin with this reference.',
    message: 'No payin with reference {reference} exists for this merchant. Check the reference you created it with.',
  },
  IDEMPOTENCY_CONFLICT: {
    status: 409,
    type: 'conflict',
    retryable: false,
    summary: 'The reference was used with a different body. Use a new reference, or resend the original body.',
    message: 'Reference {reference} was already used with a different body. Use a new reference for a new payin, or resend the original body.',
  },
  PAYIN_NOT_PENDING: {
    status: 409,
    type: 'conflict',
    retryable: false,
    summary: 'The payin is already in a final state, which never changes. Read the payin for its outcome.',
    message: 'Payin {reference} is already {status}, a final state that does not change. Read the payin for its outcome.',
  },
  GATEWAY_NOT_CONFIGURED: {
    status: 422,
    type: 'invalid_request',
    retryable: false,
    summary: "No payment gateway adapter serves the payin's channel in this deployment, so the customer could not pay.",
    message: 'No payment gateway adapter for {channel} is configured in this deployment; configured channels are {configured}. Create the payin with a configured gateway, or ask the operator to configure one.',
  },
  EVENT_NOT_FOUND: {
    status: 404,
    type: 'not_found',
    retryable: false,
    summary: 'The merchant has no webhook event with this id.',
    message: 'No event {eventId} exists for this merchant. Take the id from the events listing of the payin.',
  },
  WEBHOOK_NOT_CONFIGURED: {
    status: 422,
    type: 'invalid_request',
    retryable: false,
    summary: 'A `notifyUrl` was given, but the merchant has no webhook secret to sign notifications with.',
    message: 'notifyUrl was given, but merchant {merchantId} has no webhook secret to sign notifications with. Ask the operator to add webhookSecrets to the merchant, or leave notifyUrl out.',
  },
  NUBAN_CHECK_FAILED: {
    status: 422,
    type: 'account_rejected',
    retryable: false,
    summary: "The account number's NUBAN check digit is wrong for this bank; the bank was not asked.",
    message: '{accountNumber} is not a valid NUBAN for bank {bankCode}: its check digit is wrong. Check the number with the beneficiary; the bank was not asked.',
  },
  ACCOUNT_NOT_FOUND: {
    status: 422,
    type: 'account_rejected',
    retryable: false,
    summary: 'The bank has no such account.',
    message: 'No account {accountNumber} exists at bank {bankCode}. Check the account number with the beneficiary.',
  },
  ACCOUNT_DORMANT: {
    status: 422,
    type: 'account_rejected',
    retryable: false,
    summary: 'The account is dormant and cannot receive payouts.',
    message: 'Account {accountNumber} at bank {bankCode} is dormant and cannot receive payouts. Ask the beneficiary for another account.',
  },
  BANK_UNAVAILABLE: {
    status: 502,
    type: 'unavailable',
    retryable: true,
    summary: "The beneficiary's bank is not answering. Retry with backoff.",
    message: 'Bank {bankCode} is not answering enquiries right now. Retry later with backoff.',
  },
  UPSTREAM_TIMEOUT: {
    status: 504,
    type: 'unavailable',
    retryable: true,
    summary: "The beneficiary's bank did not answer in time. Retry with backoff.",
    message: 'Bank {bankCode} did not answer within {timeoutMs} ms. Retry later with backoff.',
  },
  RATE_LIMITED: {
    status: 429,
    type: 'rate_limited',
    retryable: true,
    summary: 'Too many requests from this API key, or from this address before verification. Wait `Retry-After` seconds, then retry.',
    message: 'Too many requests from this {source}; the limit is {limit} per {period}. Retry after {retryAfterSeconds} s, with backoff.',
  },
  STORE_UNAVAILABLE: {
    status: 503,
    type: 'unavailable',
    retryable: true,
    summary: 'A store the service needs is down; nothing was admitted or recorded. Retry with backoff.',
    message: 'The {store} is unavailable, so the request was not admitted and nothing was recorded. Retry with backoff.',
  },
  INTERNAL_ERROR: {
    status: 500,
    type: 'internal',
    retryable: true,
    summary: 'An unexpected failure. Retry with backoff; quote the `requestId` if it persists.',
    message: 'The service failed to process the request. Retry with backoff; quote the requestId to support if it persists.',
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
