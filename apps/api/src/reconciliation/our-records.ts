import type { SqlQueryable } from '../db/sql-client';
import { toDate } from '../db/sql-client';
import type { RecordObjectType } from '../providers/ports/provider-records.port';
import type { OurRecord } from './reconciliation-match';

/** Each product's table, and its failure column (a payin's decline). */
const TABLES: Record<RecordObjectType, string> = { payin: 'payins', payout: 'payouts', refund: 'refunds' };

interface Row {
  merchant_id: string;
  reference: string;
  provider_reference: string;
  amount_minor: string;
  currency: string;
  status: string;
  failure_reason: string | null;
  needs_attention: boolean;
  created_at: Date | string;
}

const COLUMNS = 'merchant_id, reference, provider_reference, amount_minor::text AS amount_minor, currency, status, failure_reason, needs_attention, created_at';

const recordOf = (objectType: RecordObjectType, row: Row): OurRecord => ({
  objectType,
  merchantId: row.merchant_id,
  reference: row.reference,
  providerReference: row.provider_reference,
  amountMinor: BigInt(row.amount_minor),
  currency: row.currency,
  status: row.status,
  failureReason: row.failure_reason,
  needsAttention: row.needs_attention === true,
  createdAt: toDate(row.created_at),
});

/**
 * Our objects as reconciliation reads them, from the products' own tables:
 * those whose provider of record is `provider` and that reached it (a
 * provider reference), created in [from, to).
 */
export async function ourRecordsOfDay(client: SqlQueryable, provider: string, objectType: RecordObjectType, day: { from: Date; to: Date }): Promise<OurRecord[]> {
  const { rows } = await client.query<Row>(
    `SELECT ${COLUMNS} FROM ${TABLES[objectType]} WHERE provider = $1 AND provider_reference IS NOT NULL AND created_at >= $2 AND created_at < $3`,
    [provider, day.from.toISOString(), day.to.toISOString()],
  );
  return rows.map((row) => recordOf(objectType, row));
}

/** Our objects of any day named by `providerReferences` at `provider` (one recorded before providers of record were kept counts as any provider's). */
export async function ourRecordsByReference(client: SqlQueryable, provider: string, objectType: RecordObjectType, providerReferences: readonly string[]): Promise<OurRecord[]> {
  if (providerReferences.length === 0) return [];
  const { rows } = await client.query<Row>(`SELECT ${COLUMNS} FROM ${TABLES[objectType]} WHERE provider_reference = ANY($2::text[]) AND (provider = $1 OR provider IS NULL)`, [provider, [...providerReferences]]);
  return rows.map((row) => recordOf(objectType, row));
}
