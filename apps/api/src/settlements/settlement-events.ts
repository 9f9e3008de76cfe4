import type { SettlementAccountChangedEvent, SettlementEvent, SettlementEventType } from '@paysign/contracts';
import type { EventOutbox } from '../events/event-outbox';
import type { NewOutboxEvent } from '../events/outbox-event';
import type { MerchantRegistry } from '../merchants/merchant-registry';
import type { PayoutEventOf, StoredPayout } from '../payouts/payout-rows';
import { settlementToContract } from './settlement-view';

const EVENT_OF_STATUS: Partial<Record<StoredPayout['status'], SettlementEventType>> = {
  QUEUED: 'settlement.created',
  SUCCESSFUL: 'settlement.paid',
  FAILED: 'settlement.failed',
  REVERSED: 'settlement.reversed',
};

/** A bank account as an event of the settlement account names it. */
export interface SettlementAccountOfEvent {
  bankCode: string;
  accountNumber: string;
  accountName: string;
  enquiryId: string;
}

/** A change of settlement account at one of its phases, as its event tells it. */
export interface SettlementAccountChange {
  merchantId: string;
  phase: SettlementAccountChangedEvent['data']['phase'];
  account: SettlementAccountOfEvent;
  previousAccount: SettlementAccountOfEvent | null;
  requestedAt: Date;
  effectiveAt: Date;
  /** The merchant's settlement account version after this change: one more with each. */
  version: number;
  occurredAt: Date;
}

/**
 * The events settlements send, to the merchant's endpoints that take them:
 * one when a settlement is created (its money held), and one for each
 * outcome (paid, failed, reversed); and `settlement_account.changed` at each
 * phase of a change of account, since a change nobody on the merchant's side
 * asked for is how an account takeover starts.
 */
export class SettlementEvents {
  constructor(
    private readonly outbox: EventOutbox,
    private readonly merchants: MerchantRegistry,
  ) {}

  /** The events of a settlement's transfer that just moved: PayoutEvents routes them here. */
  readonly eventOf: PayoutEventOf = (transfer) => {
    const type = EVENT_OF_STATUS[transfer.status];
    if (!type) return [];
    return this.outbox.events<SettlementEventType, SettlementEvent['data']>({
      merchantId: transfer.merchantId,
      objectType: 'settlement',
      objectId: transfer.reference,
      type,
      version: transfer.version,
      occurredAt: transfer.reversedAt ?? transfer.completedAt ?? transfer.createdAt,
      data: settlementToContract(transfer),
      targets: this.merchants.eventTargets(transfer.merchantId, type),
    });
  };

  accountChanged(change: SettlementAccountChange): NewOutboxEvent[] {
    const type = 'settlement_account.changed';
    return this.outbox.events<typeof type, SettlementAccountChangedEvent['data']>({
      merchantId: change.merchantId,
      objectType: 'settlement_account',
      objectId: change.merchantId,
      type,
      version: change.version,
      occurredAt: change.occurredAt,
      data: {
        phase: change.phase,
        account: change.account,
        previousAccount: change.previousAccount,
        requestedAt: change.requestedAt.toISOString(),
        effectiveAt: change.effectiveAt.toISOString(),
      },
      targets: this.merchants.eventTargets(change.merchantId, type),
    });
  }
}
