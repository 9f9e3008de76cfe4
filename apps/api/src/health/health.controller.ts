import { Controller, Get, Inject, Res } from '@nestjs/common';
import type { Health } from '@paysign/contracts';
import type { FastifyReply } from 'fastify';
import { NonceStore } from '../nonce/nonce-store.interface';
import { PayinRepository } from '../payins/payin-repository.interface';
import { Public } from '../signing/public.decorator';

@Controller('health')
export class HealthController {
  constructor(
    @Inject(NonceStore) private readonly nonces: NonceStore,
    @Inject(PayinRepository) private readonly payins: PayinRepository,
  ) {}

  /** 200 only when every store answers and the nonce store has room. */
  @Get()
  @Public()
  async health(@Res({ passthrough: true }) reply: FastifyReply): Promise<Health> {
    const [nonceStoreAnswers, payinStore] = await Promise.all([up(this.nonces.ping()), up(this.payins.ping())]);
    const nonceStore = nonceStoreAnswers === 'up' && this.nonces.isFull() ? 'full' : nonceStoreAnswers;
    const ok = nonceStore === 'up' && payinStore === 'up';
    void reply.status(ok ? 200 : 503);
    return { status: ok ? 'ok' : 'unavailable', checks: { nonceStore, payinStore } };
  }
}

async function up(ping: Promise<void>): Promise<'up' | 'down'> {
  try {
    await ping;
    return 'up';
  } catch {
    return 'down';
  }
}
