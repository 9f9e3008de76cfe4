import type { Env } from './env-values';

export interface LoggingSettings {
  /** LOG_LEVEL; default info. */
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
}

export function readLogging(env: Env, problems: string[]): LoggingSettings {
  const logLevel = (env.LOG_LEVEL ?? 'info') as LoggingSettings['logLevel'];
  if (!['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].includes(logLevel)) problems.push(`LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got "${logLevel}"`);
  return { logLevel };
}
