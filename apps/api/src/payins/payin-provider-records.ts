import type { SqlQueryable } from '../db/sql-client';

/** A payin its provider is still to be asked about: started there, PENDING, its checks not stopped for an operator. */
const IN_FLIGHT = `(status = 'PENDING' AND provider_reference IS NOT NULL AND next_provider_check_at IS NOT NULL)`;

/** Payins in flight by provider of record, for the boot check: their provider must stay configured until they are final. */
export async function payinsInFlightByProvider(client: SqlQueryable): Promise<Map<string, number>> {
  const { rows } = await client.query<{ provider: string; count: string }>(
    `SELECT provider, count(*)::text AS count FROM payins WHERE ${IN_FLIGHT} AND provider IS NOT NULL GROUP BY provider`,
  );
  return new Map(rows.map((row) => [row.provider, Number(row.count)]));
}

/** Records `provider` on the PENDING payins written without one (by the release before records were kept); resolves how many. */
export async function recordPayinProviders(client: SqlQueryable, provider: string): Promise<number> {
  const { rows } = await client.query<{ count: string }>(
    "WITH recorded AS (UPDATE payins SET provider = $1 WHERE provider IS NULL AND status = 'PENDING' RETURNING 1) SELECT count(*)::text AS count FROM recorded",
    [provider],
  );
  return Number(rows[0]?.count ?? 0);
}

/** Payins in flight with no provider recorded: what the boot could not record, with no gateway selected. */
export async function unrecordedPayinsInFlight(client: SqlQueryable): Promise<number> {
  const { rows } = await client.query<{ count: string }>(`SELECT count(*)::text AS count FROM payins WHERE ${IN_FLIGHT} AND provider IS NULL`);
  return Number(rows[0]?.count ?? 0);
}

/** Flags for an operator, and stops asking about, the payins in flight at a provider retired for good; resolves how many were flagged now. */
export async function retirePayinsOf(client: SqlQueryable, provider: string): Promise<number> {
  const { rows } = await client.query<{ count: string }>(
    `WITH flagged AS (
       UPDATE payins SET needs_attention = true, next_provider_check_at = NULL
       WHERE ${IN_FLIGHT} AND provider = $1 RETURNING 1)
     SELECT count(*)::text AS count FROM flagged`,
    [provider],
  );
  return Number(rows[0]?.count ?? 0);
}
