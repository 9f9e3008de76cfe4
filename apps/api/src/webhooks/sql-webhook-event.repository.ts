import type { DeliveryAttempt, EventDeliveryLog } from '@paysign/contracts';
import type { ReceiverCircuitSettings } from '../config/app-config';
import { anyRow, IdleClaimGate } from '../db/idle-claim-gate';
import { toDate, type SqlClient } from '../db/sql-client';
import { sqlNow, sqlNowPlus, type StoreClock } from '../db/store-clock';
import type { WebhookQueueState } from '../metrics/service-metrics';
import { foldReceiverOutcomes, receiverOfUrl, type FoldedOutcomes } from './receiver-circuit';
import type { StoredWebhookEvent } from './webhook-delivery';
import { circuitLetsThrough, claimable, EVENT_COLUMNS, fromEventRow, receiverOf, spentAmong, type AttemptRow, type EventRow } from './webhook-event-rows';

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
  /** Whether the receiver (the event's notifyUrl's origin) answered, for its circuit; left out when the attempt never reached it (refused, or not signed). */
  receiver?: { notifyUrl: string; answered: boolean };
}

export type EventWithAttempts = StoredWebhookEvent & { attempts: DeliveryAttempt[] };

/** How claiming shares the slots: attempts in flight per merchant and per receiver, and the failures in a row after which a receiver gets one at a time. */
export interface ClaimFairness {
  perMerchant: number;
  perReceiver: number;
  circuitFailures: number;
  /** Batches to receivers that are idle; none when left out. */
  receiverBatch?: ReceiverBatchSettings;
}

/**
 * A receiver with nothing in flight and no failure counted, and a merchant
 * with nothing in flight, may get up to `events` of the merchant's events to
 * that receiver in one claim: a batch, sent `min(perMerchant, perReceiver)` at
 * a time, so that neither share is ever exceeded by the attempts made. Each
 * round of the batch is leased `roundMs` longer than the one before, so that
 * a batch whose every attempt takes the whole timeout still ends within its
 * leases.
 */
export interface ReceiverBatchSettings {
  events: number;
  roundMs: number;
}

/** A claimed event, and whether it came in a batch: a batch's events are sent a share at a time, in the order of their leases. */
export type ClaimedWebhookEvent = StoredWebhookEvent & { batched: boolean };

/** Names the advisory lock that serializes claims across instances (any fixed number, unique to this use). */
export const CLAIM_LOCK = 0x5041_5957;

/** Delivery of the outbox: claims, attempts and the delivery log, on the rows the events module writes. */
export class SqlWebhookEventRepository {
  private readonly idleClaims = new IdleClaimGate(() => anyRow(this.client, "SELECT 1 FROM outbox_events WHERE status = 'pending'"));

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
   *
   * An idle merchant's events to an idle receiver may come in a batch
   * (`ReceiverBatchSettings`): while its leases run, the merchant's and the
   * receiver's shares count it whole, so no other claim adds to either, and
   * the claimer sends it a share at a time. Each claim's first round of every
   * merchant comes before any batch's second.
   */
  async claimDue(leaseMs: number, limit: number, fairness: ClaimFairness): Promise<ClaimedWebhookEvent[]> {
    // Every event the claim can touch is pending: spent, in flight, or due.
    return this.idleClaims.claim(() => this.takeDue(leaseMs, limit, fairness));
  }

