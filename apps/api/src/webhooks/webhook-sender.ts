import { parseRetryAfter } from '@paysign/signing';
import * as http from 'node:http';
import * as https from 'node:https';
import type { LookupFunction } from 'node:net';
import { resolveTarget, type Resolver, type TargetPolicy } from './webhook-target';

export interface WebhookRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
}

export interface SendOptions {
  timeoutMs: number;
  responseBodyLimitBytes: number;
  policy: TargetPolicy;
  resolve: Resolver;
  /** Cuts the attempt short (shutdown). */
  cancel?: AbortSignal;
  /** Connections kept open between attempts; without it, each attempt opens its own. */
  connections?: ReceiverConnections;
}

/** One attempt, as recorded: the receiver's status, or why there was none. */
export interface SendResult {
  statusCode: number | null;
  error: string | null;
  responseBody: string | null;
  retryAfterSeconds: number | undefined;
  durationMs: number;
  /** False when the attempt never reached out to the receiver: its address was refused, or it could not be signed. */
  sent?: boolean;
}

/**
 * POSTs one webhook. Redirects are not followed (a 3xx is a failure), the
 * whole exchange must finish within the timeout, and only the first bytes of
 * the answer are read.
 */
export async function sendWebhook(request: WebhookRequest, options: SendOptions): Promise<SendResult> {
  const started = performance.now();
  const done = (result: Omit<SendResult, 'durationMs'>): SendResult => ({ ...result, durationMs: Math.round(performance.now() - started) });
  const url = new URL(request.url);
  // One deadline for the whole attempt: resolving the host, connecting, and the answer.
  const timeout = AbortSignal.timeout(options.timeoutMs);
  const signal = options.cancel ? AbortSignal.any([timeout, options.cancel]) : timeout;
  const target = await untilAborted(resolveTarget(url, options.policy, options.resolve), signal);
  if (target === ABORTED) return done({ statusCode: null, error: `no answer within ${options.timeoutMs} ms (resolving ${url.hostname})`, responseBody: null, retryAfterSeconds: undefined });
  if ('problem' in target) return done({ statusCode: null, error: `refused: ${target.problem}`, responseBody: null, retryAfterSeconds: undefined, sent: false });

  // Connect to the address just checked, whatever the resolver would say now.
  const pinned: LookupFunction = (_hostname, lookupOptions, callback) => {
    if ((lookupOptions as { all?: boolean }).all) (callback as (e: null, a: Array<{ address: string; family: number }>) => void)(null, [target]);
    else callback(null, target.address, target.family);
  };
  const exchange = (agent: http.Agent | false) =>
    new Promise<SendResult | typeof STALE_CONNECTION>((resolve) => {
      let answered = false;
      const transport = url.protocol === 'https:' ? https : http;
      const outgoing = transport.request(url, { method: 'POST', headers: { ...request.headers, 'content-length': String(Buffer.byteLength(request.body)) }, lookup: pinned, signal, agent }, (response) => {
        answered = true;
        const chunks: Buffer[] = [];
        let kept = 0;
        response.on('data', (chunk: Buffer) => {
          if (kept < options.responseBodyLimitBytes) {
            chunks.push(chunk.subarray(0, options.responseBodyLimitBytes - kept));
            kept += Math.min(chunk.length, options.responseBodyLimitBytes - kept);
          }
          // Enough kept: the rest of a large answer is not read, and its connection is not kept.
          if (kept >= options.responseBodyLimitBytes) response.destroy();
        });
        const finish = () =>
          resolve(
            done({
              statusCode: response.statusCode ?? null,
              error: null,
              responseBody: options.responseBodyLimitBytes === 0 ? null : keptText(Buffer.concat(chunks)),
              retryAfterSeconds: parseRetryAfter(firstValue(response.headers['retry-after']), Date.now()),
            }),
          );
        response.on('end', finish);
        response.on('close', finish);
        response.on('error', finish);
      });
      outgoing.on('error', (error: Error & { code?: string }) => {
        // A kept connection that the receiver closed while it was idle fails as it is reused, before any answer: not the receiver's failure.
        if (outgoing.reusedSocket && !answered && !signal.aborted && STALE_CONNECTION_CODES.has(error.code ?? '')) return resolve(STALE_CONNECTION);
        const timedOut = timeout.aborted;
        resolve(done({ statusCode: null, error: timedOut ? `no answer within ${options.timeoutMs} ms` : `${error.code ?? error.name}: ${error.message}`, responseBody: null, retryAfterSeconds: undefined }));
      });
      outgoing.end(request.body);
    });
  const kept = options.connections?.agentFor(url, target.address) ?? false;
  const result = await exchange(kept);
  // Once more on a new connection, within the same deadline. The receiver may have had the first (at least once: it deduplicates on webhook-id).
  return result === STALE_CONNECTION ? ((await exchange(false)) as SendResult) : result;
}

