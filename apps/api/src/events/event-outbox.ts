import type { SqlQueryable } from '../db/sql-client';
import { sqlNowPlus, type StoreClock } from '../db/store-clock';
import { newEventId, type EventEnvelope, type EventTarget, type NewOutboxEvent } from './outbox-event';

/** What a feature says about a change it is committing; the outbox makes the event of it. */
export interface EventOfChange<Type extends string, Data> {
  merchantId: string;
  objectType: string;
  objectId: string;
  type: Type;
  version: number;
  occurredAt: Date;
  data: Data;
  /** Where it goes (MerchantRegistry.eventTargets): one row, with its own webhook-id, per target. */
  targets: readonly EventTarget[];
}

/**
 * The transactional outbox, as every feature writes to it: `events` builds the
 * rows of a change, one per target, and `write` inserts it on the feature's own transaction.
 * Delivery is the webhooks module's, which reads the same rows.
 */
export class EventOutbox {
  constructor(private readonly options: { firstAttemptDelayMs: number; storeClock: StoreClock }) {}

  events<Type extends string, Data>(change: EventOfChange<Type, Data>): NewOutboxEvent[] {
    const envelope: EventEnvelope<Type, Data> = { type: change.type, version: change.version, timestamp: change.occurredAt.toISOString(), data: change.data };
    const payload = JSON.stringify(envelope);
    return change.targets.map((target) => ({
      id: newEventId(),
      merchantId: change.merchantId,
      objectType: change.objectType,
      objectId: change.objectId,
      type: change.type,
      version: change.version,
      payload,
      notifyUrl: target.notifyUrl,
      endpointId: target.endpointId ?? null,
      createdAt: change.occurredAt,
    }));
  }

  /** Inserts the events on `tx`, the transaction of the change they report, in one statement; each first delivery is due after the first delay of the schedule, by the store's clock. */
  async writeMany(tx: SqlQueryable, events: readonly NewOutboxEvent[]): Promise<void> {
    if (events.length === 0) return;
    const params: unknown[] = [];
    const due = sqlNowPlus(this.options.storeClock, params, this.options.firstAttemptDelayMs);
    const rows = events.map((event) => {
      const values = [event.id, event.merchantId, event.objectType, event.objectId, event.type, event.version, event.payload, event.notifyUrl, event.endpointId, event.createdAt.toISOString()].map((value) => `$${params.push(value)}`);
      return `(${values.join(', ')}::timestamptz, 'pending', ${due})`;
    });
    await tx.query(`INSERT INTO outbox_events (id, merchant_id, object_type, object_id, type, version, payload, notify_url, endpoint_id, created_at, status, next_attempt_at) VALUES ${rows.join(', ')}`, params);
  }
}
