import type { PayoutBatchEvent, PayoutBatchEventType, PayoutEvent, PayoutEventType } from '@paysign/contracts';
import type { EventOutbox } from '../events/event-outbox';
import type { MerchantRegistry } from '../merchants/merchant-registry';
import type { PayoutBatchEventOf, StoredBatch } from './payout-batch-store';
import type { PayoutEventOf, StoredPayout } from './payout-rows';
import { payoutBatchToContract, payoutToContract } from './payout-view';

const EVENT_OF_STATUS: Partial<Record<StoredPayout['status'], PayoutEventType>> = {
  PENDING_APPROVAL: 'payout.approval_required',
  SUCCESSFUL: 'payout.successful',
  FAILED: 'payout.failed',
  REVERSED: 'payout.reversed',
  CANCELLED: 'payout.cancelled',
};

/**
 * The events payouts send: one for each outcome (successful, failed,
 * reversed, cancelled), and one when a payout outside a batch waits for
 * approval, to the payout's notifyUrl or else the merchant's webhookUrl;
 * none when neither is set. A batch's payouts are approved with their batch,
 * which sends `payout_batch.completed` to the merchant's webhookUrl when the
 * last of them is final. QUEUED and PROCESSING send none: they are not outcomes.
 */
export class PayoutEvents {
  constructor(
    private readonly outbox: EventOutbox,
    private readonly merchants: MerchantRegistry,
  ) {}

  /** The events of a settlement's transfer, which are the settlement's: given by the settlements, above payouts. */
  private settlementEventOf: PayoutEventOf = () => [];

  /** Routes the events of every settlement's transfer to `eventOf`, the settlements' own. */
  routeSettlements(eventOf: PayoutEventOf): void {
    this.settlementEventOf = eventOf;
  }

  readonly eventOf: PayoutEventOf = (payout) => {
    if (payout.purpose === 'settlement') return this.settlementEventOf(payout);
    const type = EVENT_OF_STATUS[payout.status];
    if (!type) return [];
    if (type === 'payout.approval_required' && payout.batchReference !== null) return [];
    return this.outbox.events<PayoutEventType, PayoutEvent['data']>({
      merchantId: payout.merchantId,
      objectType: 'payout',
      objectId: payout.reference,
      type,
      version: payout.version,
      occurredAt: payout.reversedAt ?? payout.completedAt ?? payout.createdAt,
      data: payoutToContract(payout),
      targets: this.merchants.eventTargets(payout.merchantId, type, payout.notifyUrl),
    });
  };

  readonly batchEventOf: PayoutBatchEventOf = (batch: StoredBatch) => {
    if (batch.status !== 'COMPLETED') return [];
    return this.outbox.events<PayoutBatchEventType, PayoutBatchEvent['data']>({
      merchantId: batch.merchantId,
      objectType: 'payout_batch',
      objectId: batch.reference,
      type: 'payout_batch.completed',
      version: batch.version,
      occurredAt: batch.completedAt ?? batch.createdAt,
      data: payoutBatchToContract(batch),
      targets: this.merchants.eventTargets(batch.merchantId, 'payout_batch.completed'),
    });
  };
}
