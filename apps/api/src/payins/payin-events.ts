import type { PayinEvent, PayinEventType } from '@paysign/contracts';
import type { EventOutbox } from '../events/event-outbox';
import type { NewOutboxEvent } from '../events/outbox-event';
import type { CheckoutLinks } from './checkout-links';
import type { StoredPayin } from './payin-repository.interface';
import { isFinal } from './payin-states';
import { payinToContract } from './payin-view';

/** Builds the outbox row of a payin that just moved, if it has one; the payin store writes it in the transaction of the move. */
export type PayinEventOf = (moved: StoredPayin) => NewOutboxEvent | undefined;

/** The events payins send: one when a payin becomes final, to its notifyUrl, on every path that makes it so (checkout, simulation, expiry). */
export class PayinEvents {
  constructor(
    private readonly outbox: EventOutbox,
    private readonly links: CheckoutLinks,
  ) {}

  readonly eventOf: PayinEventOf = (payin) => {
    if (!isFinal(payin.status) || payin.notifyUrl === null) return undefined;
    const type = `payin.${payin.status.toLowerCase()}` as PayinEventType;
    return this.outbox.event<PayinEventType, PayinEvent['data']>({
      merchantId: payin.merchantId,
      objectType: 'payin',
      objectId: payin.reference,
      type,
      version: payin.version,
      occurredAt: payin.paidAt ?? payin.failedAt ?? payin.createdAt,
      data: payinToContract(payin, this.links),
      notifyUrl: payin.notifyUrl,
    });
  };
}
