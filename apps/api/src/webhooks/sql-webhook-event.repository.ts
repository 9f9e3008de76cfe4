import type { DeliveryAttempt, EventDeliveryLog } from '@paysign/contracts';
import { toDate, type SqlClient } from '../db/sql-client';
import { sqlNow, sqlNowPlus, type StoreClock } from '../db/store-clock';
import type { StoredWebhookEvent } from './webhook-delivery';

interface EventRow {
  id: string;
  merchant_id: string;
  object_type: string;
  object_id: string;
  type: string;
  version: number;
  payload: string;
  notify_url: string;
  created_at: Date | string;
  status: EventDeliveryLog['status'];
  attempt_count: number;
  next_attempt_at: Date | string;
  locked_until: Date | string | null;
}

interface AttemptRow {
  event_id: string;
  attempt: number;
  started_at: Date | string;
  duration_ms: number;
  status_code: number | null;
  error: string | null;
  response_body: string | null;
  next_attempt_at: Date | string | null;
}

export interface AttemptRecord {
  eventId: string;
  attempt: number;
  startedAt: Date;
  durationMs: number;
  statusCode: number | null;
  error: string | null;
  responseBody: string | null;
  /** What the event becomes: delivered, failed for good, or pending again `retryInMs` from now, by the store's clock. */
  status: EventDeliveryLog['status'];
  retryInMs: number | null;
}

export type EventWithAttempts = StoredWebhookEvent & { attempts: DeliveryAttempt[] };

const COLUMNS = 'id, merchant_id, object_type, object_id, type, version, payload, notify_url, created_at, status, attempt_count, next_attempt_at, locked_until';

/** Delivery of the outbox: claims, attempts and the delivery log, on the rows the events module writes. */
export class SqlWebhookEventRepository {
  constructor(
    private readonly client: SqlClient,
    private readonly storeClock: StoreClock,
    /** Attempts an event gets unless a redelivery allowed it more: the retry schedule's steps. */
    private readonly scheduledAttempts: number,
  ) {}

  /**
   * Takes up to `limit` due events for one attempt each, leased for
   * `leaseMs`: no other instance takes them while the lease runs, and if
   * this one dies mid-attempt, the lease runs out and another takes them
   * again (at least once). SKIP LOCKED lets instances claim side by side.
   * Due and leased are judged by the store's clock, never an instance's.
   */
  async claimDue(leaseMs: number, limit: number): Promise<StoredWebhookEvent[]> {
    await this.failSpent();
    const params: unknown[] = [limit, this.scheduledAttempts];
    const now = sqlNow(this.storeClock, params);
    const leaseUntil = sqlNowPlus(this.storeClock, params, leaseMs);
    const { rows } = await this.client.query<EventRow>(
      `UPDATE outbox_events SET attempt_count = attempt_count + 1, locked_until = ${leaseUntil}
       WHERE id IN (
         SELECT id FROM outbox_events
         WHERE status = 'pending' AND next_attempt_at <= ${now} AND (locked_until IS NULL OR locked_until <= ${now})
           AND attempt_count < COALESCE(attempts_allowed, $2)
         ORDER BY next_attempt_at LIMIT $1 FOR UPDATE SKIP LOCKED)
       RETURNING ${COLUMNS}`,
      params,
    );
    return rows.map(fromEventRow);
  }

  /**
   * Ends the events that have had every attempt they are allowed but were
   * left pending, because the last attempt could not be recorded (its
   * instance died, or the store refused the record): failed, not sent again.
   */
  private async failSpent(): Promise<void> {
    const params: unknown[] = [this.scheduledAttempts];
    const now = sqlNow(this.storeClock, params);
    await this.client.query(
      `UPDATE outbox_events SET status = 'failed', locked_until = NULL
       WHERE status = 'pending' AND attempt_count >= COALESCE(attempts_allowed, $1) AND (locked_until IS NULL OR locked_until <= ${now})`,
      params,
    );
  }

