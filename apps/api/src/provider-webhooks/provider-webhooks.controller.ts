import { Controller, HttpCode, Inject, Param, Post, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { ApiException } from '../errors/api.exception';
import { Public } from '../http/public.decorator';
import { ServiceLogger } from '../logging/logger';
import { ProviderPayments } from '../payins/provider-payments';
import { PayoutDispatcher } from '../payouts/payout-dispatcher';
import { ProviderRegistry } from '../providers/provider-registry';
import { RefundDispatcher } from '../refunds/refund-dispatcher';

/** A provider id as the registry keys them. */
const PROVIDER_ID = /^[a-z][a-z0-9-]{0,31}$/;

/**
 * Every provider's webhooks, at `/payment/provider-webhooks/{provider}`.
 * The provider's adapter authenticates the raw bytes before anything is
 * parsed, and says which object the event is about; then the event is only
 * a prompt: the payin, payout or refunds it names, of that provider only, is settled
 * on what the provider's API says now, so a duplicate, a replay or an event
 * out of order moves nothing the API does not confirm. Providers send an
 * event again until it is answered 200, so a store failure answers 503 and
 * the event comes back.
 */
@Controller('provider-webhooks')
export class ProviderWebhooksController {
  constructor(
    private readonly providers: ProviderRegistry,
    private readonly payins: ProviderPayments,
    private readonly payouts: PayoutDispatcher,
    private readonly refunds: RefundDispatcher,
    @Inject(ServiceLogger) private readonly logger: Logger,
  ) {}

  @Post(':provider')
  @Public()
  @HttpCode(200)
  async receive(@Param('provider') provider: string, @Req() request: FastifyRequest): Promise<{ received: true }> {
    const webhooks = PROVIDER_ID.test(provider) ? this.providers.webhooks(provider) : undefined;
    if (!webhooks) throw new ApiException('ROUTE_NOT_FOUND', {});
    const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
    const notice = webhooks.read(raw, request.headers);
    if ('refused' in notice) {
      if (notice.refused === 'signature') throw new ApiException('PROVIDER_SIGNATURE_INVALID', { header: notice.header, provider });
      throw new ApiException(notice.code, { detail: notice.detail });
    }
    if (notice.object === 'payin') {
      const payin = await this.payins.settleByProviderReference(provider, notice.providerReference, 'webhook');
      this.logger.info({ provider, event: notice.event, known: payin !== undefined, status: payin?.status }, 'provider webhook handled');
    } else if (notice.object === 'payout') {
      const known = await this.payouts.checkByProviderReference(provider, notice.providerReference);
      this.logger.info({ provider, event: notice.event, known }, 'provider webhook handled');
    } else if (notice.object === 'refund') {
      const checked = await this.refunds.checkByPayment(provider, notice.paymentReference);
      this.logger.info({ provider, event: notice.event, known: checked > 0, refunds: checked }, 'provider webhook handled');
    }
    return { received: true };
  }
}
