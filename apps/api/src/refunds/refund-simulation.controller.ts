import { Controller, HttpCode, Param, Post, Req } from '@nestjs/common';
import type { Refund } from '@paysign/contracts';
import type { FastifyRequest } from 'fastify';
import { ApiException } from '../errors/api.exception';
import { merchantOf } from '../http/caller';
import { checkedReference } from '../http/request-rules';
import { validateBody } from '../http/validate-body';
import { VerifiedBody } from '../http/verified-body.decorator';
import { RefundDispatcher } from './refund-dispatcher';
import { SIMULATE_REFUND_FIELDS, SimulateRefundDto, simulateRefundErrors } from './refund-requests';
import type { RefundTransition } from './refund-states';
import { refundToContract } from './refund-view';
import { RefundsService } from './refunds.service';

/**
 * Sandbox test helper: answers for the provider, through the same moves its
 * answers make (RefundDispatcher.apply). A PENDING refund is taken to
 * PROCESSING first, as the dispatcher would. Registered in sandbox mode
 * only, so production answers 404 as for any unknown path.
 */
@Controller('api/refunds')
export class RefundSimulationController {
  constructor(
    private readonly refunds: RefundsService,
    private readonly dispatcher: RefundDispatcher,
  ) {}

  @Post(':reference/simulate')
  @HttpCode(200)
  async simulate(@Param('reference') reference: string, @VerifiedBody() body: Record<string, unknown>, @Req() request: FastifyRequest): Promise<Refund> {
    const key = { merchantId: merchantOf(request), reference: checkedReference(reference) };
    const input = validateBody(SimulateRefundDto, SIMULATE_REFUND_FIELDS, body, simulateRefundErrors(body));
    const transition: RefundTransition =
      input.outcome === 'successful' ? { to: 'SUCCESSFUL' } : input.outcome === 'failed' ? { to: 'FAILED', reason: input.reason ?? 'declined_by_provider' } : { to: 'REQUIRES_ACTION' };
    let refund = await this.refunds.get(key);
    // Taken to PROCESSING as the dispatcher would; if the dispatcher took it first, it is PROCESSING anyway.
    if (refund.status === 'PENDING') refund = (await this.dispatcher.startSending(refund)) ?? (await this.refunds.get(key));
    const moved = await this.dispatcher.apply(refund, transition);
    if (moved) return refundToContract(moved);
    const current = await this.refunds.get(key);
    throw new ApiException('REFUND_TRANSITION_NOT_ALLOWED', { reference: key.reference, status: current.status, to: transition.to });
  }
}
