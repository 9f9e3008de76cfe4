import pino, { type Logger } from 'pino';
import type { AppConfig } from '../config/app-config';

/** Injection token of the service's pino logger. */
export const ServiceLogger = Symbol('ServiceLogger');

/**
 * JSON logs. Request logs carry the request id, merchant id, outcome code,
 * status and duration only: never headers, signatures, secrets or bodies.
 *
 * By default each line is written to standard output before the call that
 * logs it returns, with one `write` system call. Pino's own default queues
 * the line for an asynchronous write on libuv's thread pool instead: on a
 * busy core, waking a pool thread and taking its answer back cost several
 * times the write itself (`bench:server -- --ablate`, docs/performance.md),
 * and a line still queued when the process dies is lost.
 */
export function createLogger(config: Pick<AppConfig, 'logLevel'>, destination: pino.DestinationStream = pino.destination({ dest: 1, sync: true })): Logger {
  return pino({ level: config.logLevel, base: { service: 'payment-api' }, timestamp: pino.stdTimeFunctions.isoTime }, destination);
}
