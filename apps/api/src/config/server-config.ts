import { envValues, type Env } from './env-values';

export interface ServerSettings {
  port: number;
  host: string;
  /** Largest request body accepted, in bytes; larger ones get 413 before they are read. */
  bodyLimitBytes: number;
  /** Most fields a body may have; the reader stops and refuses at the next one. */
  maxBodyFields: number;
  /** The whole request, body included, must arrive within this. */
  requestTimeoutMs: number;
  /** The request head must arrive within this. */
  headersTimeoutMs: number;
  /** How long an idle keep-alive connection stays open. */
  keepAliveTimeoutMs: number;
  /** A socket with no traffic at all for this long is closed. */
  connectionTimeoutMs: number;
  /** On SIGTERM, readiness fails at once and the server keeps serving this long, so that load balancers stop sending traffic first. */
  shutdownDrainMs: number;
  /** Then, connections still open this long after the server began closing are cut, so shutdown always ends. */
  shutdownGraceMs: number;
  /**
   * Fastify's trustProxy: which hops of X-Forwarded-For are proxies of ours. A
   * number trusts that many hops from the socket; a list trusts those
   * addresses. The client address is the right-most one not trusted; false
   * trusts none, and X-Forwarded-For is ignored.
   */
  trustProxy: false | number | string;
}

/** Where the service listens, what a request may cost it, and how it stops. */
export function readServer(env: Env, problems: string[]): ServerSettings {
  const { int } = envValues(env, problems);
  const server: ServerSettings = {
    port: int('PORT', 3000, 0, 65535),
    host: env.HOST || '127.0.0.1',
    bodyLimitBytes: int('BODY_LIMIT_BYTES', 65_536, 1024, 10_485_760),
    maxBodyFields: int('MAX_BODY_FIELDS', 32, 9, 1000),
    requestTimeoutMs: int('REQUEST_TIMEOUT_MS', 15_000, 1000, 300_000),
    headersTimeoutMs: int('HEADERS_TIMEOUT_MS', 10_000, 1000, 300_000),
    keepAliveTimeoutMs: int('KEEP_ALIVE_TIMEOUT_MS', 72_000, 1000, 600_000),
    connectionTimeoutMs: int('CONNECTION_TIMEOUT_MS', 120_000, 1000, 3_600_000),
    shutdownDrainMs: int('SHUTDOWN_DRAIN_MS', 5000, 0, 300_000),
    shutdownGraceMs: int('SHUTDOWN_GRACE_MS', 10_000, 0, 300_000),
    trustProxy: trustProxy(env.TRUST_PROXY, problems),
  };
  if (server.headersTimeoutMs > server.requestTimeoutMs) {
    problems.push(`HEADERS_TIMEOUT_MS (${server.headersTimeoutMs}) must not exceed REQUEST_TIMEOUT_MS (${server.requestTimeoutMs}): the head is part of the request`);
  }
  return server;
}

/**
 * TRUST_PROXY: unset or false trusts no proxy; a number trusts that many hops
 * (true is one: the proxy in front); else a comma-separated list of proxy
 * addresses or CIDR ranges. Never "every hop": the left-most addresses of
 * X-Forwarded-For are whatever the client wrote.
 */
function trustProxy(raw: string | undefined, problems: string[]): false | number | string {
  if (raw === undefined || raw === '' || raw === 'false') return false;
  if (raw === 'true') return 1;
  if (/^[0-9]+$/.test(raw)) {
    if (Number(raw) < 1 || Number(raw) > 10) problems.push(`TRUST_PROXY as a hop count must be from 1 to 10, got "${raw}"`);
    return Number(raw);
  }
  if (!/^[0-9A-Fa-f.:/,\s]+$/.test(raw)) problems.push(`TRUST_PROXY must be true, false, a hop count, or a comma-separated list of addresses or CIDR ranges, got "${raw}"`);
  return raw;
}
