import { Controller, HttpCode, Param, Post, Req } from '@nestjs/common';
import type { Payout } from '@paysign/contracts';
import type { FastifyRequest } from 'fastify';
import { checkedReference } from '../http/request-rules';
import { VerifiedBody } from '../http/verified-body.decorator';
import { validateBody } from '../http/validate-body';
import type { SimulatedTransferOutcome } from '../providers/sandbox/sandbox-payout-transfers';
import { SIMULATE_PAYOUT_FIELDS, SimulatePayoutDto, simulatePayoutErrors } from './payout-requests';
import { PayoutSimulation } from './payout-simulation';
import { payoutToContract } from './payout-view';
import { merchantOf } from '../http/caller';

/**
 * Sandbox test helper: answers for the sandbox provider, in its own books
 * first and then through the same moves its answers make (PayoutSimulation).
 * Registered in sandbox mode only, so production answers 404 as for any
 * unknown path.
 */
@Controller('api/payouts')
export class PayoutSimulationController {
  constructor(private readonly simulation: PayoutSimulation) {}

  @Post(':reference/simulate')
  @HttpCode(200)
  async simulate(@Param('reference') reference: string, @VerifiedBody() body: Record<string, unknown>, @Req() request: FastifyRequest): Promise<Payout> {
    const key = { merchantId: merchantOf(request), reference: checkedReference(reference) };
    const input = validateBody(SimulatePayoutDto, SIMULATE_PAYOUT_FIELDS, body, simulatePayoutErrors(body));
    const simulated: SimulatedTransferOutcome =
      input.outcome === 'successful'
        ? { outcome: 'successful' }
        : input.outcome === 'failed'
          ? { outcome: 'failed', reason: input.reason ?? 'provider_error' }
          : { outcome: 'reversed', reason: input.reason ?? 'reversed_by_beneficiary_bank' };
    return payoutToContract(await this.simulation.simulate(key, simulated));
  }
}
