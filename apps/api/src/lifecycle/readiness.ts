import type { Logger } from 'pino';

/**
 * Whether the service should be sent new traffic. It stops being ready when
 * shutdown begins, before the server stops taking connections, so that a load
 * balancer drains it first.
 */
export class Readiness {
  private drainingSince: number | undefined;

  constructor(private readonly logger: Logger) {}

  get draining(): boolean {
    return this.drainingSince !== undefined;
  }

  beginDrain(reason: string): void {
    if (this.draining) return;
    this.drainingSince = Date.now();
    this.logger.info({ reason }, 'shutdown: readiness now fails, so load balancers stop sending traffic');
  }
}
