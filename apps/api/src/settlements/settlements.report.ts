import { SCHEMAS, type SettlementStatus } from '@paysign/contracts';
import { instantOrNull, minorOrNull, type ReportDefinition, type Timestamp } from '../db/report-definition';
import { toDate } from '../db/sql-client';
import type { StoredPayout } from '../payouts/payout-rows';
import { TRANSFER_STATUSES_OF } from './settlement-view';

interface TransferRaw {
  reference: string;
  status: StoredPayout['status'];
  amount_minor: string;
  currency: string;
  created_by: string | null;
  bank_code: string;
  account_number: string;
  account_name: string;
  narration: string;
  provider_reference: string | null;
  created_at: Timestamp;
  completed_at: Timestamp | null;
  reversed_at: Timestamp | null;
  failure_reason: string | null;
}

const SETTLEMENT_STATUS_OF = Object.fromEntries(Object.entries(TRANSFER_STATUSES_OF).flatMap(([settlement, transfers]) => transfers.map((transfer) => [transfer, settlement]))) as Record<StoredPayout['status'], SettlementStatus>;

/**
 * The settlements report: each settlement, read from its transfer (a payout
 * row of purpose `settlement`), with the narration the merchant's bank
 * statement shows, so that finance matches one to the other.
 */
export const SETTLEMENTS_REPORT: ReportDefinition<TransferRaw, TransferRaw> = {
  name: 'settlements',
  table: 'payouts',
  scope: "purpose = 'settlement'",
  key: { column: 'reference', type: 'reference' },
  select:
    'reference, status, amount_minor::text AS amount_minor, currency, created_by, bank_code, account_number, account_name, narration, provider_reference, created_at, completed_at, reversed_at, failure_reason',
  filters: [
    {
      parameter: 'status',
      values: SCHEMAS.SettlementStatus.enum,
      condition: (value, params) => `status IN (${TRANSFER_STATUSES_OF[value as SettlementStatus].map((status) => `$${params.push(status)}`).join(', ')})`,
    },
  ],
  rowOf: (raw) => raw,
  positionOf: (row) => ({ createdAt: toDate(row.created_at), key: row.reference }),
  columns: [
    { header: 'id', kind: 'code', value: (s) => s.reference },
    { header: 'status', kind: 'code', value: (s) => SETTLEMENT_STATUS_OF[s.status] ?? s.status },
    { header: 'amount', kind: 'amount', value: (s) => minorOrNull(s.amount_minor) },
    { header: 'currency', kind: 'code', value: (s) => s.currency },
    { header: 'trigger', kind: 'code', value: (s) => (s.created_by === null ? 'schedule' : 'manual') },
    { header: 'bankCode', kind: 'code', value: (s) => s.bank_code },
    { header: 'accountNumber', kind: 'code', value: (s) => s.account_number },
    { header: 'accountName', kind: 'text', value: (s) => s.account_name },
    { header: 'narration', kind: 'text', value: (s) => s.narration },
    { header: 'providerReference', kind: 'code', value: (s) => s.provider_reference },
    { header: 'createdAt', kind: 'time', value: (s) => instantOrNull(s.created_at) },
    { header: 'completedAt', kind: 'time', value: (s) => instantOrNull(s.completed_at) },
    { header: 'reversedAt', kind: 'time', value: (s) => instantOrNull(s.reversed_at) },
    { header: 'failureReason', kind: 'code', value: (s) => s.failure_reason },
  ],
};
