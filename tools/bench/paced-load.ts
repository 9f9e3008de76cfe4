// An open-loop load at a fixed rate: request i is due at start + i / rate,
// whether or not the answers before it have come back, and its latency is
// counted from when it was due, not from when a free connection sent it, so
// that a server that stalls is charged for the requests queued behind the
// stall (no coordinated omission). autocannon's rate limit is a budget per
// second instead: each connection sends back to back until its share of the
// second is spent, then waits for the next second, so "half load" is full
// load for half of each second, and its percentiles are those of saturation.
//
// The generator is lean so that its own pauses stay small beside the
// server's: raw keep-alive sockets, one request in flight on each, answers
// read by their Content-Length, and a loop that yields with setImmediate
// rather than a timer (it owns its core). It reports how late it sent.
import * as net from 'node:net';

export interface PacedRequest {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

export interface PacedFigures {
  offeredRps: number;
  achievedRps: number;
  /** Requests answered in the measured seconds. */
  requests: number;
  /** Every request sent, the first second's included: what the server's CPU time over the whole call is divided by. */
  sent: number;
  non2xx: number;
  p50Ms: number;
  p99Ms: number;
  p999Ms: number;
  /** How late the generator itself sent requests (p99 of sent minus due): when this is near the p99, the generator, not the server, set it. */
  senderLateP99Ms: number;
}

const WARMUP_SECONDS = 1;
const HEAD_END = Buffer.from('\r\n\r\n');

/** One keep-alive connection that carries one request at a time and says when each answer has fully arrived. */
class Connection {
  private buffered: Buffer = Buffer.alloc(0);
  private waiting: ((status: number) => void) | undefined;
  readonly socket: net.Socket;

  constructor(host: string, port: number, onError: (error: Error) => void) {
    this.socket = net.connect({ host, port, noDelay: true });
    this.socket.on('error', onError);
    this.socket.on('data', (chunk: Buffer) => {
      this.buffered = this.buffered.length === 0 ? chunk : Buffer.concat([this.buffered, chunk]);
      this.answerIfComplete();
    });
  }

  get busy(): boolean {
    return this.waiting !== undefined;
  }

  send(bytes: string, answered: (status: number) => void): void {
    this.waiting = answered;
    this.socket.write(bytes);
  }

  private answerIfComplete(): void {
    const headEnd = this.buffered.indexOf(HEAD_END);
    if (headEnd < 0) return;
    const head = this.buffered.subarray(0, headEnd).toString('latin1');
    const length = Number(/\r\ncontent-length:\s*(\d+)/i.exec(head)?.[1] ?? 0);
    const end = headEnd + 4 + length;
    if (this.buffered.length < end) return;
    this.buffered = this.buffered.subarray(end);
    const done = this.waiting;
    this.waiting = undefined;
    done?.(Number(head.slice(9, 12)));
  }
}

function serialize(host: string, { method, path, headers = {}, body }: PacedRequest): string {
  const lines = [`${method} ${path} HTTP/1.1`, `host: ${host}`];
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
  if (body !== undefined) lines.push(`content-length: ${Buffer.byteLength(body)}`);
  return `${lines.join('\r\n')}\r\n\r\n${body ?? ''}`;
}

/**
 * Offers `rate` requests per second for `seconds` over `connections`
 * keep-alive connections, and resolves once every answer is in. The first
 * second of the same load is not counted: the connections open and this
 * process's own code warms up then.
 */
export async function pacedLoad(
  url: string,
  request: () => PacedRequest,
  rate: number,
  seconds: number,
  connections: number,
  /** Milliseconds on a monotonic clock; a test gives one it moves itself. */
  now: () => number = () => performance.now(),
): Promise<PacedFigures> {
  const target = new URL(url);
  const warmup = Math.round(rate * WARMUP_SECONDS);
  const total = warmup + Math.max(1, Math.round(rate * seconds));
  const latencies = new Float64Array(total);
  const lateness = new Float64Array(total);
  let non2xx = 0;
  let answered = 0;
  const intervalMs = 1000 / rate;
  let failure: Error | undefined;
  const pool = Array.from({ length: connections }, () => new Connection(target.hostname, Number(target.port), (error) => (failure ??= error)));
  await Promise.all(pool.map((c) => new Promise((resolve) => c.socket.once('connect', resolve))));
  const start = now() + 5;
  const measuredFrom = start + warmup * intervalMs;
  let lastAnswerAt = start;
  /** Due requests no connection was free for, oldest first. */
  const queued: number[] = [];
  await new Promise<void>((resolve, reject) => {
    const sendOn = (connection: Connection, i: number) => {
      const due = start + i * intervalMs;
      lateness[i] = now() - due;
      connection.send(serialize(target.host, request()), (status) => {
        lastAnswerAt = now();
        latencies[i] = lastAnswerAt - due;
        if (i >= warmup && (status < 200 || status >= 300)) non2xx += 1;
        if (++answered === total) return resolve();
        const next = queued.shift();
        if (next !== undefined) sendOn(connection, next);
      });
    };
    let next = 0;
    const loop = () => {
      if (failure) return reject(failure);
      const at = now();
      while (next < total && start + next * intervalMs <= at) {
        const free = pool.find((c) => !c.busy);
        if (free && queued.length === 0) sendOn(free, next);
        else queued.push(next);
        next += 1;
      }
      if (next < total) setImmediate(loop);
    };
    setImmediate(loop);
  });
  for (const connection of pool) connection.socket.destroy();
  const sorted = (values: Float64Array) => Float64Array.from(values).sort();
  const percentile = (values: Float64Array, p: number) => Math.round((values[Math.min(values.length - 1, Math.floor(p * values.length))] as number) * 10) / 10;
  const byLatency = sorted(latencies.subarray(warmup));
  return {
    offeredRps: rate,
    achievedRps: Math.round((total - warmup) / ((lastAnswerAt - measuredFrom) / 1000)),
    requests: total - warmup,
    sent: total,
    non2xx,
    p50Ms: percentile(byLatency, 0.5),
    p99Ms: percentile(byLatency, 0.99),
    p999Ms: percentile(byLatency, 0.999),
    senderLateP99Ms: percentile(sorted(lateness.subarray(warmup)), 0.99),
  };
}
