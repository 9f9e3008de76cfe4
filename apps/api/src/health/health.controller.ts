import { Controller, Get, Inject, Res } from '@nestjs/common';
import type { Health } from '@paysign/contracts';
import type { FastifyReply } from 'fastify';
import { Readiness } from '../lifecycle/readiness';
import { NonceStore } from '../nonce/nonce-store.interface';
import { Public } from '../http/public.decorator';
import { StoreHealth } from './store-health';
import { ProviderHealth } from '../upstream/provider-circuit';

type Check = Health['checks'][string];

@Controller('health')
export class HealthController {
  /** A service that has booted is ready until a check says otherwise. */
  private lastReady = true;

  constructor(
    @Inject(NonceStore) private readonly nonces: NonceStore,
    private readonly stores: StoreHealth<'nonceStore' | 'payinStore'>,
    private readonly readiness: Readiness,
    @Inject(ProviderHealth) private readonly providers: ProviderHealth,
  ) {}

  /** Liveness: the process answers. A restart would not help any other failure. */
  @Get('live')
  @Public()
  live(): Health {
    return { status: 'ok', checks: {} };
  }

  /**
   * Readiness: every store answers, the nonce store has room, and shutdown has
   * not begun. Each upstream provider's circuit is shown, `degraded` while
   * open, and never fails readiness. Whether a store answers is what its last operation met, a
   * request's or the background ping's (StoreHealth): no store is asked here.
   */
  @Get('ready')
  @Public()
  ready(@Res({ passthrough: true }) reply: FastifyReply): Health {
    const { nonceStore, payinStore } = this.stores.state();
    const checks: Record<string, Check> = {
      nonceStore: nonceStore === 'up' && this.nonces.isFull() ? 'full' : nonceStore,
      payinStore,
      lifecycle: this.readiness.draining ? 'draining' : 'up',
    };
    // Shown, never counted: a provider outage must not take every instance out of the balancer.
    for (const [provider, state] of Object.entries(this.providers())) checks[`provider:${provider}`] = state;
    const ready = Object.values(checks).every((check) => check === 'up' || check === 'degraded');
    this.reportChange(ready, checks, reply);
    void reply.status(ready ? 200 : 503);
    return { status: ready ? 'ok' : 'unavailable', checks };
  }

  /** The readiness answer under its first name, kept for existing probes. */
  @Get()
  @Public()
  health(@Res({ passthrough: true }) reply: FastifyReply): Health {
    return this.ready(reply);
  }

  private reportChange(ready: boolean, checks: Record<string, Check>, reply: FastifyReply): void {
    if (ready === this.lastReady) return;
    if (ready) reply.log.info({ checks }, 'readiness: ready again');
    else reply.log.warn({ checks }, 'readiness: not ready');
    this.lastReady = ready;
  }
}
