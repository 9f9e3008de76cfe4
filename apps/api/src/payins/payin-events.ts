import type { PayinEvent, PayinEventType } from '@paysign/contracts';
import type { EventOutbox } from '../events/event-outbox';
import type { NewOutboxEvent } from '../events/outbox-event';
import type { CheckoutLinks } from './checkout-links';
import type { StoredPayin } from './payin-repository.interface';
import { isFinal } from './payin-states';
import { payinToContract } from './payin-view';

/** Builds the outbox row of a payin that just moved, if it has one; the payin store writes it in the transaction of the move. */
export type PayinEventOf = (moved: StoredPayin) => NewOutboxEvent | undefined;

/** The events payins send: one when a payin becomes final, to its notifyUrl or else the merchant's webhookUrl, on every path that makes it so (checkout, simulation, expiry). */
export class PayinEvents {
  constructor(
    private readonly outbox: EventOutbox,
    private readonly links: CheckoutLinks,
    /** The merchant's `webhookUrl`, which gets the events of payins created without a notifyUrl. */
    private readonly webhookUrlOf: (merchantId: string) => string | undefined = () => undefined,
  ) {}

  readonly eventOf: PayinEventOf = (payin) => {
    const notifyUrl = payin.notifyUrl ?? this.webhookUrlOf(payin.merchantId);
    if (!isFinal(payin.status) || !notifyUrl) return undefined;
    const type = `payin.${payin.status.toLowerCase()}` as PayinEventType;
    return this.outbox.event<PayinEventType, PayinEvent['data']>({
      merchantId: payin.merchantId,
      objectType: 'payin',
      objectId: payin.reference,
      type,
      version: payin.version,
      occurredAt: payin.paidAt ?? payin.failedAt ?? payin.createdAt,
      data: payinToContract(payin, this.links),
      notifyUrl,
    });
  };
}
