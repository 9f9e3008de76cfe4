import type { Payout, PayoutBatch } from '@paysign/contracts';
import { amountOf } from '../money/money';
import { batchTotals, type StoredBatch } from './payout-batch-store';
import type { StoredPayout } from './payout-rows';

/** A payout's approval as both contracts show it, its times as RFC 3339. */
export function approvalView(approval: StoredPayout['approval']) {
  return (
    approval && {
      status: approval.status,
      decidedBy: approval.decidedBy,
      decidedAt: approval.decidedAt?.toISOString() ?? null,
      reason: approval.reason,
      expiresAt: approval.expiresAt?.toISOString() ?? null,
    }
  );
}

/** A stored payout as the contract shows it: what GET returns, and what a webhook event carries. */
export function payoutToContract(payout: StoredPayout): Payout {
  const naira = (minor: bigint) => amountOf({ minor, currency: payout.currency });
  return {
    reference: payout.reference,
    merchantId: payout.merchantId,
    status: payout.status,
    amount: naira(payout.amountMinor),
    fee: naira(payout.feeMinor),
    currency: payout.currency,
    bankCode: payout.bankCode,
    accountNumber: payout.accountNumber,
    accountName: payout.accountName,
    nameMatch: payout.nameMatch,
    narration: payout.narration,
    enquiryId: payout.enquiryId,
    notifyUrl: payout.notifyUrl,
    batchReference: payout.batchReference,
    createdBy: payout.createdBy,
    approval: approvalView(payout.approval),
    provider: payout.provider,
    providerReference: payout.providerReference,
    failureReason: payout.failureReason,
    cancellationReason: payout.cancellationReason,
    needsAttention: payout.needsAttention,
    // Only a payout still being sent has a check ahead that the merchant may wait for.
    nextStatusCheckAt: payout.status === 'PROCESSING' ? (payout.nextStatusCheckAt?.toISOString() ?? null) : null,
    version: payout.version,
    createdAt: payout.createdAt.toISOString(),
    completedAt: payout.completedAt?.toISOString() ?? null,
    reversedAt: payout.reversedAt?.toISOString() ?? null,
  };
}

/** A stored batch as the contract shows it: what GET returns, and what its event carries. */
export function payoutBatchToContract(batch: StoredBatch): PayoutBatch {
  const naira = (minor: bigint) => amountOf({ minor, currency: 'NGN' });
  const totals = batchTotals(batch);
  return {
    reference: batch.reference,
    merchantId: batch.merchantId,
    title: batch.title,
    status: batch.status,
    itemCount: totals.count,
    total: naira(totals.amountMinor),
    fees: naira(totals.feeMinor),
    byStatus: batch.byStatus.map((total) => ({ status: total.status, count: total.count, amount: naira(total.amountMinor), fees: naira(total.feeMinor) })),
    approvalRequired: batch.approvalRequired,
    createdBy: batch.createdBy,
    submittedBy: batch.submittedBy,
    cancellationReason: batch.cancellationReason,
    version: batch.version,
    createdAt: batch.createdAt.toISOString(),
    // Only an OPEN batch has an expiry still ahead.
    expiresAt: batch.status === 'OPEN' ? batch.expiresAt.toISOString() : null,
    submittedAt: batch.submittedAt?.toISOString() ?? null,
    completedAt: batch.completedAt?.toISOString() ?? null,
    cancelledAt: batch.cancelledAt?.toISOString() ?? null,
  };
}
