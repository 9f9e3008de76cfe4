import type { FastifyBaseLogger } from 'fastify';
import type { Bindings, ChildLoggerOptions, LevelWithSilentOrString } from 'pino';

/**
 * `request.log`: pino's child of the service's logger, with the request id
 * bound, made when a line is first written through it, not for every
 * request. pino's `child()` serialises its bindings and rebuilds every level
 * method, about 8 % of an unsigned request's CPU in
 * `bench:server -- --rate-fraction 0.5 --profile`, for a logger that most
 * requests never write to: the request's own line goes on the service's
 * logger, with the same `reqId` first (request-hooks.ts), so it reads
 * byte for byte as the child's would.
 */
export class RequestLogger implements FastifyBaseLogger {
  private made: FastifyBaseLogger | undefined;

  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {}

  get level(): LevelWithSilentOrString {
    return this.logger.level;
  }

  set level(level: LevelWithSilentOrString) {
    this.logger.level = level;
  }

  fatal(...line: unknown[]): void {
    Reflect.apply(this.logger.fatal, this.logger, line);
  }

  error(...line: unknown[]): void {
    Reflect.apply(this.logger.error, this.logger, line);
  }

  warn(...line: unknown[]): void {
    Reflect.apply(this.logger.warn, this.logger, line);
  }

  info(...line: unknown[]): void {
    Reflect.apply(this.logger.info, this.logger, line);
  }

  debug(...line: unknown[]): void {
    Reflect.apply(this.logger.debug, this.logger, line);
  }

  trace(...line: unknown[]): void {
    Reflect.apply(this.logger.trace, this.logger, line);
  }

  silent(...line: unknown[]): void {
    Reflect.apply(this.logger.silent, this.logger, line);
  }

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.logger.child(bindings, options);
  }

  private get logger(): FastifyBaseLogger {
    this.made ??= this.parent.child(this.bindings, this.options);
    return this.made;
  }
}

/** Fastify's `childLoggerFactory`: each request's logger, made only when used. */
export function requestLogger(parent: FastifyBaseLogger, bindings: Bindings, options: ChildLoggerOptions): FastifyBaseLogger {
  return new RequestLogger(parent, bindings, options);
}
