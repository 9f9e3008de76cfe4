import { toDate, type SqlClient, type SqlQueryable } from '../db/sql-client';
import { sqlNow, type StoreClock } from '../db/store-clock';
import { oneMoreAttempt } from './webhook-replay';

/** How a delivery stands: `failing` has failed attempts and another due; `failed` has none left. */
export type DeliveryOutcome = 'delivered' | 'failing' | 'failed' | 'pending';

export interface EndpointDelivery {
  eventId: string;
  eventType: string;
  createdAt: Date;
  outcome: DeliveryOutcome;
  attempts: Array<{ attempt: number; at: Date; durationMs: number; statusCode: number | null; error: string | null; responseExcerpt: string | null }>;
}

/** The longest excerpt of a receiver's answer a listing shows. */
export const RESPONSE_EXCERPT_CHARS = 512;

const OUTCOME_SQL: Record<DeliveryOutcome, string> = {
  delivered: "e.status = 'delivered'",
  failed: "e.status = 'failed'",
  failing: "e.status = 'pending' AND e.attempt_count > 0",
  pending: "e.status = 'pending' AND e.attempt_count = 0",
};

/**
 * One endpoint's events, newest first, each with every attempt: the
 * dashboard's delivery log (Stripe Workbench's "Event deliveries"). Paged by
 * (created_at, id) below `before`, an event id of the page before.
 */
export async function endpointDeliveries(
  client: SqlClient,
  query: { merchantId: string; endpointId: string; eventId?: string; eventType?: string; outcome?: DeliveryOutcome; before?: string; limit: number },
): Promise<{ data: EndpointDelivery[]; hasMore: boolean }> {
  const params: unknown[] = [query.merchantId, query.endpointId, query.limit + 1];
  const where = ['e.merchant_id = $1', 'e.endpoint_id = $2'];
  if (query.eventId) where.push(`e.id = $${params.push(query.eventId)}`);
  if (query.eventType) where.push(`e.type = $${params.push(query.eventType)}`);
  if (query.outcome) where.push(OUTCOME_SQL[query.outcome]);
  if (query.before) where.push(`(e.created_at, e.id) < (SELECT created_at, id FROM outbox_events WHERE merchant_id = $1 AND id = $${params.push(query.before)})`);
  const { rows } = await client.query<{ id: string; type: string; created_at: Date | string; status: string; attempt_count: number; attempts: Array<{ attempt: number; started_at: string; duration_ms: number; status_code: number | null; error: string | null; response_body: string | null }> | null }>(
    `SELECT e.id, e.type, e.created_at, e.status, e.attempt_count,
            (SELECT json_agg(a ORDER BY a.attempt) FROM webhook_attempts a WHERE a.event_id = e.id) AS attempts
       FROM outbox_events e WHERE ${where.join(' AND ')} ORDER BY e.created_at DESC, e.id DESC LIMIT $3`,
    params,
  );
  const page = rows.slice(0, query.limit).map(
    (row): EndpointDelivery => ({
      eventId: row.id,
      eventType: row.type,
      createdAt: toDate(row.created_at),
      outcome: row.status === 'delivered' ? 'delivered' : row.status === 'failed' ? 'failed' : Number(row.attempt_count) > 0 ? 'failing' : 'pending',
      attempts: (row.attempts ?? []).map((a) => ({
        attempt: a.attempt,
        at: new Date(a.started_at),
        durationMs: a.duration_ms,
        statusCode: a.status_code,
        error: a.error,
        responseExcerpt: a.response_body === null ? null : a.response_body.slice(0, RESPONSE_EXCERPT_CHARS),
      })),
    }),
  );
  return { data: page, hasMore: rows.length > query.limit };
}

/**
 * One more attempt of the endpoint's event, due now, with the same id and
 * body, never cutting short the retries its schedule still gives it; false
 * when the endpoint has no such event.
 */
export async function resendDelivery(client: SqlQueryable, storeClock: StoreClock, event: { merchantId: string; endpointId: string; eventId: string; scheduledAttempts: number }): Promise<boolean> {
  const params: unknown[] = [event.merchantId, event.endpointId, event.eventId, event.scheduledAttempts];
  const { rows } = await client.query<{ id: string }>(
    `UPDATE outbox_events SET status = 'pending', next_attempt_at = ${sqlNow(storeClock, params)}, attempts_allowed = ${oneMoreAttempt('$4')}
      WHERE merchant_id = $1 AND endpoint_id = $2 AND id = $3 RETURNING id`,
    params,
  );
  return rows.length === 1;
}
