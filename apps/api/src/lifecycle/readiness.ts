import type { Logger } from 'pino';

/**
 * Whether the service should be sent new traffic. It stops being ready when
 * shutdown begins, before the server stops taking connections, so that a load
 * balancer drains it first.
 */
export class Readiness {
  private isDraining = false;

  constructor(private readonly logger: Logger) {}

  get draining(): boolean {
    return this.isDraining;
  }

  beginDrain(reason: string): void {
    if (this.isDraining) return;
    this.isDraining = true;
    this.logger.info({ reason }, 'shutdown: readiness now fails, so load balancers stop sending traffic');
  }
}
