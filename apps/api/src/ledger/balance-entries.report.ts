import { SCHEMAS } from '@paysign/contracts';
import { toDate } from '../db/sql-client';
import { CURRENCY_FILTER, instantOrNull, minorOrNull, oneOfFilter, type ReportDefinition, type Timestamp } from '../db/report-definition';

interface EntryRaw {
  id: string;
  type: string;
  kind: string;
  amount_minor: string;
  currency: string;
  object_type: string;
  object_id: string;
  created_at: Timestamp;
}

/** The balance entries report: every entry of the merchant's balances, signed, as the entries listing shows them. */
export const BALANCE_ENTRIES_REPORT: ReportDefinition<EntryRaw, EntryRaw> = {
  name: 'balance-entries',
  table: 'ledger_entries',
  key: { column: 'id', type: 'bigint' },
  select: 'id::text AS id, type, kind, amount_minor::text AS amount_minor, currency, object_type, object_id, created_at',
  filters: [CURRENCY_FILTER, oneOfFilter('type', 'type', SCHEMAS.BalanceEntryType.enum), oneOfFilter('balance', 'kind', ['available', 'pending', 'held'])],
  rowOf: (raw) => raw,
  positionOf: (row) => ({ createdAt: toDate(row.created_at), key: row.id }),
  columns: [
    { header: 'id', kind: 'code', value: (e) => e.id },
    { header: 'type', kind: 'code', value: (e) => e.type },
    { header: 'balance', kind: 'code', value: (e) => e.kind },
    { header: 'amount', kind: 'amount', value: (e) => minorOrNull(e.amount_minor) },
    { header: 'currency', kind: 'code', value: (e) => e.currency },
    { header: 'objectType', kind: 'code', value: (e) => e.object_type },
    { header: 'reference', kind: 'text', value: (e) => e.object_id },
    { header: 'createdAt', kind: 'time', value: (e) => instantOrNull(e.created_at) },
  ],
};
