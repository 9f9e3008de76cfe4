import type { DashboardComponents } from '@paysign/contracts';
import { batchTotals, type StoredBatch } from '../payouts/payout-batch-store';
import type { StoredPayout } from '../payouts/payout-rows';
import { approvalView } from '../payouts/payout-view';

type Payout = DashboardComponents['schemas']['Payout'];
type PayoutEvent = DashboardComponents['schemas']['PayoutEvent'];
type PayoutBatch = DashboardComponents['schemas']['PayoutBatch'];

/** The dashboard counts money in kobo, as its overview does; a payout's amounts are far inside a double's whole numbers. */
const kobo = (minor: bigint): number => Number(minor);

/** A stored payout as the dashboard shows it. */
export function dashboardPayout(payout: StoredPayout): Payout {
  return {
    reference: payout.reference,
    status: payout.status,
    amount: kobo(payout.amountMinor),
    fee: kobo(payout.feeMinor),
    currency: payout.currency,
    bankCode: payout.bankCode,
    accountNumber: payout.accountNumber,
    accountName: payout.accountName,
    nameMatch: payout.nameMatch,
    narration: payout.narration,
    batchReference: payout.batchReference,
    createdBy: payout.createdBy,
    approval: approvalView(payout.approval),
    failureReason: payout.failureReason,
    cancellationReason: payout.cancellationReason,
    createdAt: payout.createdAt.toISOString(),
    completedAt: payout.completedAt?.toISOString() ?? null,
  };
}

/** The steps of a payout's life its record holds, oldest first: the payout table keeps when each happened, not a log. */
export function payoutEvents(payout: StoredPayout): PayoutEvent[] {
  const events: PayoutEvent[] = [{ type: 'created', at: payout.createdAt.toISOString(), by: payout.createdBy, note: null }];
  const approval = payout.approval;
  if (approval?.decidedAt && (approval.status === 'approved' || approval.status === 'rejected')) {
    events.push({ type: approval.status, at: approval.decidedAt.toISOString(), by: approval.decidedBy, note: approval.reason });
  }
  if (payout.processingAt) events.push({ type: 'sending', at: payout.processingAt.toISOString(), by: null, note: null });
  // A reversed payout succeeded first: its completion was the success, its reversal came after.
  const final = { SUCCESSFUL: 'successful', FAILED: 'failed', CANCELLED: 'cancelled', REVERSED: 'successful' } as const;
  const ended = payout.status in final ? final[payout.status as keyof typeof final] : undefined;
  // A rejection is the cancellation, alone or with its batch (batch_cancelled): it is listed once, as the rejection.
  const rejection = payout.cancellationReason === 'rejected' || approval?.status === 'rejected';
  if (ended !== undefined && payout.completedAt && !rejection) {
    events.push({ type: ended, at: payout.completedAt.toISOString(), by: null, note: payout.status === 'REVERSED' ? null : (payout.failureReason ?? payout.cancellationReason) });
  }
  if (payout.reversedAt) events.push({ type: 'reversed', at: payout.reversedAt.toISOString(), by: null, note: payout.failureReason });
  return events;
}

/** A stored batch as the dashboard shows it, with the count and sum of all its payouts. */
export function dashboardBatch(batch: StoredBatch): PayoutBatch {
  const totals = batchTotals(batch);
  return {
    reference: batch.reference,
    title: batch.title,
    status: batch.status,
    count: totals.count,
    total: kobo(totals.amountMinor),
    fees: kobo(totals.feeMinor),
    approvalRequired: batch.approvalRequired,
    createdBy: batch.createdBy,
    submittedBy: batch.submittedBy,
    cancellationReason: batch.cancellationReason,
    createdAt: batch.createdAt.toISOString(),
    expiresAt: batch.status === 'OPEN' ? batch.expiresAt.toISOString() : null,
    submittedAt: batch.submittedAt?.toISOString() ?? null,
  };
}