  /**
   * Keeps the attempt, and moves the event on, unless a later attempt has
   * claimed it meanwhile (this one outlived its lease): then only the record
   * of this attempt is kept.
   */
  async recordAttempt(record: AttemptRecord): Promise<void> {
    const params: unknown[] = [record.eventId, record.attempt, record.startedAt.toISOString(), record.durationMs, record.statusCode, record.error, record.responseBody, record.status];
    const next = record.retryInMs === null ? 'NULL::timestamptz' : sqlNowPlus(this.storeClock, params, record.retryInMs);
    // One statement, so one instant for both rows: the attempt's record of when the next is due, and the event's.
    // The event moves only if no later attempt has claimed it (fenced by the attempt number).
    await this.client.query(
      `WITH next AS (SELECT ${next} AS at),
       kept AS (
         INSERT INTO webhook_attempts (event_id, attempt, started_at, duration_ms, status_code, error, response_body, next_attempt_at)
         SELECT $1, $2, $3::timestamptz, $4, $5, $6, $7, next.at FROM next
         ON CONFLICT (event_id, attempt) DO NOTHING)
       UPDATE outbox_events SET status = $8, next_attempt_at = COALESCE((SELECT at FROM next), next_attempt_at), locked_until = NULL
       WHERE id = $1 AND attempt_count = $2`,
      params,
    );
  }

  /** Every event of one object, oldest first, with its attempts. */
  async listOfObject(merchantId: string, objectType: string, objectId: string): Promise<EventWithAttempts[]> {
    const { rows } = await this.client.query<EventRow>(
      `SELECT ${COLUMNS} FROM outbox_events WHERE merchant_id = $1 AND object_type = $2 AND object_id = $3 ORDER BY created_at, id`,
      [merchantId, objectType, objectId],
    );
    return this.withAttempts(rows.map(fromEventRow));
  }

  async find(merchantId: string, id: string): Promise<EventWithAttempts | undefined> {
    const { rows } = await this.client.query<EventRow>(`SELECT ${COLUMNS} FROM outbox_events WHERE merchant_id = $1 AND id = $2`, [merchantId, id]);
    return (await this.withAttempts(rows.map(fromEventRow)))[0];
  }

  /** One more attempt, now, whatever the event's state; resolves false when the merchant has no such event. */
  async redeliver(merchantId: string, id: string): Promise<boolean> {
    const params: unknown[] = [merchantId, id];
    const { rows } = await this.client.query<{ id: string }>(
      `UPDATE outbox_events SET status = 'pending', next_attempt_at = ${sqlNow(this.storeClock, params)}, attempts_allowed = attempt_count + 1
       WHERE merchant_id = $1 AND id = $2 RETURNING id`,
      params,
    );
    return rows.length === 1;
  }

  async pendingCount(): Promise<number> {
    const { rows } = await this.client.query<{ n: number | string }>(`SELECT count(*) AS n FROM outbox_events WHERE status = 'pending'`);
    return Number(rows[0]?.n ?? 0);
  }

  private async withAttempts(events: StoredWebhookEvent[]): Promise<EventWithAttempts[]> {
    if (events.length === 0) return [];
    const { rows } = await this.client.query<AttemptRow>(
      'SELECT event_id, attempt, started_at, duration_ms, status_code, error, response_body, next_attempt_at FROM webhook_attempts WHERE event_id = ANY($1) ORDER BY attempt',
      [events.map((event) => event.id)],
    );
    return events.map((event) => ({
      ...event,
      attempts: rows
        .filter((row) => row.event_id === event.id)
        .map((row) => ({
          attempt: Number(row.attempt),
          startedAt: toDate(row.started_at).toISOString(),
          durationMs: Number(row.duration_ms),
          statusCode: row.status_code === null ? null : Number(row.status_code),
          error: row.error,
          responseBody: row.response_body,
          nextAttemptAt: row.next_attempt_at === null ? null : toDate(row.next_attempt_at).toISOString(),
        })),
    }));
  }
}

function fromEventRow(row: EventRow): StoredWebhookEvent {
  return {
    id: row.id,
    merchantId: row.merchant_id,
    objectType: row.object_type,
    objectId: row.object_id,
    type: row.type,
    version: Number(row.version),
    payload: row.payload,
    notifyUrl: row.notify_url,
    createdAt: toDate(row.created_at),
    status: row.status,
    attemptCount: Number(row.attempt_count),
    nextAttemptAt: toDate(row.next_attempt_at),
    lockedUntil: row.locked_until === null ? null : toDate(row.locked_until),
  };
}
