import { performance } from 'node:perf_hooks';
import { setTimeout as delay } from 'node:timers/promises';
import type { Logger } from 'pino';
import type { ServiceMetrics } from '../metrics/service-metrics';
import type { ProviderCircuit } from './provider-circuit';
import { sourceOf, type CallKind, type ProviderCircuits } from './provider-circuits';

/** How a call to a provider ended, as the metrics count it. */
export type CallOutcome = 'ok' | 'refused' | 'unauthorized' | 'throttled' | 'error' | 'timeout' | 'unreachable' | 'circuit_open';

/**
 * The provider gave no usable answer: it timed out, could not be reached,
 * answered 5xx or something unreadable, or its circuit is open. What the
 * provider did is unknown, so the caller must ask again later, never treat
 * it as a refusal.
 */
export class ProviderUnavailable extends Error {
  override readonly name = 'ProviderUnavailable';

  constructor(
    readonly provider: string,
    readonly call: string,
    readonly outcome: Exclude<CallOutcome, 'ok' | 'refused'>,
  ) {
    super(`${provider} ${call}: ${outcome}`);
  }
}

export interface ProviderRequest {
  /** The call's name in metrics and logs; the path is never logged, since it can carry an account number. */
  call: string;
  /** The circuit the call is counted in: its kind of call. */
  circuit: CallKind;
  /** For an enquiry, the provider's code of the bank asked: the call is also counted in that bank's circuit. */
  bank?: string;
  /** The merchant the call is made for; null for the service's own work. A circuit opens only on failures several sources see. */
  merchantId: string | null;
  method: 'GET' | 'POST';
  path: string;
  query?: Record<string, string>;
  body?: unknown;
  /** Whether sending it again cannot do anything twice: only then is it retried after a 5xx or a timeout. */
  idempotent: boolean;
  /** The caller's own deadline or shutdown, besides PROVIDER_TIMEOUT_MS. */
  signal?: AbortSignal;
  /** In place of PROVIDER_TIMEOUT_MS, for a call sized otherwise (a page of a day's records). */
  timeoutMs?: number;
}

/** Who a call to a provider is for, and until when it may run: what each adapter call passes down to the client. */
export interface ProviderCaller {
  /** The caller's own deadline or shutdown. */
  signal: AbortSignal;
  /** The merchant the call is made for; null for the service's own work (a job with no merchant). */
  merchantId: string | null;
}

/** An answer of the provider: 2xx or 4xx, with its JSON body. */
export interface ProviderAnswer {
  status: number;
  body: unknown;
}

export interface UpstreamClientOptions {
  provider: string;
  baseUrl: string;
  /** Sent with every call; the authorization header among them is never logged. */
  headers: Record<string, string>;
  timeoutMs: number;
  retries: number;
  circuits: ProviderCircuits;
  metrics: ServiceMetrics;
  logger: Logger;
}

/** The failures a call marked idempotent is sent again after (PROVIDER_RETRIES). */
const RETRIED: ReadonlySet<CallOutcome> = new Set(['error', 'timeout', 'unreachable']);

/** Larger answers are refused unread: no provider answer the adapters use is near this. */
const MAX_ANSWER_BYTES = 1_048_576;

/**
 * JSON calls to one upstream provider, each under PROVIDER_TIMEOUT_MS and
 * the provider's circuits (its kind of call's, and an enquiry's bank's),
 * counted and timed per call and outcome. A failure is counted for the
 * merchant the call was made for, so that one merchant alone never opens a
 * circuit every merchant shares. Only calls marked idempotent are retried
 * (PROVIDER_RETRIES), after a 5xx, a timeout or a failed connection; a 4xx
 * is an answer and is returned, except 401 and 403 (a refused key) and 429
 * (too many calls), which say nothing of the payment.
 */
export class UpstreamClient {
  constructor(private readonly options: UpstreamClientOptions) {}

  /** `closed` while every kind of call's circuit is closed; banks' circuits are left out. */
  get circuitState(): ProviderCircuit['state'] {
    return this.options.circuits.state;
  }

