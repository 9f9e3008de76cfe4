/**
 * The per-request components `bench:server -- --ablate` switches off, one at
 * a time, to find what each costs by taking it away. Only the benchmark's
 * own entry (apps/api/bench/bench-server.ts, built beside main.js and never
 * deployed) sets them, through `CreateAppOptions.ablate` (and, for
 * `validation`, validate-body.ts's switch); the service's
 * entry never does, and no setting or request can.
 */
export const ABLATABLE = [
  /** The request's log line. */
  'log',
  /** The request's counters and latency histogram. */
  'metrics',
  /** The request id (read or generated, echoed in X-Request-Id) and the request fields declared as decorations. */
  'context',
  /** The onRequest checks of the request head (Host present, no fragment). */
  'strict',
  /** Hooks that do nothing for these routes: the public pages' and provider webhooks' address limits, Expect: 100-continue, the close-on-shutdown header. */
  'idle-hooks',
  /** The global Nest exception filter. */
  'error-filter',
  /** The API key's rate limits. */
  'rate-limit',
  /** The nonce claim. */
  'nonce',
  /** The signing pre-filter of the head; the signature check then reads the headers itself. */
  'prefilter',
  /** The background jobs (webhook deliveries, dispatchers, sweeps, store probes): what they take from the core while requests are served. The merchants' sync stays: without it the signature check fails closed. */
  'jobs',
  /** A body's validation against its DTO (class-validator); the body is taken as sent. The creates only; a module-level switch (http/validate-body.ts) that bench-server.ts alone sets. */
  'validation',
  /** A response object's serialisation to JSON: each kind of answer is serialised once, and its text sent again for every later one. Measured on the creates (the bank lists answer text written once). */
  'serialisation',
] as const;

export type Ablatable = (typeof ABLATABLE)[number];

/** The components switched off; empty in the service. */
export type Ablations = ReadonlySet<Ablatable>;

export const NO_ABLATIONS: Ablations = new Set();

/** The comma-separated list bench-server.ts reads, checked. */
export function parseAblations(text: string | undefined): Ablations {
  const names = (text ?? '').split(',').filter((name) => name !== '');
  for (const name of names) if (!(ABLATABLE as readonly string[]).includes(name)) throw new Error(`${name} is not a component to switch off; the components are ${ABLATABLE.join(', ')}`);
  return new Set(names as Ablatable[]);
}

/**
 * The reply serializer of the `serialisation` switch: the first payload of
 * each kind (its status code and its fields' names, so that a payin's answer
 * is never sent for a payout's) is serialised, and that text is what every
 * later answer of the kind carries, whatever its values. A benchmark's
 * answers only; never the service's.
 */
export function firstSerialisationRepeated(): (payload: unknown, statusCode: number) => string {
  const written = new Map<string, string>();
  return (payload, statusCode) => {
    const kind = `${statusCode} ${Array.isArray(payload) || payload === null || typeof payload !== 'object' ? typeof payload : Object.keys(payload).join(',')}`;
    let text = written.get(kind);
    if (text === undefined) {
      text = JSON.stringify(payload);
      written.set(kind, text);
    }
    return text;
  };
}
