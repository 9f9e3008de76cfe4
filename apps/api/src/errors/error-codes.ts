/**
 * The registry of every error code the service returns: its HTTP status and
 * whether the same request may succeed later. The OpenAPI `ErrorCode` enum and
 * docs/errors.md must list exactly these (a test checks it).
 */
export const ERROR_CODES = {
  AUTH_HEADER_MISSING: { status: 401, retryable: false },
  AUTH_HEADER_MALFORMED: { status: 401, retryable: false },
  AUTH_UNKNOWN_API_KEY: { status: 401, retryable: false },
  AUTH_TIMESTAMP_SKEW: { status: 401, retryable: false },
  AUTH_SIGNATURE_MISMATCH: { status: 401, retryable: false },
  AUTH_NONCE_REPLAYED: { status: 401, retryable: false },
  AUTH_MERCHANT_MISMATCH: { status: 401, retryable: false },
  INVALID_JSON: { status: 400, retryable: false },
  INVALID_UTF8: { status: 400, retryable: false },
  BODY_NOT_OBJECT: { status: 400, retryable: false },
  NESTED_VALUE: { status: 400, retryable: false },
  DUPLICATE_KEY: { status: 400, retryable: false },
  VALIDATION_FAILED: { status: 400, retryable: false },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, retryable: false },
  BODY_TOO_LARGE: { status: 413, retryable: false },
  ROUTE_NOT_FOUND: { status: 404, retryable: false },
  PAYIN_NOT_FOUND: { status: 404, retryable: false },
  IDEMPOTENCY_CONFLICT: { status: 409, retryable: false },
  NUBAN_CHECK_FAILED: { status: 422, retryable: false },
  ACCOUNT_NOT_FOUND: { status: 422, retryable: false },
  ACCOUNT_DORMANT: { status: 422, retryable: false },
  BANK_UNAVAILABLE: { status: 502, retryable: true },
  UPSTREAM_TIMEOUT: { status: 504, retryable: true },
  STORE_UNAVAILABLE: { status: 503, retryable: true },
  INTERNAL_ERROR: { status: 500, retryable: true },
} as const satisfies Record<string, { status: number; retryable: boolean }>;

export type ErrorCode = keyof typeof ERROR_CODES;
