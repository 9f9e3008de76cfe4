import { Controller, HttpCode, Inject, Post, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { ApiException } from '../errors/api.exception';
import { Public } from '../http/public.decorator';
import { ServiceLogger } from '../logging/logger';
import { ProviderPayments } from '../payins/provider-payments';
import { PayoutDispatcher } from '../payouts/payout-dispatcher';
import { PaystackApi } from '../paystack/paystack-api';
import { providerReferenceOf } from '../paystack/paystack-payout.provider';

/** The transfer events, each a prompt to verify the transfer (https://paystack.com/docs/payments/webhooks/#types-of-events). */
const TRANSFER_EVENTS = new Set(['transfer.success', 'transfer.failed', 'transfer.reversed']);

/**
 * Paystack's webhooks. The signature is checked over the raw bytes before
 * anything is parsed; then the event is only a prompt: the payin or payout
 * it names is settled on what Paystack's API says now, so a duplicate, a
 * replay or an event out of order moves nothing the API does not confirm.
 * Paystack sends an event again until it is answered 200
 * (https://paystack.com/docs/payments/webhooks/#retries), so a store failure
 * answers 503 and the event comes back.
 */
@Controller('provider-webhooks')
export class PaystackWebhooksController {
  constructor(
    private readonly paystack: PaystackApi,
    private readonly payins: ProviderPayments,
    private readonly payouts: PayoutDispatcher,
    @Inject(ServiceLogger) private readonly logger: Logger,
  ) {}

  @Post('paystack')
  @Public()
  @HttpCode(200)
  async receive(@Req() request: FastifyRequest): Promise<{ received: true }> {
    const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
    const signature = request.headers['x-paystack-signature'];
    if (!this.paystack.signatureMatches(raw, typeof signature === 'string' ? signature : undefined)) {
      throw new ApiException('PROVIDER_SIGNATURE_INVALID', { header: 'x-paystack-signature', provider: 'paystack' });
    }
    const event = parseEvent(raw);
    const reference = event.data?.reference;
    if (typeof reference !== 'string' || reference.length === 0 || reference.length > 100) return { received: true };

    if (event.event === 'charge.success') {
      const payin = await this.payins.settleByProviderReference(reference, 'webhook');
      this.logger.info({ provider: 'paystack', event: event.event, known: payin !== undefined, status: payin?.status }, 'provider webhook handled');
    } else if (typeof event.event === 'string' && TRANSFER_EVENTS.has(event.event)) {
      // Paystack has our PSX-… references in lower case.
      const ours = providerReferenceOf(reference);
      const known = ours !== undefined && (await this.payouts.checkByProviderReference(ours));
      this.logger.info({ provider: 'paystack', event: event.event, known }, 'provider webhook handled');
    }
    return { received: true };
  }
}

function parseEvent(raw: Buffer): { event?: unknown; data?: { reference?: unknown } } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw.toString('utf8'));
  } catch {
    throw new ApiException('INVALID_JSON', { detail: 'The body is not JSON.' });
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new ApiException('BODY_NOT_OBJECT', { detail: 'The body is JSON but not an object.' });
  return parsed as { event?: unknown; data?: { reference?: unknown } };
}
