import type { SqlClient } from '../db/sql-client';
import { sqlNow, type StoreClock } from '../db/store-clock';

/** What a replay scheduled, or would schedule with a dry run. */
export interface ReplayOutcome {
  merchantId: string;
  from: string;
  to: string;
  type: string | null;
  events: number;
  dryRun: boolean;
}

/**
 * The attempts a redelivered event is allowed: one more than it made, and
 * never fewer than the retry schedule still gave it (`scheduled`, its SQL
 * parameter), so that a redelivery of an event still retrying never cuts
 * its schedule short.
 */
export const oneMoreAttempt = (scheduled: string): string => `GREATEST(COALESCE(attempts_allowed, ${scheduled}), attempt_count + 1)`;

/** Replayed at most at once: a larger range is refused, so that one command never floods a merchant's receivers unasked. */
export const DEFAULT_REPLAY_MAX_EVENTS = 10_000;

/**
 * One more delivery of every event of a merchant created in [from, to),
 * with the same webhook-id and body, as the merchant's own redelivery does
 * for one event: each is due now, allowed one attempt more than it made,
 * and never fewer than the retry schedule still gave it. Events of an
 * endpoint deleted since are left out (they have no secret to be signed
 * with). A range of more than `maxEvents` events is refused whole.
 */
export async function replayWebhooks(client: SqlClient, storeClock: StoreClock, range: { merchantId: string; from: Date; to: Date; type?: string; maxEvents: number; dryRun: boolean; scheduledAttempts: number }): Promise<ReplayOutcome | { tooMany: number }> {
  const params: unknown[] = [range.merchantId, range.from.toISOString(), range.to.toISOString()];
  const type = range.type === undefined ? '' : ` AND type = $${params.push(range.type)}`;
  const where = `merchant_id = $1 AND created_at >= $2::timestamptz AND created_at < $3::timestamptz${type}
    AND (endpoint_id IS NULL OR endpoint_id IN (SELECT id FROM webhook_endpoints WHERE status <> 'deleted'))`;
  const outcome = (events: number): ReplayOutcome => ({ merchantId: range.merchantId, from: range.from.toISOString(), to: range.to.toISOString(), type: range.type ?? null, events, dryRun: range.dryRun });
  const counted = Number((await client.query<{ n: string | number }>(`SELECT count(*) AS n FROM outbox_events WHERE ${where}`, params)).rows[0]?.n ?? 0);
  if (counted > range.maxEvents) return { tooMany: counted };
  if (range.dryRun) return outcome(counted);
  const { rows } = await client.query<{ id: string }>(
    `UPDATE outbox_events SET status = 'pending', next_attempt_at = ${sqlNow(storeClock, params)}, attempts_allowed = ${oneMoreAttempt(`$${params.push(range.scheduledAttempts)}`)} WHERE ${where} RETURNING id`,
    params,
  );
  return outcome(rows.length);
}
