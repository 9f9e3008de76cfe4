import type { EventDeliveryLog } from '@paysign/contracts';
import { toDate } from '../db/sql-client';
import { RECEIVER_PATTERN } from './receiver-circuit';
import type { StoredWebhookEvent } from './webhook-delivery';

// An outbox event as its tables hold it: the rows, their mapping, and the
// conditions the delivery's statements share (which event a claim may take,
// which has spent its attempts, whose receiver is held back), in SQL.

export interface EventRow {
  id: string;
  merchant_id: string;
  object_type: string;
  object_id: string;
  type: string;
  version: number;
  payload: string;
  notify_url: string;
  endpoint_id: string | null;
  created_at: Date | string;
  status: EventDeliveryLog['status'];
  attempt_count: number;
  next_attempt_at: Date | string;
  locked_until: Date | string | null;
}

export interface AttemptRow {
  event_id: string;
  attempt: number;
  started_at: Date | string;
  duration_ms: number;
  status_code: number | null;
  error: string | null;
  response_body: string | null;
  next_attempt_at: Date | string | null;
}

export const EVENT_COLUMNS = 'id, merchant_id, object_type, object_id, type, version, payload, notify_url, endpoint_id, created_at, status, attempt_count, next_attempt_at, locked_until';

/** A receiver's origin, as `receiverOfUrl` reads it, in SQL. */
export const receiverOf = (alias: string): string => `substring(${alias}.notify_url from '${RECEIVER_PATTERN}')`;

/** An event a claim may take at `now`: pending, due, not leased, with an attempt left (`attempts` the schedule's, unless a redelivery allowed more). */
export const claimable = (alias: string, now: string, attempts: string): string =>
  `${alias}.status = 'pending' AND ${alias}.next_attempt_at <= ${now} AND (${alias}.locked_until IS NULL OR ${alias}.locked_until <= ${now})
   AND ${alias}.attempt_count < COALESCE(${alias}.attempts_allowed, ${attempts})`;

/**
 * A pending event that has had every attempt it is allowed and none is in
 * flight: among those whose lease ran out (a claim finds them through the
 * lease index, whatever the backlog), or among all pending events.
 */
export const spentAmong = (alias: string, now: string, attempts: string, among: 'leases run out' | 'all pending'): string =>
  `${alias}.status = 'pending' AND ${alias}.attempt_count >= COALESCE(${alias}.attempts_allowed, ${attempts}) AND ` +
  (among === 'leases run out' ? `${alias}.locked_until IS NOT NULL AND ${alias}.locked_until <= ${now}` : `(${alias}.locked_until IS NULL OR ${alias}.locked_until <= ${now})`);

/** A receiver whose circuit lets attempts through at `now`: it has none, or it has been open its time (`alias` is its left-joined webhook_receivers row). */
export const circuitLetsThrough = (alias: string, now: string): string => `(${alias}.open_until IS NULL OR ${alias}.open_until <= ${now})`;

export function fromEventRow(row: EventRow): StoredWebhookEvent {
  return {
    id: row.id,
    merchantId: row.merchant_id,
    objectType: row.object_type,
    objectId: row.object_id,
    type: row.type,
    version: Number(row.version),
    payload: row.payload,
    notifyUrl: row.notify_url,
    endpointId: row.endpoint_id,
    createdAt: toDate(row.created_at),
    status: row.status,
    attemptCount: Number(row.attempt_count),
    nextAttemptAt: toDate(row.next_attempt_at),
    lockedUntil: row.locked_until === null ? null : toDate(row.locked_until),
  };
}
