import type { ErrorBody, FieldError } from '@paysign/contracts';

/**
 * Marks errors of this package. `Symbol.for` is shared by every copy of the
 * package in a process, so `instanceof` works even when two versions are installed.
 */
const BRAND = Symbol.for('@paysign/sdk.PaymentError');

interface ErrorInit {
  code: string;
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
  readonly code: string;
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

/** 400, 413, 415: the request is invalid; `details` lists each failing field. */
export class ValidationError extends PaymentError {
  static override readonly kind: string = 'ValidationError';
  get details(): FieldError[] {
    return this.body?.details ?? [];
  }
}

/** 404: the payin (or route) does not exist for this merchant. */
export class NotFoundError extends PaymentError {
  static override readonly kind: string = 'NotFoundError';
}

/** 409: the reference was already used with a different body. */
export class ConflictError extends PaymentError {
  static override readonly kind: string = 'ConflictError';
}

/** 429: too many requests. Retried automatically, honouring `Retry-After`. */
export class RateLimitError extends PaymentError {
  static override readonly kind: string = 'RateLimitError';
  /** Seconds the service asked to wait, from `Retry-After`. */
  retryAfterSeconds: number | undefined;
}

/** 502, 503, 504: the service or a bank behind it is unavailable. Retried automatically. */
export class UpstreamUnavailableError extends PaymentError {
  static override readonly kind: string = 'UpstreamUnavailableError';
}

/** The account enquiry was answered but the account cannot receive a payout (`success: false`, 422). */
export class AccountEnquiryError extends PaymentError {
  static override readonly kind: string = 'AccountEnquiryError';
  declare readonly code: 'NUBAN_CHECK_FAILED' | 'ACCOUNT_NOT_FOUND' | 'ACCOUNT_DORMANT';
}

/** The service could not be reached (DNS, refused, reset). Retried automatically. */
export class ConnectionError extends PaymentError {
  static override readonly kind: string = 'ConnectionError';
}

/** An attempt took longer than `timeoutMs`. Retried automatically. */
export class TimeoutError extends PaymentError {
  static override readonly kind: string = 'TimeoutError';
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

/** Maps a non-2xx answer of the service to its error class. */
export function errorFromResponse(status: number, body: unknown, requestId: string | undefined, retryAfterSeconds?: number): PaymentError {
  const errorBody = (typeof body === 'object' && body !== null ? body : {}) as Partial<ErrorBody> & { success?: boolean };
  const init: ErrorInit = {
    code: typeof errorBody.code === 'string' ? errorBody.code : `HTTP_${status}`,
    message: typeof errorBody.message === 'string' ? errorBody.message : `The service answered HTTP ${status}.`,
    status,
    requestId: errorBody.requestId ?? requestId,
    retryable: errorBody.retryable ?? (status === 429 || status >= 502),
    body: errorBody,
  };
  if (status === 401) return new AuthenticationError(init);
  if (status === 400 || status === 413 || status === 415) return new ValidationError(init);
  if (status === 404) return new NotFoundError(init);
  if (status === 409) return new ConflictError(init);
  if (status === 422 && errorBody.success === false) return new AccountEnquiryError(init);
  if (status === 429) {
    const error = new RateLimitError(init);
    error.retryAfterSeconds = retryAfterSeconds;
    return error;
  }
  if (status === 502 || status === 503 || status === 504) return new UpstreamUnavailableError(init);
  return new ApiError(init);
}
