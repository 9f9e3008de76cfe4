import type { Payin } from '@paysign/contracts';
import { amountOf } from '../money/money';
import type { CheckoutLinks } from './checkout-links';
import type { StoredPayin } from './payin-repository.interface';

/** A stored payin as the contract shows it: what GET returns, and what a webhook event carries. */
export function payinToContract(payin: StoredPayin, links: CheckoutLinks): Payin {
  return {
    reference: payin.reference,
    merchantId: payin.merchantId,
    status: payin.status,
    amount: amountOf({ minor: payin.amountMinor, currency: payin.currency }),
    fee: payin.feeMinor === null ? null : amountOf({ minor: payin.feeMinor, currency: payin.currency }),
    amountRefunded: amountOf({ minor: payin.refundedMinor, currency: payin.currency }),
    amountRefundable: payin.status === 'SUCCESSFUL' ? amountOf({ minor: payin.amountMinor - payin.refundedMinor - payin.refundingMinor, currency: payin.currency }) : 0,
    currency: payin.currency,
    customerEmail: payin.customerEmail,
    customerName: payin.customerName,
    gateway: payin.gateway,
    provider: payin.provider,
    narration: payin.narration,
    notifyUrl: payin.notifyUrl,
    redirectUrl: payin.redirectUrl,
    checkoutUrl: payin.status === 'PENDING' && payin.checkoutSeed !== null ? links.urlOf(payin.checkoutSeed) : null,
    createdAt: payin.createdAt.toISOString(),
    expiresAt: payin.expiresAt.toISOString(),
    paidAt: payin.paidAt?.toISOString() ?? null,
    failedAt: payin.failedAt?.toISOString() ?? null,
    failureReason: payin.failureReason,
    needsAttention: payin.needsAttention,
    attempts: payin.attempts.map((attempt) => ({
      channel: attempt.channel,
      outcome: attempt.outcome,
      declineReason: attempt.declineReason,
      attemptedAt: attempt.attemptedAt.toISOString(),
    })),
  };
}
