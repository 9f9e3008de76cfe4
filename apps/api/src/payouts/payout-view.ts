import type { Payout } from '@paysign/contracts';
import { amountOf } from '../money/money';
import type { StoredPayout } from './payout-store';

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
    providerReference: payout.providerReference,
    failureReason: payout.failureReason,
    needsAttention: payout.needsAttention,
    // Only a payout still being sent has a check ahead that the merchant may wait for.
    nextStatusCheckAt: payout.status === 'PROCESSING' ? (payout.nextStatusCheckAt?.toISOString() ?? null) : null,
    version: payout.version,
    createdAt: payout.createdAt.toISOString(),
    completedAt: payout.completedAt?.toISOString() ?? null,
    reversedAt: payout.reversedAt?.toISOString() ?? null,
  };
}
