import { SCHEMAS } from '@paysign/contracts';
import { toDate } from '../db/sql-client';
import { CURRENCY_FILTER, instantOrNull, minorOrNull, oneOfFilter, referenceFilter, type ReportDefinition, type Timestamp } from '../db/report-definition';

interface RefundRaw {
  reference: string;
  payin_reference: string;
  status: string;
  amount_minor: string;
  fee_returned_minor: string;
  currency: string;
  funded_from: string;
  reason: string | null;
  merchant_note: string | null;
  customer_note: string | null;
  created_at: Timestamp;
  completed_at: Timestamp | null;
  failure_reason: string | null;
}

/** The refunds report: each refund, the payin it returns, and where it ended. */
export const REFUNDS_REPORT: ReportDefinition<RefundRaw, RefundRaw> = {
  name: 'refunds',
  table: 'refunds',
  key: { column: 'reference', type: 'reference' },
  select:
    'reference, payin_reference, status, amount_minor::text AS amount_minor, fee_returned_minor::text AS fee_returned_minor, currency, funded_from, reason, merchant_note, customer_note, created_at, completed_at, failure_reason',
  filters: [oneOfFilter('status', 'status', SCHEMAS.RefundStatus.enum), CURRENCY_FILTER, referenceFilter('payinReference', 'payin_reference')],
  rowOf: (raw) => raw,
  positionOf: (row) => ({ createdAt: toDate(row.created_at), key: row.reference }),
  columns: [
    { header: 'reference', kind: 'text', value: (r) => r.reference },
    { header: 'payinReference', kind: 'text', value: (r) => r.payin_reference },
    { header: 'status', kind: 'code', value: (r) => r.status },
    { header: 'amount', kind: 'amount', value: (r) => minorOrNull(r.amount_minor) },
    { header: 'feeReturned', kind: 'amount', value: (r) => minorOrNull(r.fee_returned_minor) },
    { header: 'currency', kind: 'code', value: (r) => r.currency },
    { header: 'fundedFrom', kind: 'code', value: (r) => r.funded_from },
    { header: 'reason', kind: 'code', value: (r) => r.reason },
    { header: 'merchantNote', kind: 'text', value: (r) => r.merchant_note },
    { header: 'customerNote', kind: 'text', value: (r) => r.customer_note },
    { header: 'createdAt', kind: 'time', value: (r) => instantOrNull(r.created_at) },
    { header: 'completedAt', kind: 'time', value: (r) => instantOrNull(r.completed_at) },
    { header: 'failureReason', kind: 'code', value: (r) => r.failure_reason },
  ],
};
