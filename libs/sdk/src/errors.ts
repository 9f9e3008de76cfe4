import type { SigningErrorCode } from '@paysign/signing';
import { errorDefinition, errorTraitsOfStatus, type ErrorBody, type ErrorCode, type ErrorCodeOfType, type ErrorType, type FieldError } from '@paysign/contracts';

/** Codes the SDK raises itself, when no error body of the service is at hand. */
export type ClientErrorCode = 'CONNECTION_FAILED' | 'TIMEOUT' | 'UNEXPECTED_RESPONSE' | `HTTP_${number}`;

/**
 * A code of the service (docs/errors.md), one of the SDK's own, or a code that
 * a newer service added after this SDK was published: branch on the ones you know.
 */
// `string & {}` keeps unknown codes assignable without collapsing the union into `string`.
export type PaymentErrorCode = ErrorCode | ClientErrorCode | (string & {});

/**
 * Marks errors of this package. `Symbol.for` is shared by every copy of the
 * package in a process, so `instanceof` works even when two versions are installed.
 */
const BRAND = Symbol.for('@paysign/sdk.PaymentError');

interface ErrorInit {
  code: PaymentErrorCode;
  message: string;
  status?: number;
  requestId?: string;
  retryable?: boolean;
  body?: Partial<ErrorBody>;
  cause?: unknown;
}

/** Base class of every error the SDK throws. Branch on `code`, which is stable. */
export class PaymentError extends Error {
  /** Name of the class, recorded in the brand so `instanceof` works across copies. */
  static readonly kind: string = 'PaymentError';
  /** The service's error code (see docs/errors.md), or a client-side code such as `CONNECTION_FAILED`. */
  readonly code: PaymentErrorCode;
  /** HTTP status, when the service answered. */
  readonly status: number | undefined;
  /** The service's request id (`X-Request-Id`); quote it to support. */
  readonly requestId: string | undefined;
  /** Whether the same request may succeed later. */
  readonly retryable: boolean;
  /** The full error body the service sent, when it sent one. */
  readonly body: Partial<ErrorBody> | undefined;
  declare readonly [BRAND]: readonly string[];

  constructor(init: ErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = new.target.kind;
    this.code = init.code;
    this.status = init.status;
    this.requestId = init.requestId;
    this.retryable = init.retryable ?? false;
    this.body = init.body;
    Object.defineProperty(this, BRAND, { value: kindsOf(new.target), enumerable: false });
  }

  static override [Symbol.hasInstance](value: unknown): boolean {
    if (typeof value !== 'object' || value === null) return false;
    const kinds = (value as { [BRAND]?: unknown })[BRAND];
    return Array.isArray(kinds) && kinds.includes(this.kind);
  }
}

/** 401: a signing check failed (bad credentials, clock skew, replayed nonce, merchant mismatch). */
export class AuthenticationError extends PaymentError {
  static override readonly kind: string = 'AuthenticationError';
  /** The server's clock in Unix seconds, on `AUTH_TIMESTAMP_SKEW`. */
  get serverTime(): number | undefined {
    return this.body?.serverTime;
  }
}

/** 403: the credential may not do this (ROLE_REQUIRED, or APPROVER_REQUIRED: approving needs another credential with payouts:approve). Never retried. */
export class PermissionError extends PaymentError {
  static override readonly kind: string = 'PermissionError';
}

/** 400, 413, 415, 431, and a 422 that is not an enquiry's (GATEWAY_NOT_CONFIGURED, WEBHOOK_NOT_CONFIGURED, REFUND_EXCEEDS_PAYIN, REFUND_WINDOW_CLOSED): the request is invalid; `details` lists each failing field. */
export class ValidationError extends PaymentError {
  static override readonly kind: string = 'ValidationError';
  get details(): FieldError[] {
    return this.body?.details ?? [];
  }
}

/** 404: the payin, payout, batch, refund, event or route does not exist for this merchant. */
export class NotFoundError extends PaymentError {
  static override readonly kind: string = 'NotFoundError';
}

/** 409: the reference was already used with a different body, or the payin, payout, batch or refund is not in a state that allows the operation (a payin not refundable, a refund already sent). */
export class ConflictError extends PaymentError {
  static override readonly kind: string = 'ConflictError';
}

/** 429: too many requests. Retried automatically, honouring `Retry-After`. */
export class RateLimitError extends PaymentError {
  static override readonly kind: string = 'RateLimitError';
  /** Seconds the service asked to wait, from `Retry-After`. */
  retryAfterSeconds: number | undefined;
}

