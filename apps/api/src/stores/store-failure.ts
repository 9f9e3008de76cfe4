/** The stores a request can find unreachable; each is named in the 503 it gets. */
export type StoreName = 'nonce store' | 'payin store' | 'rate-limit store';

/**
 * A store that did not answer: its driver or its connection failed. The one
 * error the service answers with `503 STORE_UNAVAILABLE`, and the one that
 * marks a store down. Anything else thrown while using a store is a bug in
 * the service, answered 500 with its stack logged, and the store stays up.
 */
export class StoreUnavailableError extends Error {
  override readonly name = 'StoreUnavailableError';

  constructor(
    readonly store: StoreName,
    options: { cause: unknown },
  ) {
    super(`${store} unavailable: ${options.cause instanceof Error ? options.cause.message : String(options.cause)}`, options);
  }
}

/** A command that did not answer in time; raised by the stores' own timeouts. */
export class StoreTimeoutError extends Error {
  override readonly name = 'StoreTimeoutError';
}

/** Node's socket and resolver failures: the store's host cannot be reached, or dropped the connection. */
const CONNECTION_ERROR_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ECONNABORTED', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOSPC', 'EIO', 'EROFS']);

/**
 * SQLSTATE classes and codes that say the database cannot serve now, rather
 * than that our statement is wrong: connection exceptions (08), insufficient
 * resources (53), operator intervention such as a shutdown or a statement
 * timeout (57), system errors (58), and the transient conflicts a retry
 * settles (40001 serialization failure, 40P01 deadlock, 55P03 lock not available).
 */
const UNAVAILABLE_SQLSTATE_CLASSES = new Set(['08', '53', '57', '58']);
const UNAVAILABLE_SQLSTATES = new Set(['40001', '40P01', '55P03']);

/** node-postgres and PGlite failures that carry no code: a pool or connection that is gone. */
const SQL_DRIVER_MESSAGES = [
  /^Connection terminated/,
  /^timeout exceeded when trying to connect/,
  /^Query read timeout/,
  /connection error and is not queryable/,
  /^Cannot use a pool after calling end/,
  /^Client was closed and is not queryable/,
  /^PGlite is closed/,
];

/** @redis/client's connection failures, by class name: its classes set no `name` of their own. */
const REDIS_CONNECTION_ERRORS = new Set([
  'ConnectionTimeoutError',
  'SocketTimeoutError',
  'ClientClosedError',
  'ClientOfflineError',
  'DisconnectsClientError',
  'SocketClosedUnexpectedlyError',
  'ReconnectStrategyError',
  'SocketTimeoutDuringMaintenanceError',
  'CommandTimeoutDuringMaintenanceError',
]);
/** Redis replies that mean the server cannot serve now (loading, busy script, failover, out of memory). */
const REDIS_UNAVAILABLE_REPLY = /^(LOADING|BUSY|MASTERDOWN|READONLY|TRYAGAIN|CLUSTERDOWN|OOM)\b/;

/** Whether `error` says a store could not answer, as opposed to a bug of ours met while using it. */
export function isStoreFailure(error: unknown): boolean {
  if (error instanceof StoreUnavailableError || error instanceof StoreTimeoutError) return true;
  if (!(error instanceof Error)) return false;
  const { code } = error as { code?: unknown };
  if (typeof code === 'string') {
    if (CONNECTION_ERROR_CODES.has(code)) return true;
    if (/^[0-9A-Z]{5}$/.test(code)) return UNAVAILABLE_SQLSTATES.has(code) || UNAVAILABLE_SQLSTATE_CLASSES.has(code.slice(0, 2));
  }
  if (REDIS_CONNECTION_ERRORS.has(error.constructor.name)) return true;
  if (error.constructor.name === 'ErrorReply' && REDIS_UNAVAILABLE_REPLY.test(error.message)) return true;
  if (SQL_DRIVER_MESSAGES.some((pattern) => pattern.test(error.message))) return true;
  // A driver that wraps the socket error keeps it as the cause.
  return error.cause !== undefined && error.cause !== error && isStoreFailure(error.cause);
}