  /** The claim itself, once the idle gate lets it run. */
  private takeDue(leaseMs: number, limit: number, fairness: ClaimFairness): Promise<ClaimedWebhookEvent[]> {
    return this.client.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1)', [CLAIM_LOCK]);
      const batch = fairness.receiverBatch ?? { events: 0, roundMs: 0 };
      const params: unknown[] = [limit, this.scheduledAttempts, fairness.perMerchant, fairness.perReceiver, fairness.circuitFailures, batch.events, batch.roundMs, leaseMs];
      const now = sqlNow(this.storeClock, params);
      const { rows } = await tx.query<EventRow & { batched: boolean }>(
        `WITH RECURSIVE now_at AS (SELECT ${now} AS at),
         -- Spent: every attempt made, the last one's lease run out unrecorded (its instance died). Failed, never claimed again.
         spent AS (
           UPDATE outbox_events e SET status = 'failed', locked_until = NULL FROM now_at
           WHERE ${spentAmong('e', 'now_at.at', '$2', 'leases run out')}),
         in_flight AS (
           SELECT e.merchant_id, ${receiverOf('e')} AS receiver FROM outbox_events e, now_at
           WHERE e.status = 'pending' AND e.locked_until > now_at.at),
         merchant_flights AS (SELECT merchant_id, count(*) AS n FROM in_flight GROUP BY merchant_id),
         receiver_flights AS (SELECT receiver, count(*) AS n FROM in_flight GROUP BY receiver),
         -- The merchants with events pending, one index probe each (a loose index scan), however many events wait.
         merchants AS (
           (SELECT merchant_id FROM outbox_events WHERE status = 'pending' ORDER BY merchant_id LIMIT 1)
           UNION ALL
           SELECT (SELECT e.merchant_id FROM outbox_events e WHERE e.status = 'pending' AND e.merchant_id > m.merchant_id ORDER BY e.merchant_id LIMIT 1)
           FROM merchants m WHERE m.merchant_id IS NOT NULL),
         -- Each merchant's oldest claimable events, no more than its share, or a batch when it has none in flight: a later
         -- one could never be taken (its turn would be past both), so a backlog of any size costs a claim no more than this.
         due AS (
           SELECT d.* FROM merchants m, now_at, LATERAL (
             SELECT e.id, e.merchant_id, e.next_attempt_at, ${receiverOf('e')} AS receiver,
               e.attempt_count + 1 >= COALESCE(e.attempts_allowed, $2) AS last_attempt
             FROM outbox_events e
             WHERE e.merchant_id = m.merchant_id AND ${claimable('e', 'now_at.at', '$2')}
             ORDER BY e.next_attempt_at, e.id
             LIMIT CASE WHEN EXISTS (SELECT 1 FROM merchant_flights f WHERE f.merchant_id = m.merchant_id) THEN $3::int ELSE greatest($3::int, $6::int) END) d
           WHERE m.merchant_id IS NOT NULL),
         turns AS (
           SELECT due.*, row_number() OVER (PARTITION BY due.merchant_id ORDER BY due.next_attempt_at, due.id) AS merchant_turn,
             first_value(due.receiver) OVER (PARTITION BY due.merchant_id ORDER BY due.next_attempt_at, due.id) AS merchant_first_receiver
           FROM due),
         ranked AS (
           SELECT turns.id, turns.merchant_id, turns.receiver, turns.next_attempt_at, turns.last_attempt,
             turns.merchant_turn + COALESCE(merchant_flight.n, 0) AS merchant_slot,
             row_number() OVER (PARTITION BY turns.receiver ORDER BY turns.merchant_turn, turns.next_attempt_at, turns.id) + COALESCE(receiver_flight.n, 0) AS receiver_slot,
             CASE WHEN COALESCE(r.failures, 0) >= $5 THEN 1 ELSE $4 END AS receiver_room,
             -- A batch: the merchant's first receiver, when neither has anything in flight and the receiver has no failure counted.
             merchant_flight.n IS NULL AND receiver_flight.n IS NULL AND r.receiver IS NULL AND turns.receiver = turns.merchant_first_receiver AS idle_pair,
             first_value(turns.merchant_id) OVER (PARTITION BY turns.receiver ORDER BY turns.merchant_turn, turns.next_attempt_at, turns.id) AS receiver_first_merchant
           FROM now_at, turns LEFT JOIN webhook_receivers r ON r.receiver = turns.receiver
             LEFT JOIN merchant_flights merchant_flight ON merchant_flight.merchant_id = turns.merchant_id
             LEFT JOIN receiver_flights receiver_flight ON receiver_flight.receiver = turns.receiver
           WHERE ${circuitLetsThrough('r', 'now_at.at')}),
         -- One batch per merchant and per receiver: the pair's events, oldest first, up to the batch's size.
         batches AS (
           SELECT ranked.id, ranked.merchant_id, ranked.receiver, ranked.next_attempt_at, ranked.last_attempt,
             row_number() OVER (PARTITION BY ranked.merchant_id ORDER BY ranked.next_attempt_at, ranked.id) AS position
           FROM ranked WHERE $6::int > least($3::int, $4::int) AND ranked.idle_pair AND ranked.merchant_id = ranked.receiver_first_merchant),
         -- An event's last allowed attempt is never left waiting in a batch past its first round: should the instance die before
         -- sending it, it would be failed unsent once its lease ran out. It waits for a claim after the batch instead.
         batched AS (
           SELECT id, next_attempt_at, position AS turn, (position - 1) / least($3::int, $4::int) AS round, true AS batched FROM batches
           WHERE position <= $6 AND (position <= least($3::int, $4::int) OR NOT last_attempt)),
         chosen AS (
           SELECT id, next_attempt_at, merchant_slot AS turn, 0 AS round, false AS batched FROM ranked
           WHERE merchant_slot <= $3 AND receiver_slot <= receiver_room
             AND NOT EXISTS (SELECT 1 FROM batches b WHERE b.merchant_id = ranked.merchant_id OR b.receiver = ranked.receiver)
           UNION ALL SELECT * FROM batched
           ORDER BY round, turn, next_attempt_at LIMIT $1)
         UPDATE outbox_events e SET attempt_count = e.attempt_count + 1,
           locked_until = now_at.at + ($8::bigint + chosen.round * $7::bigint) * interval '1 millisecond'
         FROM chosen, now_at WHERE e.id = chosen.id
         RETURNING ${EVENT_COLUMNS.split(', ').map((column) => `e.${column}`).join(', ')}, chosen.batched`,
        params,
      );
      return rows.map((row) => ({ ...fromEventRow(row), batched: row.batched }));
    });
  }

  /**
   * Gives back claimed events that were never sent: each is due again at
   * once, leased by no one, with the attempt its claim counted taken back.
   * Only events still leased under that attempt move: one whose lease ran out
   * and that another claim took since is left to that claim.
   */
  async releaseUnsent(events: ReadonlyArray<Pick<StoredWebhookEvent, 'id' | 'attemptCount'>>): Promise<void> {
    if (events.length === 0) return;
    await this.client.query(
      `UPDATE outbox_events e SET attempt_count = e.attempt_count - 1, locked_until = NULL
       FROM unnest($1::text[], $2::int[]) AS r(id, attempt)
       WHERE e.id = r.id AND e.attempt_count = r.attempt AND e.status = 'pending' AND e.locked_until IS NOT NULL`,
      [events.map((e) => e.id), events.map((e) => e.attemptCount)],
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
   * Fails every pending event that has had every attempt it is allowed,
   * with none in flight: the retention job's sweep. Each claim fails those
   * whose lease ran out (the instance died during their last attempt), in
   * its own statement; this also finds those never leased again, left by a
   * retry schedule made shorter, which takes a full scan.
   */
  async failSpent(): Promise<void> {
    const params: unknown[] = [this.scheduledAttempts];
    await this.client.query(`UPDATE outbox_events e SET status = 'failed', locked_until = NULL WHERE ${spentAmong('e', sqlNow(this.storeClock, params), '$1', 'all pending')}`, params);
  }

  /**
   * Keeps the attempts, moves their events on, and counts each one that
   * reached its receiver against the receiver's circuit: an answer (any
   * status but 5xx and 429) closes it; no answer, or a 5xx or 429, counts
   * one more failure in a row, and from the threshold on opens it for a
   * period that doubles with each further failure, up to the bound. All in
   * one statement: one instant for every row, and whoever sees an attempt
   * sees the circuit it left. An event moves only if no later attempt has
   * claimed it meanwhile (this one outlived its lease): then only the record
   * of this attempt is kept.
   */
  async recordAttempts(records: AttemptRecord[], circuit: ReceiverCircuitSettings): Promise<void> {
    if (records.length === 0) return;
    const outcomes = records.flatMap(({ receiver }) => (receiver ? [{ receiver: receiverOfUrl(receiver.notifyUrl), answered: receiver.answered }] : []));
    const folded = foldReceiverOutcomes(outcomes.filter((outcome) => outcome.receiver !== ''));
    const params: unknown[] = [
      records.map((r) => r.eventId),
      records.map((r) => r.attempt),
      records.map((r) => r.startedAt.toISOString()),
      records.map((r) => r.durationMs),
      records.map((r) => r.statusCode),
      records.map((r) => r.error),
      records.map((r) => r.responseBody),
      records.map((r) => r.status),
      records.map((r) => (r.retryInMs === null ? null : Math.round(r.retryInMs))),
    ];
    const now = sqlNow(this.storeClock, params);
    const circuits = this.circuitStatements(folded, circuit, params);
    await this.client.query(
      `WITH now_at AS (SELECT ${now} AS at),
       ended AS (
         SELECT a.*, CASE WHEN a.retry_in_ms IS NULL THEN NULL::timestamptz ELSE now_at.at + a.retry_in_ms * interval '1 millisecond' END AS next_at
         FROM now_at, unnest($1::text[], $2::int[], $3::timestamptz[], $4::int[], $5::int[], $6::text[], $7::text[], $8::text[], $9::bigint[])
           AS a(event_id, attempt, started_at, duration_ms, status_code, error, response_body, status, retry_in_ms)),
       ${circuits.map((statement, i) => `circuit_${i} AS (${statement}),`).join(' ')}
       kept AS (
         INSERT INTO webhook_attempts (event_id, attempt, started_at, duration_ms, status_code, error, response_body, next_attempt_at)
         SELECT event_id, attempt, started_at, duration_ms, status_code, error, response_body, next_at FROM ended
         ON CONFLICT (event_id, attempt) DO NOTHING)
       UPDATE outbox_events e SET status = ended.status, next_attempt_at = COALESCE(ended.next_at, e.next_attempt_at), locked_until = NULL
       FROM ended WHERE e.id = ended.event_id AND e.attempt_count = ended.attempt`,
      params,
    );
  }

  /** The data-modifying statements that leave each receiver's circuit as `folded` says, their parameters pushed onto `params`. */
  private circuitStatements(folded: FoldedOutcomes, circuit: ReceiverCircuitSettings, params: unknown[]): string[] {
    const statements: string[] = [];
    const p = (value: unknown) => `$${params.push(value)}`;
    if (folded.closed.length > 0) statements.push(`DELETE FROM webhook_receivers WHERE receiver = ANY(${p(folded.closed)}::text[])`);
    const restarted = [...folded.restarted];
    const counted = [...folded.counted];
    if (restarted.length === 0 && counted.length === 0) return statements;
    const now = sqlNow(this.storeClock, params);
    const threshold = p(circuit.failures);
    const openSeconds = p(circuit.openSeconds);
    const maxOpenSeconds = p(circuit.maxOpenSeconds);
    const openFor = (failures: string) =>
      `CASE WHEN ${failures} >= ${threshold} THEN ${now} + least(${maxOpenSeconds}, ${openSeconds} * power(2, least(${failures} - ${threshold}, 30))) * interval '1 second' END`;
    // Answered, then failed again within the batch: the count starts over from those failures.
    if (restarted.length > 0) {
      statements.push(
        `INSERT INTO webhook_receivers (receiver, failures, open_until)
         SELECT c.receiver, c.failures, ${openFor('c.failures')} FROM unnest(${p(restarted.map(([r]) => r))}::text[], ${p(restarted.map(([, n]) => n))}::int[]) AS c(receiver, failures)
         ON CONFLICT (receiver) DO UPDATE SET failures = EXCLUDED.failures, open_until = EXCLUDED.open_until`,
      );
    }
    // Failed only: added to the failures in a row before.
    if (counted.length > 0) {
      statements.push(
        `INSERT INTO webhook_receivers (receiver, failures, open_until)
         SELECT c.receiver, c.failures, ${openFor('c.failures')} FROM unnest(${p(counted.map(([r]) => r))}::text[], ${p(counted.map(([, n]) => n))}::int[]) AS c(receiver, failures)
         ON CONFLICT (receiver) DO UPDATE SET failures = webhook_receivers.failures + EXCLUDED.failures,
           open_until = ${openFor('(webhook_receivers.failures + EXCLUDED.failures)')}`,
      );
    }
    return statements;
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
      `SELECT ${EVENT_COLUMNS.split(', ').map((column) => `e.${column}`).join(', ')},
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