/** 408, 502, 503, 504: the service, a store it depends on, or a bank behind it did not answer in time or is unavailable. Retried automatically. */
export class ServiceUnavailableError extends PaymentError {
  static override readonly kind: string = 'ServiceUnavailableError';
}

/** The account enquiry was answered but the account cannot receive a payout (`success: false`, 422). */
export class AccountEnquiryError extends PaymentError {
  static override readonly kind: string = 'AccountEnquiryError';
  declare readonly code: ErrorCodeOfType<'account_rejected'>;
}

/**
 * The request cannot be signed, so it was not sent: a body with a nested value,
 * a duplicate key, invalid UTF-8, or a header value outside its grammar.
 * `code` says which (see libs/signing's codes); never retried.
 */
export class SigningError extends PaymentError {
  static override readonly kind: string = 'SigningError';
  declare readonly code: SigningErrorCode;
}

/** The service could not be reached (DNS, refused, reset). Retried automatically. */
export class ConnectionError extends PaymentError {
  static override readonly kind: string = 'ConnectionError';
}

/** An attempt took longer than `timeoutMs`. Retried automatically. */
export class TimeoutError extends PaymentError {
  static override readonly kind: string = 'TimeoutError';
}

/** Why a webhook was refused by `verifyWebhook`. */
export type WebhookVerificationErrorCode = 'WEBHOOK_HEADER_MALFORMED' | 'WEBHOOK_TIMESTAMP_STALE' | 'WEBHOOK_SIGNATURE_MISMATCH' | 'WEBHOOK_PAYLOAD_INVALID';

/**
 * A webhook that must not be trusted: a missing or malformed header, a
 * timestamp outside the tolerance (a replay, or a wrong clock), or no
 * signature that matches any of your secrets. Answer it with 400 and do not
 * act on it; a genuine event is retried.
 */
export class WebhookVerificationError extends PaymentError {
  static override readonly kind: string = 'WebhookVerificationError';
  declare readonly code: WebhookVerificationErrorCode;
}

/** An unexpected answer, such as a 500 or a body that is not JSON. */
export class ApiError extends PaymentError {
  static override readonly kind: string = 'ApiError';
}

function kindsOf(constructor: unknown): string[] {
  const kinds: string[] = [];
  for (let c = constructor as { kind?: string } | null; c && c !== Function.prototype; c = Object.getPrototypeOf(c)) {
    if (typeof c.kind === 'string' && !kinds.includes(c.kind)) kinds.push(c.kind);
  }
  return kinds;
}

/** The class of each type of error in the registry of libs/contracts. */
const ERROR_CLASS_BY_TYPE: Record<ErrorType, new (init: ErrorInit) => PaymentError> = {
  authentication: AuthenticationError,
  permission: PermissionError,
  invalid_request: ValidationError,
  not_found: NotFoundError,
  conflict: ConflictError,
  account_rejected: AccountEnquiryError,
  rate_limited: RateLimitError,
  unavailable: ServiceUnavailableError,
  internal: ApiError,
};

/**
 * Maps a non-2xx answer to its error class, by the code's type in the error
 * registry. A code this SDK does not know (a newer service's), or an answer
 * without the service's error body (a proxy's 502 page), is classed by what
 * the registry's codes of the same status share.
 */
export function errorFromResponse(status: number, body: unknown, requestId: string | undefined, retryAfterSeconds?: number): PaymentError {
  const errorBody = (typeof body === 'object' && body !== null ? body : {}) as Partial<ErrorBody>;
  const code = typeof errorBody.code === 'string' ? errorBody.code : undefined;
  const traits = (code === undefined ? undefined : errorDefinition(code)) ?? errorTraitsOfStatus(status);
  const ErrorClass = traits.type === undefined ? ApiError : ERROR_CLASS_BY_TYPE[traits.type];
  const error = new ErrorClass({
    code: code ?? `HTTP_${status}`,
    message: typeof errorBody.message === 'string' ? errorBody.message : `The service answered HTTP ${status}.`,
    status,
    requestId: errorBody.requestId ?? requestId,
    retryable: typeof errorBody.retryable === 'boolean' ? errorBody.retryable : traits.retryable,
    body: errorBody,
  });
  if (error instanceof RateLimitError) error.retryAfterSeconds = retryAfterSeconds;
  return error;
}
