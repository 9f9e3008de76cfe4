import type { DeliveryAttempt, EventDeliveryLog } from '@paysign/contracts';
import type { ReceiverCircuitSettings } from '../config/app-config';
import { toDate, type SqlClient, type SqlQueryable } from '../db/sql-client';
import { sqlNow, sqlNowPlus, type StoreClock } from '../db/store-clock';
import type { WebhookQueueState } from '../metrics/service-metrics';
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

/** How claiming shares the slots: attempts in flight per merchant and per receiver, and the failures in a row after which a receiver gets one at a time. */
export interface ClaimFairness {
  perMerchant: number;
  perReceiver: number;
  circuitFailures: number;
}

/** Names the advisory lock that serializes claims across instances (any fixed number, unique to this use). */
const CLAIM_LOCK = 0x5041_5957;

/** A receiver is a notifyUrl's origin (scheme, host and port): what one circuit and one share of slots are kept for. */
const receiverOf = (alias: string): string => `substring(${alias}.notify_url from '^[^:/?#]+://[^/?#]+')`;

/** An event a claim may take at `now`: pending, due, not leased, with an attempt left (`attempts` the schedule's, unless a redelivery allowed more). */
const claimable = (alias: string, now: string, attempts: string): string =>
  `${alias}.status = 'pending' AND ${alias}.next_attempt_at <= ${now} AND (${alias}.locked_until IS NULL OR ${alias}.locked_until <= ${now})
   AND ${alias}.attempt_count < COALESCE(${alias}.attempts_allowed, ${attempts})`;

