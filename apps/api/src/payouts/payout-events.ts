import type { PayoutEvent, PayoutEventType } from '@paysign/contracts';
import type { EventOutbox } from '../events/event-outbox';
import type { MerchantRegistry } from '../merchants/merchant-registry';
import type { PayoutEventOf, StoredPayout } from './payout-store';
import { payoutToContract } from './payout-view';

const EVENT_OF_STATUS: Partial<Record<StoredPayout['status'], PayoutEventType>> = {
  SUCCESSFUL: 'payout.successful',
  FAILED: 'payout.failed',
  REVERSED: 'payout.reversed',
  CANCELLED: 'payout.cancelled',
};

/**
 * The events payouts send: one for each outcome (successful, failed,
 * reversed, cancelled), to the payout's notifyUrl or else the merchant's
 * webhookUrl; none when neither is set. PROCESSING sends none: it is not an outcome.
 */
export class PayoutEvents {
  constructor(
    private readonly outbox: EventOutbox,
    private readonly merchants: MerchantRegistry,
  ) {}

  readonly eventOf: PayoutEventOf = (payout) => {
    const type = EVENT_OF_STATUS[payout.status];
    const notifyUrl = payout.notifyUrl ?? this.merchants.webhookUrlOf(payout.merchantId);
    if (!type || !notifyUrl) return undefined;
    return this.outbox.event<PayoutEventType, PayoutEvent['data']>({
      merchantId: payout.merchantId,
      objectType: 'payout',
      objectId: payout.reference,
      type,
      version: payout.version,
      occurredAt: payout.reversedAt ?? payout.completedAt ?? payout.createdAt,
      data: payoutToContract(payout),
      notifyUrl,
    });
  };
}
