import pino, { type Logger } from 'pino';
import type { AppConfig } from '../config/app-config';

/** Injection token of the service's pino logger. */
export const ServiceLogger = Symbol('ServiceLogger');

/**
 * JSON logs. Request logs carry the request id, merchant id, outcome code,
 * status and duration only: never headers, signatures, secrets or bodies.
 *
 * Without a `destination`, lines go to standard output asynchronously: a
 * line is queued, and one write takes every line queued while the one before
 * it was in flight, rather than one blocking system call per request line.
 * Nothing waits for a batch to fill, so an idle service's lines go out at
 * once. Whatever is queued when the process exits, by `process.exit` after a
 * crash or a SIGTERM included, is written before it does (pino's flush on
 * exit, for an asynchronous destination on the main thread).
 */
export function createLogger(config: Pick<AppConfig, 'logLevel'>, destination?: pino.DestinationStream): Logger {
  return pino({ level: config.logLevel, base: { service: 'payment-api' }, timestamp: pino.stdTimeFunctions.isoTime }, destination ?? pino.destination({ dest: 1, sync: false }));
}
