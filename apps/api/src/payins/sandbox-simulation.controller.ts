import { Controller, HttpCode, Param, Post, Req } from '@nestjs/common';
import type { Payin } from '@paysign/contracts';
import type { FastifyRequest } from 'fastify';
import { ApiException } from '../errors/api.exception';
import { VerifiedBody } from '../http/verified-body.decorator';
import { validateBody } from '../http/validate-body';
import { checkedReference } from '../http/request-rules';
import { PayinsService } from './payins.service';
import { SIMULATE_PAYIN_FIELDS, SimulatePayinDto, declineOf, simulateFieldErrors, transitionOf } from './simulate-payin.dto';

/**
 * Sandbox test helper, like Stripe's test helpers: drives a payin to a final
 * state through the same transition as the checkout page. Registered in
 * sandbox mode only, so production answers 404 as for any unknown path.
 */
@Controller('api/payins')
export class SandboxSimulationController {
  constructor(private readonly payins: PayinsService) {}

  @Post(':reference/simulate')
  @HttpCode(200)
  async simulate(@Param('reference') reference: string, @VerifiedBody() body: Record<string, unknown>, @Req() request: FastifyRequest): Promise<Payin> {
    const merchant = request.merchant as NonNullable<FastifyRequest['merchant']>;
    const key = { merchantId: merchant.merchantId, reference: checkedReference(reference) };
    const input = validateBody(SimulatePayinDto, SIMULATE_PAYIN_FIELDS, body, simulateFieldErrors(body));
    if (input.outcome === 'declined') {
      // As a declined card at checkout: on the payin's channel, or by card when it offers every one.
      const channel = (await this.payins.find(key)).gateway ?? 'card';
      const result = await this.payins.attempt(key, { channel, outcome: 'declined', declineReason: declineOf(input, channel) });
      if (!result.recorded) throw new ApiException('PAYIN_NOT_PENDING', { reference, status: result.payin.status });
      return this.payins.toContract(result.payin);
    }
    const result = await this.payins.transition(key, transitionOf({ ...input, outcome: input.outcome }));
    if (!result.moved) throw new ApiException('PAYIN_NOT_PENDING', { reference, status: result.payin.status });
    return this.payins.toContract(result.payin);
  }
}
