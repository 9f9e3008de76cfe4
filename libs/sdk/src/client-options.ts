/** Options of `PaymentClient`. */
export interface PaymentClientOptions {
  /** The service's address, for example `https://pay.example.com`. Paths such as `/payment/...` are appended. Required. */
  baseUrl: string;
  /** Public API key issued to your merchant. Required. */
  apiKey: string;
  /** Secret key; keep it on your server. Required. */
  secretKey: string;
  /** Your merchant (business profile) ID, sent as X-Merchant-ID. Required. */
  merchantId: string;
  /** Your tenant from onboarding, sent as X-Tenant-ID. Required. */
  tenantId: string;
  /** Time limit of each attempt, in milliseconds. Default: 10000. */
  timeoutMs?: number;
  /** Every call settles (answers or throws) within this many milliseconds, retries and waits included. Default: 20000. */
  deadlineMs?: number;
  /** Retries after the first attempt, for errors whose `retryable` is true (network errors, timeouts, 408, 429, 500, 502, 503, 504); a call without a reference (`webhookEndpoints.create`, `rollSecret`) only after 408, 429 and STORE_UNAVAILABLE. Default: 2. */
  maxRetries?: number;
  /** Base of the exponential backoff between retries, in milliseconds (with full jitter, capped at 8 s). Default: 500. */
  retryDelayMs?: number;
  /** The fetch implementation. Default: `globalThis.fetch`. */
  fetch?: (request: Request) => Promise<Response>;
  /** Appended to the User-Agent, for example `my-shop/1.4`. Default: none. */
  userAgent?: string;
  /** Milliseconds since the epoch. Default: `Date.now`. */
  clock?: () => number;
  /** Nonce factory. Default: `crypto.randomUUID`. */
  nonce?: () => string;
}

export const DEFAULTS = { timeoutMs: 10_000, deadlineMs: 20_000, maxRetries: 2, retryDelayMs: 500 } as const;

/** The longest backoff between two attempts. */
export const MAX_RETRY_DELAY_MS = 8_000;

/** The longest wait a Retry-After header can ask for; a longer one is cut to this, so a call never hangs for minutes. */
export const MAX_RETRY_AFTER_MS = 32_000;
