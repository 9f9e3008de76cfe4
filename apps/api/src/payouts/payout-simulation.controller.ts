import { Controller, HttpCode, Param, Post, Req } from '@nestjs/common';
import type { Payout } from '@paysign/contracts';
import type { FastifyRequest } from 'fastify';
import { ApiException } from '../errors/api.exception';
import { checkedReference } from '../http/request-rules';
import { VerifiedBody } from '../http/verified-body.decorator';
import { validateBody } from '../http/validate-body';
import { PayoutDispatcher } from './payout-dispatcher';
import { SIMULATE_PAYOUT_FIELDS, SimulatePayoutDto, simulatePayoutErrors } from './payout-requests';
import type { PayoutTransition } from './payout-states';
import { payoutToContract } from './payout-view';
import { merchantOf } from '../http/caller';
import { PayoutsService } from './payouts.service';

/**
 * Sandbox test helper: answers for the provider, through the same moves its
 * answers make (PayoutDispatcher.apply). A QUEUED payout is taken to
 * PROCESSING first, as the dispatcher would. Registered in sandbox mode only,
 * so production answers 404 as for any unknown path.
 */
@Controller('api/payouts')
export class PayoutSimulationController {
  constructor(
    private readonly payouts: PayoutsService,
    private readonly dispatcher: PayoutDispatcher,
  ) {}

  @Post(':reference/simulate')
  @HttpCode(200)
  async simulate(@Param('reference') reference: string, @VerifiedBody() body: Record<string, unknown>, @Req() request: FastifyRequest): Promise<Payout> {
    const key = { merchantId: merchantOf(request), reference: checkedReference(reference) };
    const input = validateBody(SimulatePayoutDto, SIMULATE_PAYOUT_FIELDS, body, simulatePayoutErrors(body));
    const transition: PayoutTransition =
      input.outcome === 'successful'
        ? { to: 'SUCCESSFUL' }
        : input.outcome === 'failed'
          ? { to: 'FAILED', reason: input.reason ?? 'provider_error' }
          : { to: 'REVERSED', reason: input.reason ?? 'reversed_by_beneficiary_bank' };
    let payout = await this.payouts.get(key);
    // Taken to PROCESSING as the dispatcher would; if the dispatcher took it first, it is PROCESSING anyway.
    if (payout.status === 'QUEUED' && transition.to !== 'REVERSED') payout = (await this.dispatcher.startSending(payout)) ?? (await this.payouts.get(key));
    const moved = await this.dispatcher.apply(payout, transition);
    if (moved) return payoutToContract(moved);
    const current = await this.payouts.get(key);
    throw new ApiException('PAYOUT_TRANSITION_NOT_ALLOWED', { reference: key.reference, status: current.status, to: transition.to });
  }
}
