import type { PayoutFailureReason, RefundFailureReason } from '@paysign/contracts';
import type { SqlClient } from '../db/sql-client';
import type { Actor, MerchantStore } from '../merchants/merchant-store';
import type { PayinEvents } from '../payins/payin-events';
import type { PayinRepository } from '../payins/payin-repository.interface';
import { isFinal as payinIsFinal } from '../payins/payin-states';
import type { ProviderPayments } from '../payins/provider-payments';
import type { PayoutDispatcher } from '../payouts/payout-dispatcher';
import type { PayoutStore } from '../payouts/payout-store';
import type { RefundDispatcher } from '../refunds/refund-dispatcher';
import type { RefundStore } from '../refunds/refund-store';
import type { AttentionKind } from './attention-list';

/**
 * What an operator decides about an object the provider did not settle,
 * having confirmed it with the provider outside the service (its dashboard,
 * its support): the object moves as a provider's answer would move it, with
 * its journals and its event, or, for one already final, the flag is lowered.
 */
export const RESOLUTIONS = ['successful', 'failed', 'abandoned', 'reversed', 'acknowledged'] as const;
export type Resolution = (typeof RESOLUTIONS)[number];

/** An operator's mistake or an impossible move: nothing was changed. */
export class AttentionRefusal extends Error {}

/** An object's state as the command prints it. */
export interface AttentionState {
  kind: AttentionKind;
  merchantId: string;
  reference: string;
  status: string;
  needsAttention: boolean;
}

/** The parts of the service the actions run on, taken from the running app. */
export interface AttentionParts {
  client: SqlClient;
  merchants: MerchantStore;
  payins: PayinRepository;
  payinEvents: PayinEvents;
  providerPayments: ProviderPayments;
  payouts: PayoutStore;
  payoutDispatcher: PayoutDispatcher;
  refunds: RefundStore;
  refundDispatcher: RefundDispatcher;
  now: () => Date;
}

const TABLE: Record<AttentionKind, string> = { payin: 'payins', payout: 'payouts', refund: 'refunds' };
const FINAL: Record<AttentionKind, readonly string[]> = {
  payin: ['SUCCESSFUL', 'FAILED', 'ABANDONED', 'CANCELLED'],
  payout: ['SUCCESSFUL', 'FAILED', 'REVERSED', 'CANCELLED'],
  refund: ['SUCCESSFUL', 'FAILED', 'CANCELLED'],
};

/**
 * The operator's actions on an object that needs attention: ask its
 * provider of record now (requery), or resolve it with a reason. Each is
 * recorded in the audit trail (`merchants audit`) with who ran it.
 */
export class AttentionActions {
  constructor(
    private readonly parts: AttentionParts,
    private readonly actor: Actor,
  ) {}

  /** Asks the object's provider of record now, as its scheduled checks do; the provider's answer settles it, or it stays as it was. */
  async requery(kind: AttentionKind, key: { merchantId: string; reference: string }): Promise<AttentionState> {
    const before = await this.state(kind, key);
    switch (kind) {
      case 'payin': {
        const payin = await this.found(this.parts.payins.find(key), kind, key);
        await this.parts.providerPayments.settle(payin, 'schedule');
        break;
      }
      case 'payout':
        await this.parts.payoutDispatcher.checkNow(await this.found(this.parts.payouts.find(key), kind, key));
        break;
      case 'refund':
        await this.parts.refundDispatcher.checkNow(await this.found(this.parts.refunds.find(key), kind, key));
        break;
    }
    const after = await this.state(kind, key);
    await this.parts.merchants.audit(this.parts.client, this.actor, 'attention.requery', { merchantId: key.merchantId, subject: `${kind} ${key.reference}`, detail: { statusBefore: before.status, statusAfter: after.status } });
    return after;
  }

  /**
   * Moves the object as the operator found it settled at the provider
   * (`successful`, `failed`, `abandoned` for a payin, `reversed` for a paid
   * payout), through the same store moves as a provider's answer, with their
   * journals and events; `acknowledged` lowers the flag of an object whose
   * state stays as it is. The reason goes to the audit trail.
   */
  async resolve(kind: AttentionKind, key: { merchantId: string; reference: string }, resolution: Resolution, reason: string, failureReason?: string): Promise<AttentionState> {
    const before = await this.state(kind, key);
    if (!before.needsAttention) throw new AttentionRefusal(`${kind} ${key.reference} of ${key.merchantId} does not need attention (it is ${before.status}); nothing was changed.`);
    // Lowering the flag of an object still in flight would leave it unchecked for ever: it is settled first, by a move or its provider.
    if (resolution === 'acknowledged' && !FINAL[kind].includes(before.status)) {
      throw new AttentionRefusal(`${kind} ${key.reference} is ${before.status}, still in flight: acknowledged is only for a final object. Requery it, or resolve it with its outcome.`);
    }
    if (resolution !== 'acknowledged') await this.move(kind, key, resolution, failureReason);
    // The move lowers the flag of a final state; an acknowledgement lowers it alone.
    await this.parts.client.query(`UPDATE ${TABLE[kind]} SET needs_attention = false WHERE merchant_id = $1 AND reference = $2`, [key.merchantId, key.reference]);
    const after = await this.state(kind, key);
    await this.parts.merchants.audit(this.parts.client, this.actor, 'attention.resolve', {
      merchantId: key.merchantId,
      subject: `${kind} ${key.reference}`,
      detail: { resolution, reason, statusBefore: before.status, statusAfter: after.status, ...(failureReason ? { failureReason } : {}) },
    });
    return after;
  }