  async request(request: ProviderRequest): Promise<ProviderAnswer> {
    const attempts = request.idempotent ? 1 + this.options.retries : 1;
    let lastFailure: ProviderUnavailable | undefined;
    for (let attempt = 1; attempt <= attempts; attempt++) {
      if (attempt > 1) await delay(100 * 2 ** (attempt - 2), undefined, { signal: request.signal });
      try {
        return await this.once(request);
      } catch (error) {
        // Only what another try may mend: a refused key, our rate, or an open circuit would meet the same answer.
        if (!(error instanceof ProviderUnavailable) || !RETRIED.has(error.outcome) || request.signal?.aborted) throw error;
        lastFailure = error;
      }
    }
    throw lastFailure as ProviderUnavailable;
  }

  private async once(request: ProviderRequest): Promise<ProviderAnswer> {
    const { provider, circuits, metrics, logger } = this.options;
    const fail = (outcome: Exclude<CallOutcome, 'ok' | 'refused'>, detail: { status?: number; circuit?: string } = {}): ProviderUnavailable => {
      metrics.providerCalls.inc({ provider, call: request.call, outcome });
      logger.warn({ provider, call: request.call, outcome, ...detail }, 'provider call failed: its outcome is unknown');
      return new ProviderUnavailable(provider, request.call, outcome);
    };
    const permit = circuits.acquire({ kind: request.circuit, ...(request.bank === undefined ? {} : { bank: request.bank }) });
    if ('refusedBy' in permit) throw fail('circuit_open', { circuit: permit.refusedBy });
    const failed = () => {
      for (const circuit of permit.failed(sourceOf(request.merchantId))) {
        logger.warn({ provider, circuit }, 'provider circuit opened: its calls are refused unsent until a trial call succeeds');
      }
    };

    const timeout = AbortSignal.timeout(request.timeoutMs ?? this.options.timeoutMs);
    const signal = request.signal ? AbortSignal.any([request.signal, timeout]) : timeout;
    const url = new URL(this.options.baseUrl + request.path);
    for (const [name, value] of Object.entries(request.query ?? {})) url.searchParams.set(name, value);
    const started = performance.now();
    let status: number;
    let text: string;
    try {
      const response = await fetch(url, {
        method: request.method,
        headers: { accept: 'application/json', ...(request.body === undefined ? {} : { 'content-type': 'application/json' }), ...this.options.headers },
        body: request.body === undefined ? undefined : JSON.stringify(request.body),
        signal,
        redirect: 'error',
      });
      status = response.status;
      text = await readBounded(response);
    } catch {
      failed();
      throw fail(signal.aborted ? 'timeout' : 'unreachable');
    } finally {
      metrics.providerCallDuration.observe({ provider, call: request.call }, (performance.now() - started) / 1000);
    }
    // Redirects are refused by fetch itself (redirect: 'error'), as failed connections.
    if (status >= 500) {
      failed();
      throw fail('error', { status });
    }
    permit.succeeded();
    // The provider refused our key: it did nothing, and no answer of it may be read as a refusal of the payment itself.
    if (status === 401 || status === 403) {
      this.options.logger.error({ provider, call: request.call, status }, 'the provider refused our secret key: check the key the service is configured with');
      throw fail('unauthorized', { status });
    }
    // Too many calls: nothing was done, and the call may be made again later. An answer about our rate, never about the payment.
    if (status === 429) throw fail('throttled', { status });
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw fail('error', { status });
    }
    metrics.providerCalls.inc({ provider, call: request.call, outcome: status < 300 ? 'ok' : 'refused' });
    return { status, body };
  }
}

async function readBounded(response: Response): Promise<string> {
  const declared = Number(response.headers.get('content-length') ?? '0');
  if (declared > MAX_ANSWER_BYTES) throw new Error('answer too large');
  const reader = response.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_ANSWER_BYTES) {
      await reader.cancel();
      throw new Error('answer too large');
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}
