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
  return pino({ level: config.logLevel, base: { service: 'payment-api' }, timestamp: isoTimeBySecond() }, destination);
}

/**
 * pino's `isoTime` field, `,"time":"2026-11-27T23:11:11.735Z"`, with the date
 * and time up to the second formatted once a second rather than once a line:
 * pino's makes a Date and its ISO string for every line, and a request
 * writes one line at least.
 */
export function isoTimeBySecond(now: () => number = Date.now): () => string {
  let second = Number.NaN;
  let prefix = '';
  return () => {
    const ms = now();
    const thisSecond = Math.floor(ms / 1000);
    if (thisSecond !== second) {
      second = thisSecond;
      const iso = new Date(thisSecond * 1000).toISOString();
      // Up to the second's dot; the milliseconds (000 here) and the Z are the line's own.
      prefix = `,"time":"${iso.slice(0, iso.length - 4)}`;
    }
    const millis = ms - thisSecond * 1000;
    return `${prefix}${millis < 10 ? '00' : millis < 100 ? '0' : ''}${millis}Z"`;
  };
}