  private async move(kind: AttentionKind, key: { merchantId: string; reference: string }, resolution: Exclude<Resolution, 'acknowledged'>, failureReason: string | undefined): Promise<void> {
    const refused = (status: string) => new AttentionRefusal(`${kind} ${key.reference} is ${status} and cannot be resolved as ${resolution}; ${kind === 'payin' ? 'a PENDING payin can be successful, failed or abandoned' : kind === 'payout' ? 'a PROCESSING payout can be successful or failed, a SUCCESSFUL one reversed' : 'a PROCESSING refund can be successful or failed'}, and any can be acknowledged.`);
    switch (kind) {
      case 'payin': {
        const payin = await this.found(this.parts.payins.find(key), kind, key);
        if (payinIsFinal(payin.status) || !['successful', 'failed', 'abandoned'].includes(resolution)) throw refused(payin.status);
        const transition = resolution === 'successful' ? ({ to: 'SUCCESSFUL' } as const) : resolution === 'failed' ? ({ to: 'FAILED', reason: (failureReason ?? 'card_declined') as 'card_declined' } as const) : ({ to: 'ABANDONED' } as const);
        const moved = await this.parts.payins.transition(payin, transition, this.parts.now(), this.parts.payinEvents.eventOf, { confirmedByProvider: transition.to !== 'ABANDONED' });
        if (!moved) throw new AttentionRefusal(`payin ${key.reference} moved meanwhile; read it again.`);
        return;
      }
      case 'payout': {
        const payout = await this.found(this.parts.payouts.find(key), kind, key);
        const reason = (failureReason ?? 'provider_error') as PayoutFailureReason;
        const transition =
          payout.status === 'PROCESSING' && resolution === 'successful'
            ? ({ to: 'SUCCESSFUL' } as const)
            : payout.status === 'PROCESSING' && resolution === 'failed'
              ? ({ to: 'FAILED', reason } as const)
              : payout.status === 'SUCCESSFUL' && resolution === 'reversed'
                ? ({ to: 'REVERSED', reason } as const)
                : undefined;
        if (!transition) throw refused(payout.status);
        if (!(await this.parts.payoutDispatcher.apply(payout, transition))) throw new AttentionRefusal(`payout ${key.reference} moved meanwhile; read it again.`);
        return;
      }
      case 'refund': {
        const refund = await this.found(this.parts.refunds.find(key), kind, key);
        if (refund.status !== 'PROCESSING' || !['successful', 'failed'].includes(resolution)) throw refused(refund.status);
        const transition = resolution === 'successful' ? ({ to: 'SUCCESSFUL' } as const) : ({ to: 'FAILED', reason: (failureReason ?? 'provider_error') as RefundFailureReason } as const);
        if (!(await this.parts.refundDispatcher.apply(refund, transition))) throw new AttentionRefusal(`refund ${key.reference} moved meanwhile; read it again.`);
        return;
      }
    }
  }

  async state(kind: AttentionKind, key: { merchantId: string; reference: string }): Promise<AttentionState> {
    const { rows } = await this.parts.client.query<{ status: string; needs_attention: boolean }>(`SELECT status, needs_attention FROM ${TABLE[kind]} WHERE merchant_id = $1 AND reference = $2`, [key.merchantId, key.reference]);
    const [row] = rows;
    if (!row) throw new AttentionRefusal(`No ${kind} ${key.reference} of merchant ${key.merchantId}; attention list shows the objects that need attention.`);
    return { kind, ...key, status: row.status, needsAttention: row.needs_attention === true };
  }

  private async found<T>(lookup: Promise<T | undefined>, kind: AttentionKind, key: { merchantId: string; reference: string }): Promise<T> {
    const found = await lookup;
    if (!found) throw new AttentionRefusal(`No ${kind} ${key.reference} of merchant ${key.merchantId}.`);
    return found;
  }
}
