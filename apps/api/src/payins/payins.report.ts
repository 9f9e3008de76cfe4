import type { FailureReason, PayinStatus } from '@paysign/contracts';
import { toDate } from '../db/sql-client';
import { CURRENCY_FILTER, instantOrNull, minorOrNull, type ReportDefinition, type Timestamp } from '../db/report-definition';
import { PAYIN_STATUSES, effectivePayin } from './payin-states';
import { statusAt } from './sql-payin.repository';

interface PayinRaw {
  reference: string;
  status: PayinStatus;
  amount_minor: string;
  fee_minor: string | null;
  refunded_minor: string;
  currency: string;
  customer_email: string;
  customer_name: string | null;
  gateway: string | null;
  narration: string | null;
  provider: string | null;
  provider_reference: string | null;
  created_at: Timestamp;
  expires_at: Timestamp;
  paid_at: Timestamp | null;
  failed_at: Timestamp | null;
  failure_reason: string | null;
}
type PayinRow = Omit<PayinRaw, 'created_at' | 'expires_at' | 'paid_at' | 'failed_at' | 'failure_reason' | 'status'> & {
  status: PayinStatus;
  createdAt: Date;
  expiresAt: Date;
  paidAt: Date | null;
  failedAt: Date | null;
  failureReason: FailureReason | null;
  providerReference: string | null;
  version: number;
};

/** The payins report: each payin with its status as the listing answers it at the time asked. */
export const PAYINS_REPORT: ReportDefinition<PayinRow, PayinRaw> = {
  name: 'payins',
  table: 'payins',
  key: { column: 'reference', type: 'reference' },
  select:
    'reference, status, amount_minor::text AS amount_minor, fee_minor::text AS fee_minor, refunded_minor::text AS refunded_minor, currency, customer_email, customer_name, gateway, narration, provider, provider_reference, created_at, expires_at, paid_at, failed_at, failure_reason',
  filters: [{ parameter: 'status', values: PAYIN_STATUSES, condition: (value, params, now) => statusAt(value as PayinStatus, params, now) }, CURRENCY_FILTER],
  // As the listing answers it: a PENDING payin past its expiry is ABANDONED, whether or not the sweep has written it yet.
  rowOf: (raw, now) =>
    effectivePayin(
      { ...raw, createdAt: toDate(raw.created_at), expiresAt: toDate(raw.expires_at), paidAt: instantOrNull(raw.paid_at), failedAt: instantOrNull(raw.failed_at), failureReason: raw.failure_reason as FailureReason | null, providerReference: raw.provider_reference, version: 0 },
      now.getTime(),
    ),
  positionOf: (row) => ({ createdAt: row.createdAt, key: row.reference }),
  columns: [
    { header: 'reference', kind: 'text', value: (p) => p.reference },
    { header: 'status', kind: 'code', value: (p) => p.status },
    { header: 'amount', kind: 'amount', value: (p) => minorOrNull(p.amount_minor) },
    { header: 'fee', kind: 'amount', value: (p) => minorOrNull(p.fee_minor) },
    { header: 'amountRefunded', kind: 'amount', value: (p) => minorOrNull(p.refunded_minor) },
    { header: 'currency', kind: 'code', value: (p) => p.currency },
    { header: 'customerEmail', kind: 'text', value: (p) => p.customer_email },
    { header: 'customerName', kind: 'text', value: (p) => p.customer_name },
    { header: 'gateway', kind: 'code', value: (p) => p.gateway },
    { header: 'narration', kind: 'text', value: (p) => p.narration },
    { header: 'provider', kind: 'code', value: (p) => p.provider },
    { header: 'createdAt', kind: 'time', value: (p) => p.createdAt },
    { header: 'paidAt', kind: 'time', value: (p) => p.paidAt },
    { header: 'failedAt', kind: 'time', value: (p) => p.failedAt },
    { header: 'failureReason', kind: 'code', value: (p) => p.failureReason },
  ],
};
