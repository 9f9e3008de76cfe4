import type { Settlement, SettlementStatus } from '@paysign/contracts';
import { amountOf } from '../money/money';
import type { StoredPayout } from '../payouts/payout-rows';

/** A settlement's state from its transfer's: the transfer's states, in the settlement's words. */
const STATUS_OF: Record<StoredPayout['status'], SettlementStatus> = {
  QUEUED: 'PENDING',
  PROCESSING: 'PROCESSING',
  SUCCESSFUL: 'PAID',
  FAILED: 'FAILED',
  REVERSED: 'REVERSED',
  // Never made: a settlement's transfer waits for no approval and no batch, and nobody cancels it.
  PENDING_APPROVAL: 'PENDING',
  BATCHED: 'PENDING',
  CANCELLED: 'FAILED',
};

/** The transfer states a settlement state lists, for a listing filtered by status. */
export const TRANSFER_STATUSES_OF: Record<SettlementStatus, readonly StoredPayout['status'][]> = {
  PENDING: ['QUEUED'],
  PROCESSING: ['PROCESSING'],
  PAID: ['SUCCESSFUL'],
  FAILED: ['FAILED', 'CANCELLED'],
  REVERSED: ['REVERSED'],
};

/** The narration on the merchant's bank statement: it carries the settlement's id, which the merchant matches. */
export const settlementNarration = (id: string): string => `Paysign settlement ${id}`;

export const settlementStatusOf = (transfer: StoredPayout): SettlementStatus => STATUS_OF[transfer.status];

/**
 * A settlement as the contract shows it, from its transfer alone (a payout
 * row of purpose `settlement`, whose reference is the settlement's id): what
 * GET returns and what its events carry. A run of the schedule creates its
 * transfer with no API key; `POST /settlements`, with the caller's.
 */
export function settlementToContract(transfer: StoredPayout): Settlement {
  return {
    id: transfer.reference,
    merchantId: transfer.merchantId,
    status: settlementStatusOf(transfer),
    amount: amountOf({ minor: transfer.amountMinor, currency: transfer.currency }),
    currency: transfer.currency,
    trigger: transfer.createdBy === null ? 'schedule' : 'manual',
    account: { bankCode: transfer.bankCode, accountNumber: transfer.accountNumber, accountName: transfer.accountName },
    narration: transfer.narration,
    provider: transfer.provider,
    providerReference: transfer.providerReference,
    failureReason: transfer.failureReason,
    needsAttention: transfer.needsAttention,
    version: transfer.version,
    createdAt: transfer.createdAt.toISOString(),
    processingAt: transfer.processingAt?.toISOString() ?? null,
    completedAt: transfer.completedAt?.toISOString() ?? null,
    reversedAt: transfer.reversedAt?.toISOString() ?? null,
  };
}
