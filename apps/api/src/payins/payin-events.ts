import type { PayinEvent, PayinEventType } from '@paysign/contracts';
import type { EventOutbox } from '../events/event-outbox';
import type { EventTarget } from '../events/outbox-event';
import type { NewOutboxEvent } from '../events/outbox-event';
import type { CheckoutLinks } from './checkout-links';
import type { StoredPayin } from './payin-repository.interface';
import { isFinal } from './payin-states';
import { payinToContract } from './payin-view';

/** Builds the outbox row of a payin that just moved, if it has one; the payin store writes it in the transaction of the move. */
export type PayinEventOf = (moved: StoredPayin) => readonly NewOutboxEvent[];

/**
 * The events payins send, to the payin's notifyUrl or else the merchant's
 * endpoints that take them: one when a payin becomes final, on every path that makes it so
 * (checkout, simulation, expiry); and `payin.attempt_failed` when a decline
 * leaves it open, to merchants that opted in.
 */
export class PayinEvents {
  constructor(
    private readonly outbox: EventOutbox,
    private readonly links: CheckoutLinks,
    /** Where an event goes (MerchantRegistry.eventTargets), which also knows who asked for declined attempts' events. */
    private readonly targetsOf: (merchantId: string, type: PayinEventType, notifyUrl: string | null) => readonly EventTarget[] = () => [],
  ) {}

  readonly eventOf: PayinEventOf = (payin) => {
    const lastAttempt = payin.attempts.at(-1);
    // Still open after a change: the only such change that has an event is a declined attempt.
    const declinedAndOpen = payin.status === 'PENDING' && lastAttempt?.outcome === 'declined';
    if (!declinedAndOpen && !isFinal(payin.status)) return [];
    const type: PayinEventType = declinedAndOpen ? 'payin.attempt_failed' : (`payin.${payin.status.toLowerCase()}` as PayinEventType);
    return this.outbox.events<PayinEventType, PayinEvent['data']>({
      merchantId: payin.merchantId,
      objectType: 'payin',
      objectId: payin.reference,
      type,
      version: payin.version,
      occurredAt: declinedAndOpen ? lastAttempt.attemptedAt : (payin.paidAt ?? payin.failedAt ?? payin.createdAt),
      data: payinToContract(payin, this.links),
      targets: this.targetsOf(payin.merchantId, type, payin.notifyUrl),
    });
  };
}
