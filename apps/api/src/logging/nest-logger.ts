import type { LoggerService } from '@nestjs/common';
import type { Logger } from 'pino';

/** Nest's own boot chatter (modules loaded, routes mapped) is logged at debug, not info. */
const FRAMEWORK_CONTEXTS = new Set(['NestFactory', 'InstanceLoader', 'RoutesResolver', 'RouterExplorer', 'NestApplication']);

/**
 * Routes every Nest `Logger` call to the service's pino logger, so that a
 * provider's warning is a JSON line like every other, with its context.
 */
export class PinoNestLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}

  log(message: unknown, ...params: unknown[]): void {
    const context = contextOf(params);
    this.write(FRAMEWORK_CONTEXTS.has(context ?? '') ? 'debug' : 'info', message, context);
  }

  error(message: unknown, ...params: unknown[]): void {
    // Nest passes (message, stack, context) or (message, context).
    const context = contextOf(params);
    const stack = params.length >= 2 && typeof params[0] === 'string' ? params[0] : undefined;
    this.write('error', message, context, stack);
  }

  warn(message: unknown, ...params: unknown[]): void {
    this.write('warn', message, contextOf(params));
  }

  debug(message: unknown, ...params: unknown[]): void {
    this.write('debug', message, contextOf(params));
  }

  verbose(message: unknown, ...params: unknown[]): void {
    this.write('trace', message, contextOf(params));
  }

  fatal(message: unknown, ...params: unknown[]): void {
    this.write('fatal', message, contextOf(params));
  }

  private write(level: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace', message: unknown, context: string | undefined, stack?: string): void {
    const text = message instanceof Error ? message.message : String(message);
    this.logger[level]({ context, ...(stack ? { stack } : {}) }, text);
  }
}

function contextOf(params: unknown[]): string | undefined {
  const last = params[params.length - 1];
  return typeof last === 'string' ? last : undefined;
}
