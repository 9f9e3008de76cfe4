import type { ErrorCode } from '@paysign/contracts';
import { parseRetryAfter } from '@paysign/signing';
import { sign } from './signing';
import { MAX_RETRY_AFTER_MS, MAX_RETRY_DELAY_MS } from './client-options';
import { ConnectionError, PaymentError, TimeoutError, errorFromResponse } from './errors';

export interface TransportConfig {
  apiKey: string;
  secretKey: string;
  merchantId: string;
  tenantId: string;
  timeoutMs: number;
  /** Every call settles within this, retries and waits included. */
  deadlineMs: number;
  maxRetries: number;
  retryDelayMs: number;
  fetch: (request: Request) => Promise<Response>;
  userAgent: string;
  clock: () => number;
  nonce: () => string;
  random: () => number;
  sleep: (ms: number) => Promise<void>;
}

/**
 * The codes with which the service refuses a request before doing anything
 * with it: the only failures after which a call that is not idempotent may be
 * sent again. After a timeout, a lost connection or a 500, whether it took
 * effect is unknown.
 */
export const NOTHING_DONE_CODES: ReadonlySet<string> = new Set(['RATE_LIMITED', 'REQUEST_TIMEOUT', 'STORE_UNAVAILABLE'] satisfies ErrorCode[]);

/** How a call may be retried. */
export interface SendOptions {
  /**
   * Whether sending the request twice does what sending it once does (a
   * reference as idempotency key, a read, a state change). When false, it is
   * retried only after one of NOTHING_DONE_CODES (and a clock-skew 401).
   */
  idempotent: boolean;
}

/**
 * The fetch that openapi-fetch sends through. Each attempt is signed afresh,
 * with a new nonce and timestamp, over exactly the bytes it sends. It retries
 * the errors that say they are retryable (the error registry decides: network
 * errors, timeouts, 408, 429, 500, 502, 503, 504), honouring Retry-After, else with
 * exponential backoff and full jitter. It never retries 400, 401 or 409,
 * except once on a clock-skew 401, after learning the server's clock offset,
 * which it keeps for later calls, as the AWS SDKs do. No retry starts that
 * would pass the call's deadline, and an attempt never outlasts it.
 * `fetchNotIdempotent` retries only what the service refused before doing anything.
 */
export class SignedTransport {
  /** Server time minus local time, in seconds, learned from skew errors. */
  clockOffsetSeconds = 0;

  constructor(private readonly config: TransportConfig) {}

  /** For every call that is safe to send twice: the default. */
  readonly fetch = (request: Request): Promise<Response> => this.send(request, { idempotent: true });

  /** For a call that is not safe to send twice, such as a create without a reference: see NOTHING_DONE_CODES. */
  readonly fetchNotIdempotent = (request: Request): Promise<Response> => this.send(request, { idempotent: false });

  private async send(request: Request, { idempotent }: SendOptions): Promise<Response> {
    const body = request.body === null ? undefined : new Uint8Array(await request.arrayBuffer());
    const url = new URL(request.url);
    const path = `${url.pathname}${url.search}`;
    const startedAt = this.config.clock();
    const remainingMs = () => this.config.deadlineMs - (this.config.clock() - startedAt);
    /** Waits before the next attempt, unless it or the attempts left would pass the deadline. */
    const waitToRetry = async (attempt: number, waitMs: number): Promise<boolean> => {
      if (attempt >= this.config.maxRetries || waitMs >= remainingMs()) return false;
      await this.config.sleep(waitMs);
      return true;
    };
    let skewCorrected = false;
    for (let attempt = 0; ; attempt++) {
      let response: Response;
      try {
        response = await this.attempt(request, url, path, body, Math.min(this.config.timeoutMs, remainingMs()));
      } catch (error) {
        // A timeout or a lost connection: the request may have arrived, so only an idempotent call is sent again.
        if (idempotent && error instanceof PaymentError && error.retryable && (await waitToRetry(attempt, this.backoff(attempt)))) continue;
        throw error;
      }
      if (response.ok) return response;

      const parsed = await readBody(response);
      const requestId = response.headers.get('x-request-id') ?? undefined;
      const retryAfter = parseRetryAfter(response.headers.get('retry-after'), this.config.clock());
      const error = errorFromResponse(response.status, parsed, requestId, retryAfter);

      if (error.code === 'AUTH_TIMESTAMP_SKEW' && !skewCorrected && typeof error.body?.serverTime === 'number') {
        skewCorrected = true;
        this.clockOffsetSeconds = error.body.serverTime - Math.floor(this.config.clock() / 1000);
        attempt--; // the correction is not a retry
        continue;
      }
      const mayRetry = error.retryable && (idempotent || NOTHING_DONE_CODES.has(error.code));
      if (mayRetry && (await waitToRetry(attempt, retryAfter !== undefined ? Math.min(retryAfter * 1000, MAX_RETRY_AFTER_MS) : this.backoff(attempt)))) continue;
      throw error;
    }
  }

  private async attempt(request: Request, url: URL, path: string, body: Uint8Array | undefined, timeoutMs: number): Promise<Response> {
    const signed = sign({
      apiKey: this.config.apiKey,
      secretKey: this.config.secretKey,
      merchantId: this.config.merchantId,
      tenantId: this.config.tenantId,
      nonce: this.config.nonce(),
      timestamp: Math.floor(this.config.clock() / 1000) + this.clockOffsetSeconds,
      method: request.method,
      path,
      body,
    });
    const headers = new Headers(request.headers);
    for (const [name, value] of Object.entries(signed.headers)) if (value !== undefined) headers.set(name, value);
    headers.set('user-agent', this.config.userAgent);
    if (body !== undefined) headers.set('content-type', 'application/json');

    const controller = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    // The time limit is the transport's own: a fetch that loses the abort (a Request's derived signal can be
    // collected before it fires) or ignores it still ends here, never hangs the caller.
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        controller.abort();
        reject(controller.signal.reason);
      }, timeoutMs);
    });
    const answer = this.config.fetch(new Request(url, { method: request.method, headers, body, signal: controller.signal }));
    answer.catch(() => undefined); // settles after the race is lost: nothing waits for it
    try {
      return await Promise.race([answer, timedOut]);
    } catch (cause) {
      if (controller.signal.aborted) {
        throw new TimeoutError({ code: 'TIMEOUT', message: `No answer from ${url.origin} within ${timeoutMs} ms.`, retryable: true, cause });
      }
      throw new ConnectionError({ code: 'CONNECTION_FAILED', message: `Could not reach ${url.origin}: ${(cause as Error).message}. Check baseUrl and your network.`, retryable: true, cause });
    } finally {
      clearTimeout(timer);
    }
  }

  private backoff(attempt: number): number {
    const ceiling = Math.min(MAX_RETRY_DELAY_MS, this.config.retryDelayMs * 2 ** attempt);
    return Math.floor(this.config.random() * ceiling);
  }
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