/** A receiver whose circuit lets attempts through at `now`: it has none, or it has been open its time (`alias` is its left-joined webhook_receivers row). */
const circuitLetsThrough = (alias: string, now: string): string => `(${alias}.open_until IS NULL OR ${alias}.open_until <= ${now})`;

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
   * again (at least once). Due and leased are judged by the store's clock.
   *
   * Claiming is fair: each merchant and each receiver has at most its share
   * of attempts in flight, counted across instances from the leases, and the
   * events are taken round-robin across merchants (every merchant's oldest,
   * then every merchant's second oldest...). A receiver whose circuit is open
   * gets none. Claims are serialized by a transaction-scoped advisory lock, so
   * that two instances never both fill the same merchant's last free slot.
   */
  async claimDue(leaseMs: number, limit: number, fairness: ClaimFairness): Promise<StoredWebhookEvent[]> {
    return this.client.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1)', [CLAIM_LOCK]);
      await this.failSpent(tx, 'leases run out');
      const params: unknown[] = [limit, this.scheduledAttempts, fairness.perMerchant, fairness.perReceiver, fairness.circuitFailures];
      const now = sqlNow(this.storeClock, params);
      const leaseUntil = sqlNowPlus(this.storeClock, params, leaseMs);
      const { rows } = await tx.query<EventRow>(
        `WITH RECURSIVE now_at AS (SELECT ${now} AS at),
         in_flight AS (
           SELECT e.merchant_id, ${receiverOf('e')} AS receiver FROM outbox_events e, now_at
           WHERE e.status = 'pending' AND e.locked_until > now_at.at),
         -- The merchants with events pending, one index probe each (a loose index scan), however many events wait.
         merchants AS (
           (SELECT merchant_id FROM outbox_events WHERE status = 'pending' ORDER BY merchant_id LIMIT 1)
           UNION ALL
           SELECT (SELECT e.merchant_id FROM outbox_events e WHERE e.status = 'pending' AND e.merchant_id > m.merchant_id ORDER BY e.merchant_id LIMIT 1)
           FROM merchants m WHERE m.merchant_id IS NOT NULL),
         -- Each merchant's oldest claimable events, no more than its share: a later one could never fit under
         -- the share (its turn would be past it), so a backlog of any size costs a claim no more than this.
         due AS (
           SELECT d.* FROM merchants m, now_at, LATERAL (
             SELECT e.id, e.merchant_id, e.next_attempt_at, ${receiverOf('e')} AS receiver FROM outbox_events e
             WHERE e.merchant_id = m.merchant_id AND ${claimable('e', 'now_at.at', '$2')}
             ORDER BY e.next_attempt_at, e.id LIMIT $3) d
           WHERE m.merchant_id IS NOT NULL),
         turns AS (
           SELECT due.*, row_number() OVER (PARTITION BY due.merchant_id ORDER BY due.next_attempt_at, due.id) AS merchant_turn FROM due),
         ranked AS (
           SELECT turns.id, turns.next_attempt_at,
             turns.merchant_turn + (SELECT count(*) FROM in_flight f WHERE f.merchant_id = turns.merchant_id) AS merchant_slot,
             row_number() OVER (PARTITION BY turns.receiver ORDER BY turns.merchant_turn, turns.next_attempt_at, turns.id)
               + (SELECT count(*) FROM in_flight f WHERE f.receiver = turns.receiver) AS receiver_slot,
             CASE WHEN COALESCE(r.failures, 0) >= $5 THEN 1 ELSE $4 END AS receiver_room
           FROM now_at, turns LEFT JOIN webhook_receivers r ON r.receiver = turns.receiver
           WHERE ${circuitLetsThrough('r', 'now_at.at')})
         UPDATE outbox_events SET attempt_count = attempt_count + 1, locked_until = ${leaseUntil}
         WHERE id IN (
           SELECT id FROM ranked WHERE merchant_slot <= $3 AND receiver_slot <= receiver_room
           ORDER BY merchant_slot, next_attempt_at LIMIT $1)
         RETURNING ${COLUMNS}`,
        params,
      );
      return rows.map(fromEventRow);
    });
  }

  /**
   * Counts an attempt's outcome against its receiver's circuit: an answer
   * (any status but 5xx and 429) closes it; no answer, or a 5xx or 429,
   * counts one more failure in a row, and from the threshold on opens it
   * for a period that doubles with each further failure, up to the bound.
   */
  async recordReceiverOutcome(eventId: string, answered: boolean, circuit: ReceiverCircuitSettings): Promise<void> {
    if (answered) {
      await this.client.query(`DELETE FROM webhook_receivers WHERE receiver = (SELECT ${receiverOf('e')} FROM outbox_events e WHERE e.id = $1)`, [eventId]);
      return;
    }
    const params: unknown[] = [eventId, circuit.failures, circuit.openSeconds, circuit.maxOpenSeconds];
    const now = sqlNow(this.storeClock, params);
    const openFor = (failures: string) => `${now} + least($4, $3 * power(2, least(${failures} - $2, 30))) * interval '1 second'`;
    await this.client.query(
      `INSERT INTO webhook_receivers (receiver, failures, open_until)
       SELECT ${receiverOf('e')}, 1, CASE WHEN 1 >= $2 THEN ${openFor('1')} END FROM outbox_events e WHERE e.id = $1
       ON CONFLICT (receiver) DO UPDATE SET failures = webhook_receivers.failures + 1,
         open_until = CASE WHEN webhook_receivers.failures + 1 >= $2 THEN ${openFor('(webhook_receivers.failures + 1)')} ELSE NULL END`,
      params,
    );
  }

  /**
   * Deletes up to `batchSize` ended events (delivered or failed) created more
   * than `retentionDays` ago, with their attempts; resolves how many. Pending
   * events are kept whatever their age.
   */
  async deleteEnded(retentionDays: number, batchSize: number): Promise<number> {
    const params: unknown[] = [batchSize];
    const before = sqlNowPlus(this.storeClock, params, -retentionDays * 86_400_000);
    const { rows } = await this.client.query<{ id: string }>(
      `WITH doomed AS (
         SELECT id FROM outbox_events WHERE status <> 'pending' AND created_at < ${before} ORDER BY created_at LIMIT $1),
       attempts AS (DELETE FROM webhook_attempts WHERE event_id IN (SELECT id FROM doomed))
       DELETE FROM outbox_events WHERE id IN (SELECT id FROM doomed) RETURNING id`,
      params,
    );
    return rows.length;
  }

  /**
   * Ends the events that have had every attempt they are allowed but were
   * left pending, because the last attempt could not be recorded (its
   * instance died, or the store refused the record): failed, not sent again.
   */
  /**
   * Fails the pending events that have had every attempt they are allowed.
   * Each claim looks at those whose lease ran out (the instance died during
   * their last attempt), through the lease index, so that it costs little
   * whatever the backlog; the retention job also at those never leased
   * again, left by a retry schedule made shorter, which need a full scan.
   */
  async failSpent(tx: SqlQueryable = this.client, among: 'leases run out' | 'all pending' = 'all pending'): Promise<void> {
    const params: unknown[] = [this.scheduledAttempts];
    const now = sqlNow(this.storeClock, params);
    const notInFlight = among === 'leases run out' ? `locked_until IS NOT NULL AND locked_until <= ${now}` : `(locked_until IS NULL OR locked_until <= ${now})`;
    await tx.query(`UPDATE outbox_events SET status = 'failed', locked_until = NULL WHERE status = 'pending' AND attempt_count >= COALESCE(attempts_allowed, $1) AND ${notInFlight}`, params);
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
    return this.withAttempts('e.merchant_id = $1 AND e.object_type = $2 AND e.object_id = $3', [merchantId, objectType, objectId]);
  }

  async find(merchantId: string, id: string): Promise<EventWithAttempts | undefined> {
    return (await this.withAttempts('e.merchant_id = $1 AND e.id = $2', [merchantId, id]))[0];
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

  /**
   * The outbox as monitoring sees it, in one statement: the events still to
   * deliver, and how long the one that has waited longest for a claim has
   * been due, by the store's clock (0 when none is due). An event held back
   * by its receiver's open circuit waits for the receiver, not for delivery
   * to keep up, and is left out of the lag.
   */
  async queueState(): Promise<WebhookQueueState> {
    const params: unknown[] = [this.scheduledAttempts];
    const now = sqlNow(this.storeClock, params);
    const { rows } = await this.client.query<{ pending: number | string; lag_seconds: number | string | null }>(
      `WITH now_at AS (SELECT ${now} AS at)
       SELECT count(*) AS pending,
         EXTRACT(EPOCH FROM max(now_at.at - e.next_attempt_at) FILTER (WHERE ${claimable('e', 'now_at.at', '$1')} AND ${circuitLetsThrough('r', 'now_at.at')})) AS lag_seconds
       FROM now_at CROSS JOIN outbox_events e LEFT JOIN webhook_receivers r ON r.receiver = ${receiverOf('e')}
       WHERE e.status = 'pending'`,
      params,
    );
    return { pending: Number(rows[0]?.pending ?? 0), lagSeconds: Number(rows[0]?.lag_seconds ?? 0) };
  }

  /**
   * The events `where` selects, oldest first, each with its attempts, read in
   * one statement: one snapshot, so that an event is never shown in an older
   * state than the attempts listed under it.
   */
  private async withAttempts(where: string, params: unknown[]): Promise<EventWithAttempts[]> {
    const { rows } = await this.client.query<EventRow & Partial<Record<`a_${keyof AttemptRow}`, unknown>>>(
      `SELECT ${COLUMNS.split(', ').map((column) => `e.${column}`).join(', ')},
              a.attempt AS a_attempt, a.started_at AS a_started_at, a.duration_ms AS a_duration_ms, a.status_code AS a_status_code,
              a.error AS a_error, a.response_body AS a_response_body, a.next_attempt_at AS a_next_attempt_at
       FROM outbox_events e LEFT JOIN webhook_attempts a ON a.event_id = e.id
       WHERE ${where} ORDER BY e.created_at, e.id, a.attempt`,
      params,
    );
    const events = new Map<string, EventWithAttempts>();
    for (const row of rows) {
      const event = events.get(row.id) ?? { ...fromEventRow(row), attempts: [] };
      events.set(row.id, event);
      if (row.a_attempt === null || row.a_attempt === undefined) continue;
      event.attempts.push({
        attempt: Number(row.a_attempt),
        startedAt: toDate(row.a_started_at as Date | string).toISOString(),
        durationMs: Number(row.a_duration_ms),
        statusCode: row.a_status_code === null ? null : Number(row.a_status_code),
        error: row.a_error as string | null,
        responseBody: row.a_response_body as string | null,
        nextAttemptAt: row.a_next_attempt_at === null ? null : toDate(row.a_next_attempt_at as Date | string).toISOString(),
      });
    }
    return [...events.values()];
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
