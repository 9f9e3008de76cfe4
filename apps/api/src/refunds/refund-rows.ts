import type { Currency, RefundFailureReason, RefundReason, RefundStatus } from '@paysign/contracts';
import { toDate } from '../db/sql-client';
import type { NewOutboxEvent } from '../events/outbox-event';
import type { RefundFunding, RefundMoney } from '../ledger/refund-holds';

// A refund as the refunds table holds it, and the mapping from its rows.

export interface NewRefund {
  merchantId: string;
  reference: string;
  payinReference: string;
  /** Left out of the request: everything not yet refunded, as the create's transaction finds it. */
  amountMinor: bigint | null;
  reason: RefundReason | null;
  merchantNote: string | null;
  customerNote: string | null;
  notifyUrl: string | null;
  /** SHA-256 of the normalised create request; equal fingerprints are the same request. */
  requestFingerprint: string;
  /** The API key that created it. */
  createdBy: string;
}

export interface StoredRefundAccount {
  bankCode: string;
  accountNumber: string;
  accountName: string;
  enquiryId: string;
}

export interface StoredRefund extends Omit<NewRefund, 'amountMinor' | 'createdBy'> {
  amountMinor: bigint;
  /** The payin's reference at its provider (its own reference where it has none): the payment the refund returns money from. */
  paymentReference: string;
  currency: Currency;
  status: RefundStatus;
  fundedFrom: RefundFunding;
  feeReturnedMinor: bigint;
  /** The payin's provider, recorded at creation: the only one ever sent or asked about the refund. */
  provider: string | null;
  providerReference: string | null;
  account: StoredRefundAccount | null;
  failureReason: RefundFailureReason | null;
  needsAttention: boolean;
  statusChecks: number;
  nextStatusCheckAt: Date | null;
  version: number;
  createdBy: string | null;
  createdAt: Date;
  processingAt: Date | null;
  completedAt: Date | null;
}

export interface RefundKey {
  merchantId: string;
  reference: string;
}

export interface RefundListQuery {
  merchantId: string;
  status?: RefundStatus;
  payinReference?: string;
  createdFrom?: Date;
  createdTo?: Date;
  after?: { createdAt: Date; reference: string };
  limit: number;
}

/** Builds the outbox row of a refund that was created or just moved, if it has one. */
export type RefundEventOf = (refund: StoredRefund) => readonly NewOutboxEvent[];

export interface RefundRow {
  merchant_id: string;
  reference: string;
  payin_reference: string;
  payment_reference: string;
  status: RefundStatus;
  amount_minor: string;
  currency: Currency;
  reason: RefundReason | null;
  merchant_note: string | null;
  customer_note: string | null;
  notify_url: string | null;
  funded_from: RefundFunding;
  fee_returned_minor: string;
  provider: string | null;
  provider_reference: string | null;
  account_bank_code: string | null;
  account_number: string | null;
  account_name: string | null;
  account_enquiry_id: string | null;
  failure_reason: RefundFailureReason | null;
  needs_attention: boolean;
  status_checks: number;
  next_status_check_at: Date | string | null;
  version: number;
  request_fingerprint: string;
  created_by: string | null;
  created_at: Date | string;
  processing_at: Date | string | null;
  completed_at: Date | string | null;
}

export const REFUND_COLUMNS = `merchant_id, reference, payin_reference, payment_reference, status, amount_minor::text AS amount_minor, currency, reason, merchant_note, customer_note, notify_url, funded_from,
  fee_returned_minor::text AS fee_returned_minor, provider, provider_reference, account_bank_code, account_number, account_name, account_enquiry_id, failure_reason, needs_attention,
  status_checks, next_status_check_at, version, request_fingerprint, created_by, created_at, processing_at, completed_at`;

/** The refund's money as its ledger journals need it. */
export const refundMoney = (refund: StoredRefund): RefundMoney => ({
  merchantId: refund.merchantId,
  reference: refund.reference,
  payinReference: refund.payinReference,
  currency: refund.currency,
  amountMinor: refund.amountMinor,
  fundedFrom: refund.fundedFrom,
  feeReturnedMinor: refund.feeReturnedMinor,
});

const dateOrNull = (value: Date | string | null): Date | null => (value === null ? null : toDate(value));

export function refundFromRow(row: RefundRow): StoredRefund {
  return {
    merchantId: row.merchant_id,
    reference: row.reference,
    payinReference: row.payin_reference,
    paymentReference: row.payment_reference,
    status: row.status,
    amountMinor: BigInt(row.amount_minor),
    currency: row.currency,
    reason: row.reason,
    merchantNote: row.merchant_note,
    customerNote: row.customer_note,
    notifyUrl: row.notify_url,
    fundedFrom: row.funded_from,
    feeReturnedMinor: BigInt(row.fee_returned_minor),
    provider: row.provider,
    providerReference: row.provider_reference,
    account:
      row.account_bank_code === null
        ? null
        : { bankCode: row.account_bank_code, accountNumber: row.account_number as string, accountName: row.account_name as string, enquiryId: row.account_enquiry_id as string },
    failureReason: row.failure_reason,
    needsAttention: row.needs_attention,
    statusChecks: Number(row.status_checks),
    nextStatusCheckAt: dateOrNull(row.next_status_check_at),
    version: Number(row.version),
    requestFingerprint: row.request_fingerprint,
    createdBy: row.created_by,
    createdAt: toDate(row.created_at),
    processingAt: dateOrNull(row.processing_at),
    completedAt: dateOrNull(row.completed_at),
  };
}
