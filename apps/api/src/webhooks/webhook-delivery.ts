import type { EventDeliveryLog } from '@paysign/contracts';
import type { NewOutboxEvent } from '../events/outbox-event';

/** An outbox event as delivery sees it: the event, and where its delivery stands. */
export interface StoredWebhookEvent extends NewOutboxEvent {
  status: EventDeliveryLog['status'];
  attemptCount: number;
  nextAttemptAt: Date;
  lockedUntil: Date | null;
}
