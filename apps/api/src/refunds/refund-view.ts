import type { Refund } from '@paysign/contracts';
import { amountOf } from '../money/money';
import type { StoredRefund } from './refund-rows';

/** A stored refund as the contract shows it: what GET returns, and what a webhook event carries. */
export function refundToContract(refund: StoredRefund): Refund {
  const major = (minor: bigint) => amountOf({ minor, currency: refund.currency });
  return {
    reference: refund.reference,
    merchantId: refund.merchantId,
    payinReference: refund.payinReference,
    status: refund.status,
    amount: major(refund.amountMinor),
    currency: refund.currency,
    reason: refund.reason,
    merchantNote: refund.merchantNote,
    customerNote: refund.customerNote,
    notifyUrl: refund.notifyUrl,
    fundedFrom: refund.fundedFrom,
    feeReturned: major(refund.feeReturnedMinor),
    provider: refund.provider,
    providerReference: refund.providerReference,
    account: refund.account && { ...refund.account },
    failureReason: refund.failureReason,
    needsAttention: refund.needsAttention,
    nextStatusCheckAt: refund.nextStatusCheckAt?.toISOString() ?? null,
    version: refund.version,
    createdAt: refund.createdAt.toISOString(),
    processingAt: refund.processingAt?.toISOString() ?? null,
    completedAt: refund.completedAt?.toISOString() ?? null,
  };
}
