import { toDate } from '../db/sql-client';
import { CURRENCY_FILTER, instantOrNull, minorOrNull, oneOfFilter, referenceFilter, type ReportDefinition, type Timestamp } from '../db/report-definition';
import { PAYOUT_STATUSES } from './payout-states';

interface PayoutRaw {
  reference: string;
  status: string;
  amount_minor: string;
  fee_minor: string;
  currency: string;
  bank_code: string;
  account_number: string;
  account_name: string;
  narration: string;
  batch_reference: string | null;
  created_at: Timestamp;
  completed_at: Timestamp | null;
  reversed_at: Timestamp | null;
  failure_reason: string | null;
  cancellation_reason: string | null;
}

/** The payouts report: each payout, its beneficiary and where it ended. */
export const PAYOUTS_REPORT: ReportDefinition<PayoutRaw, PayoutRaw> = {
  name: 'payouts',
  table: 'payouts',
  // A settlement's transfer is in the settlements report, never here.
  scope: "purpose = 'payout'",
  key: { column: 'reference', type: 'reference' },
  select:
    'reference, status, amount_minor::text AS amount_minor, fee_minor::text AS fee_minor, currency, bank_code, account_number, account_name, narration, batch_reference, created_at, completed_at, reversed_at, failure_reason, cancellation_reason',
  filters: [oneOfFilter('status', 'status', PAYOUT_STATUSES), CURRENCY_FILTER, referenceFilter('batchReference', 'batch_reference')],
  rowOf: (raw) => raw,
  positionOf: (row) => ({ createdAt: toDate(row.created_at), key: row.reference }),
  columns: [
    { header: 'reference', kind: 'text', value: (p) => p.reference },
    { header: 'status', kind: 'code', value: (p) => p.status },
    { header: 'amount', kind: 'amount', value: (p) => minorOrNull(p.amount_minor) },
    { header: 'fee', kind: 'amount', value: (p) => minorOrNull(p.fee_minor) },
    { header: 'currency', kind: 'code', value: (p) => p.currency },
    { header: 'bankCode', kind: 'code', value: (p) => p.bank_code },
    { header: 'accountNumber', kind: 'code', value: (p) => p.account_number },
    { header: 'accountName', kind: 'text', value: (p) => p.account_name },
    { header: 'narration', kind: 'text', value: (p) => p.narration },
    { header: 'batchReference', kind: 'text', value: (p) => p.batch_reference },
    { header: 'createdAt', kind: 'time', value: (p) => instantOrNull(p.created_at) },
    { header: 'completedAt', kind: 'time', value: (p) => instantOrNull(p.completed_at) },
    { header: 'reversedAt', kind: 'time', value: (p) => instantOrNull(p.reversed_at) },
    { header: 'failureReason', kind: 'code', value: (p) => p.failure_reason },
    { header: 'cancellationReason', kind: 'code', value: (p) => p.cancellation_reason },
  ],
};