/** How a kept connection fails when the receiver closed it as it was reused. */
const STALE_CONNECTION_CODES = new Set(['ECONNRESET', 'EPIPE']);
const STALE_CONNECTION = Symbol('stale connection');

/**
 * Connections to receivers kept open between attempts, so that a busy
 * receiver is not sent a TCP and TLS handshake with every event. One pool
 * per receiver and checked address: an attempt reuses a connection only to
 * the address its own check just passed, so a hostname that now resolves
 * elsewhere gets a new connection, checked as any other. An idle connection
 * is closed after `idleMs` (sooner when the receiver's Keep-Alive header
 * asks), before most servers would close it themselves.
 */
export class ReceiverConnections {
  private readonly pools = new Map<string, http.Agent>();

  constructor(
    private readonly idleMs: number,
    /** Pools kept at most; the least recently used is dropped, and its idle connections close on their own. */
    private readonly maxPools = 1024,
  ) {}

  /** The pool for `url`'s receiver at `address`, or false (a new connection per attempt) when connections are not kept. */
  agentFor(url: URL, address: string): http.Agent | false {
    if (this.idleMs === 0) return false;
    const key = `${url.protocol}//${url.host} ${address}`;
    const pool = this.pools.get(key) ?? new (url.protocol === 'https:' ? https.Agent : http.Agent)({ keepAlive: true, timeout: this.idleMs, scheduling: 'lifo' });
    // Most recently used last, so that the first is the one to drop.
    this.pools.delete(key);
    this.pools.set(key, pool);
    if (this.pools.size > this.maxPools) this.pools.delete(this.pools.keys().next().value as string);
    return pool;
  }

  /** Closes every kept connection; at shutdown, once no attempt is in flight. */
  close(): void {
    for (const pool of this.pools.values()) pool.destroy();
    this.pools.clear();
  }
}

const firstValue = (header: string | string[] | undefined): string | undefined => (Array.isArray(header) ? header[0] : header);

/**
 * The kept answer as text PostgreSQL will store: invalid UTF-8 becomes U+FFFD
 * as it decodes, and so does NUL, which a text column refuses. A receiver's
 * answer must never be what keeps its attempt from being recorded.
 */
export function keptText(bytes: Buffer): string {
  return bytes.toString('utf8').replace(/\u0000/g, '\uFFFD');
}

const ABORTED = Symbol('aborted');

/** `work`'s result, or ABORTED as soon as `signal` aborts: a resolver that never answers cannot hold an attempt past its deadline. */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T | typeof ABORTED> {
  if (signal.aborted) return Promise.resolve(ABORTED);
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<typeof ABORTED>((resolve) => {
    onAbort = () => resolve(ABORTED);
    signal.addEventListener('abort', onAbort, { once: true });
  });
  return Promise.race([work, aborted]).finally(() => signal.removeEventListener('abort', onAbort as () => void));
}
