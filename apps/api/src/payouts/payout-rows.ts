import type { NameMatch, PayoutApproval, PayoutCancellationReason, PayoutFailureReason, PayoutStatus } from '@paysign/contracts';
import { toDate } from '../db/sql-client';
import type { NewOutboxEvent } from '../events/outbox-event';
import type { PayoutMoney } from '../ledger/ledger';

// A payout as the payout tables hold it, and the mapping from their rows: shared by the payout and batch stores.

export interface NewPayout {
  merchantId: string;
  reference: string;
  amountMinor: bigint;
  feeMinor: bigint;
  currency: 'NGN';
  bankCode: string;
  accountNumber: string;
  accountName: string;
  nameMatch: NameMatch;
  narration: string;
  enquiryId: string;
  notifyUrl: string | null;
  /** SHA-256 of the normalised create request; equal fingerprints are the same request. */
  requestFingerprint: string;
  /** The API key that created it; null for a settlement's transfer a run of the schedule made. */
  createdBy: string | null;
  batchReference: string | null;
  /** `settlement`: the transfer of a settlement (apps/api/src/settlements), never a payout the merchant sees; `payout` when absent. */
  purpose?: PayoutPurpose;
}

/** What a payout row is for: a merchant's payout, or the transfer of a settlement to the merchant's own account. */
export type PayoutPurpose = 'payout' | 'settlement';

export interface StoredApproval {
  status: PayoutApproval['status'];
  decidedBy: string | null;
  decidedAt: Date | null;
  reason: string | null;
  expiresAt: Date | null;
}

export interface StoredPayout extends Omit<NewPayout, 'createdBy' | 'purpose'> {
  createdBy: string | null;
  purpose: PayoutPurpose;
  status: PayoutStatus;
  approval: StoredApproval | null;
  /** The provider it was sent through, recorded with `providerReference`: the only one ever asked about it. */
  provider: string | null;
  providerReference: string | null;
  failureReason: PayoutFailureReason | null;
  cancellationReason: PayoutCancellationReason | null;
  needsAttention: boolean;
  statusChecks: number;
  nextStatusCheckAt: Date | null;
  processingAt: Date | null;
  version: number;
  createdAt: Date;
  completedAt: Date | null;
  reversedAt: Date | null;
}

export interface PayoutKey {
  merchantId: string;
  reference: string;
}

export interface PayoutListQuery {
  merchantId: string;
  status?: PayoutStatus;
  batchReference?: string;
  /** Only payouts whose reference starts with it. */
  referencePrefix?: string;
  createdFrom?: Date;
  createdTo?: Date;
  after?: { createdAt: Date; reference: string };
  limit: number;
}

/** Builds the outbox row of a payout that just moved, if it has one. */
export type PayoutEventOf = (moved: StoredPayout) => readonly NewOutboxEvent[];

export interface PayoutRow {
  merchant_id: string;
  reference: string;
  status: PayoutStatus;
  amount_minor: string;
  fee_minor: string;
  currency: 'NGN';
  bank_code: string;
  account_number: string;
  account_name: string;
  name_match: NameMatch;
  narration: string;
  enquiry_id: string;
  notify_url: string | null;
  request_fingerprint: string;
  created_by: string | null;
  batch_reference: string | null;
  approval_status: PayoutApproval['status'] | null;
  approval_decided_by: string | null;
  approval_decided_at: Date | string | null;
  approval_reason: string | null;
  approval_expires_at: Date | string | null;
  provider: string | null;
  provider_reference: string | null;
  failure_reason: PayoutFailureReason | null;
  cancellation_reason: PayoutCancellationReason | null;
  needs_attention: boolean;
  status_checks: number;
  next_status_check_at: Date | string | null;
  processing_at: Date | string | null;
  version: number;
  created_at: Date | string;
  completed_at: Date | string | null;
  reversed_at: Date | string | null;
  purpose: PayoutPurpose;
}

export const PAYOUT_COLUMNS = `merchant_id, reference, status, amount_minor::text AS amount_minor, fee_minor::text AS fee_minor, currency, bank_code, account_number, account_name, name_match,
  narration, enquiry_id, notify_url, request_fingerprint, created_by, batch_reference, approval_status, approval_decided_by, approval_decided_at, approval_reason, approval_expires_at,
  provider, provider_reference, failure_reason, cancellation_reason, needs_attention, status_checks, next_status_check_at, processing_at, version, created_at, completed_at, reversed_at, purpose`;

/** The payout's money as its ledger journals need it. */
export const payoutMoney = (payout: StoredPayout): PayoutMoney => ({
  merchantId: payout.merchantId,
  reference: payout.reference,
  currency: payout.currency,
  amountMinor: payout.amountMinor,
  feeMinor: payout.feeMinor,
  objectType: payout.purpose,
});

const dateOrNull = (value: Date | string | null): Date | null => (value === null ? null : toDate(value));

export function payoutFromRow(row: PayoutRow): StoredPayout {
  return {
    merchantId: row.merchant_id,
    reference: row.reference,
    status: row.status,
    amountMinor: BigInt(row.amount_minor),
    feeMinor: BigInt(row.fee_minor),
    currency: row.currency,
    bankCode: row.bank_code,
    accountNumber: row.account_number,
    accountName: row.account_name,
    nameMatch: row.name_match,
    narration: row.narration,
    enquiryId: row.enquiry_id,
    notifyUrl: row.notify_url,
    requestFingerprint: row.request_fingerprint,
    createdBy: row.created_by,
    batchReference: row.batch_reference,
    approval:
      row.approval_status === null
        ? null
        : {
            status: row.approval_status,
            decidedBy: row.approval_decided_by,
            decidedAt: dateOrNull(row.approval_decided_at),
            reason: row.approval_reason,
            expiresAt: dateOrNull(row.approval_expires_at),
          },
    provider: row.provider,
    providerReference: row.provider_reference,
    failureReason: row.failure_reason,
    cancellationReason: row.cancellation_reason,
    needsAttention: row.needs_attention,
    statusChecks: Number(row.status_checks),
    nextStatusCheckAt: dateOrNull(row.next_status_check_at),
    processingAt: dateOrNull(row.processing_at),
    version: Number(row.version),
    createdAt: toDate(row.created_at),
    completedAt: dateOrNull(row.completed_at),
    reversedAt: dateOrNull(row.reversed_at),
    purpose: row.purpose ?? 'payout',
  };
}
