import type { SqlQueryable } from '../db/sql-client';
import { sqlNowPlus, type StoreClock } from '../db/store-clock';
import { newEventId, type EventEnvelope, type NewOutboxEvent } from './outbox-event';

/** What a feature says about a change it is committing; the outbox makes the event of it. */
export interface EventOfChange<Type extends string, Data> {
  merchantId: string;
  objectType: string;
  objectId: string;
  type: Type;
  version: number;
  occurredAt: Date;
  data: Data;
  notifyUrl: string;
}

/**
 * The transactional outbox, as every feature writes to it: `event` builds the
 * row of a change, and `write` inserts it on the feature's own transaction.
 * Delivery is the webhooks module's, which reads the same rows.
 */
export class EventOutbox {
  constructor(private readonly options: { firstAttemptDelayMs: number; storeClock: StoreClock }) {}

  event<Type extends string, Data>(change: EventOfChange<Type, Data>): NewOutboxEvent {
    const envelope: EventEnvelope<Type, Data> = { type: change.type, version: change.version, timestamp: change.occurredAt.toISOString(), data: change.data };
    return {
      id: newEventId(),
      merchantId: change.merchantId,
      objectType: change.objectType,
      objectId: change.objectId,
      type: change.type,
      version: change.version,
      payload: JSON.stringify(envelope),
      notifyUrl: change.notifyUrl,
      createdAt: change.occurredAt,
    };
  }

  /** Inserts the event on `tx`, the transaction of the change it reports; its first delivery is due after the first delay of the schedule, by the store's clock. */
  async write(tx: SqlQueryable, event: NewOutboxEvent): Promise<void> {
    await this.writeMany(tx, [event]);
  }

  /** Inserts each event as `write` does, in one statement. */
  async writeMany(tx: SqlQueryable, events: readonly NewOutboxEvent[]): Promise<void> {
    if (events.length === 0) return;
    const params: unknown[] = [];
    const due = sqlNowPlus(this.options.storeClock, params, this.options.firstAttemptDelayMs);
    const rows = events.map((event) => {
      const values = [event.id, event.merchantId, event.objectType, event.objectId, event.type, event.version, event.payload, event.notifyUrl, event.createdAt.toISOString()].map((value) => `$${params.push(value)}`);
      return `(${values.join(', ')}::timestamptz, 'pending', ${due})`;
    });
    await tx.query(`INSERT INTO outbox_events (id, merchant_id, object_type, object_id, type, version, payload, notify_url, created_at, status, next_attempt_at) VALUES ${rows.join(', ')}`, params);
  }
}
