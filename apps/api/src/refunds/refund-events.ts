import type { RefundEvent, RefundEventType, RefundStatus } from '@paysign/contracts';
import type { EventOutbox } from '../events/event-outbox';
import type { MerchantRegistry } from '../merchants/merchant-registry';
import type { RefundEventOf } from './refund-rows';
import { refundToContract } from './refund-view';

const EVENT_OF_STATUS: Record<RefundStatus, RefundEventType> = {
  PENDING: 'refund.pending',
  PROCESSING: 'refund.processing',
  REQUIRES_ACTION: 'refund.requires_action',
  SUCCESSFUL: 'refund.successful',
  FAILED: 'refund.failed',
  CANCELLED: 'refund.cancelled',
};

/**
 * The events refunds send: one for every state a refund enters, created
 * PENDING included, since each is something a merchant may act on or show
 * its customer; to the refund's notifyUrl or else the merchant's
 * endpoints that take it, and none when there are none.
 */
export class RefundEvents {
  constructor(
    private readonly outbox: EventOutbox,
    private readonly merchants: MerchantRegistry,
    /** The instant a move is reported at, for the states that record none of their own: the store's clock, which stamps the others. */
    private readonly now: () => number,
  ) {}

  readonly eventOf: RefundEventOf = (refund) => {
    const type = EVENT_OF_STATUS[refund.status];
    return this.outbox.events<RefundEventType, RefundEvent['data']>({
      merchantId: refund.merchantId,
      objectType: 'refund',
      objectId: refund.reference,
      type,
      version: refund.version,
      occurredAt: refund.completedAt ?? (refund.status === 'PENDING' ? refund.createdAt : new Date(this.now())),
      data: refundToContract(refund),
      targets: this.merchants.eventTargets(refund.merchantId, type, refund.notifyUrl),
    });
  };
}
