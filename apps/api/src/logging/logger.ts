import pino, { type Logger } from 'pino';
import type { AppConfig } from '../config/app-config';

/** Injection token of the service's pino logger. */
export const ServiceLogger = Symbol('ServiceLogger');

/**
 * JSON logs. Request logs carry the request id, merchant id, outcome code,
 * status and duration only: never headers, signatures, secrets or bodies.
 */
export function createLogger(config: Pick<AppConfig, 'logLevel'>, destination?: pino.DestinationStream): Logger {
  return pino({ level: config.logLevel, base: { service: 'payment-api' }, timestamp: pino.stdTimeFunctions.isoTime }, destination);
}
