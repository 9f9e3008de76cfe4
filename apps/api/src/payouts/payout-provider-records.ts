import type { SqlQueryable } from '../db/sql-client';

/** A payout its provider is still to be asked about: being sent, or paid and watched for a reversal. One flagged and no longer checked is not. */
const IN_FLIGHT = `(status IN ('PROCESSING', 'SUCCESSFUL') AND next_status_check_at IS NOT NULL)`;

/** Payouts in flight by provider of record, for the boot check. */
export async function payoutsInFlightByProvider(client: SqlQueryable): Promise<Map<string, number>> {
  const { rows } = await client.query<{ provider: string; count: string }>(`SELECT provider, count(*)::text AS count FROM payouts WHERE ${IN_FLIGHT} AND provider IS NOT NULL GROUP BY provider`);
  return new Map(rows.map((row) => [row.provider, Number(row.count)]));
}

/** Records `provider` on the payouts in flight sent without one recorded (by the release before records were kept); resolves how many. */
export async function recordPayoutProviders(client: SqlQueryable, provider: string): Promise<number> {
  const { rows } = await client.query<{ count: string }>(
    `WITH recorded AS (UPDATE payouts SET provider = $1 WHERE provider IS NULL AND ${IN_FLIGHT} RETURNING 1) SELECT count(*)::text AS count FROM recorded`,
    [provider],
  );
  return Number(rows[0]?.count ?? 0);
}

/** Payouts in flight with no provider recorded: what the boot could not record, with no payout provider selected. */
export async function unrecordedPayoutsInFlight(client: SqlQueryable): Promise<number> {
  const { rows } = await client.query<{ count: string }>(`SELECT count(*)::text AS count FROM payouts WHERE ${IN_FLIGHT} AND provider IS NULL`);
  return Number(rows[0]?.count ?? 0);
}

/**
 * Flags for an operator, and stops checking, the payouts in flight at a
 * provider retired for good: nothing is sent again and no outcome is
 * guessed; their money stays held (or paid) until an operator settles them.
 * Resolves how many were flagged now.
 */
export async function retirePayoutsOf(client: SqlQueryable, provider: string): Promise<number> {
  const { rows } = await client.query<{ count: string }>(
    `WITH flagged AS (
       UPDATE payouts SET needs_attention = true, next_status_check_at = NULL WHERE ${IN_FLIGHT} AND provider = $1 RETURNING 1)
     SELECT count(*)::text AS count FROM flagged`,
    [provider],
  );
  return Number(rows[0]?.count ?? 0);
}
