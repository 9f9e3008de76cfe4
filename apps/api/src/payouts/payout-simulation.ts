import { Injectable } from '@nestjs/common';
import type { PayoutStatus } from '@paysign/contracts';
import { ApiException } from '../errors/api.exception';
import { ProviderRegistry } from '../providers/provider-registry';
import { SandboxPayoutTransfers, type SimulatedTransferOutcome } from '../providers/sandbox/sandbox-payout-transfers';
import { PayoutDispatcher } from './payout-dispatcher';
import type { PayoutKey, StoredPayout } from './payout-rows';
import type { PayoutTransition } from './payout-states';
import { PayoutsService } from './payouts.service';

/**
 * The sandbox's simulation of a payout's outcome, kept to what the sandbox
 * provider's books say: the outcome is written there first, as the
 * provider's own word on the transfer, and only then does the payout make
 * the move that word makes (PayoutDispatcher.apply). A transfer the
 * provider already made otherwise (a send under way that was answered, a
 * documented account's outcome) is not contradicted: the simulation is
 * refused, and the send's answer or the next status check settles the
 * payout by the books. So a status check after a simulation always agrees
 * with the payout, and the sandbox never shows what production could not.
 */
@Injectable()
export class PayoutSimulation {
  constructor(
    private readonly payouts: PayoutsService,
    private readonly dispatcher: PayoutDispatcher,
    private readonly providers: ProviderRegistry,
  ) {}

  /** Resolves the payout as the simulated outcome left it; PAYOUT_TRANSITION_NOT_ALLOWED (409) when its state or the provider's books do not allow it. */
  async simulate(key: PayoutKey, simulated: SimulatedTransferOutcome): Promise<StoredPayout> {
    const transition: PayoutTransition = simulated.outcome === 'successful' ? { to: 'SUCCESSFUL' } : simulated.outcome === 'failed' ? { to: 'FAILED', reason: simulated.reason } : { to: 'REVERSED', reason: simulated.reason };
    // A transfer is made or failed while PROCESSING, and returned once SUCCESSFUL.
    const from: PayoutStatus = simulated.outcome === 'reversed' ? 'SUCCESSFUL' : 'PROCESSING';
    let payout = await this.payouts.get(key);
    // Taken to PROCESSING as the dispatcher would, through the sandbox provider only; if the dispatcher took it first, it is PROCESSING anyway.
    if (payout.status === 'QUEUED' && from === 'PROCESSING' && this.sandboxBooks(this.providers.selection.payouts)) payout = (await this.dispatcher.startSending(payout)) ?? (await this.payouts.get(key));
    const books = this.sandboxBooks(payout.provider ?? this.providers.selection.payouts);
    if (payout.status !== from || payout.providerReference === null || !books) throw refused(key, payout, transition);
    const written = await books.recordSimulatedOutcome({ ...payout, providerReference: payout.providerReference }, simulated);
    if (!written.recorded) throw refused(key, payout, transition);
    const moved = await this.dispatcher.apply(payout, transition);
    if (moved) return moved;
    // The send's answer, read from the same books, may have made the same move first.
    const now = await this.payouts.get(key);
    if (now.status === transition.to && ('reason' in transition ? now.failureReason === transition.reason : true)) return now;
    throw refused(key, now, transition);
  }

  /** The sandbox provider's books, when `provider` is the sandbox's: no other provider's state can be simulated truthfully. */
  private sandboxBooks(provider: string | null): SandboxPayoutTransfers | undefined {
    const adapter = provider === null ? undefined : this.providers.payouts(provider);
    return adapter instanceof SandboxPayoutTransfers ? adapter : undefined;
  }
}

function refused(key: PayoutKey, payout: StoredPayout, transition: PayoutTransition): ApiException {
  return new ApiException('PAYOUT_TRANSITION_NOT_ALLOWED', { reference: key.reference, status: payout.status, to: transition.to });
}
