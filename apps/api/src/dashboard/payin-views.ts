import type { DashboardComponents } from '@paysign/contracts';
import type { StoredPayin } from '../payins/payin-repository.interface';
import type { StoredRefund } from '../refunds/refund-rows';
import type { EventWithAttempts } from '../webhooks/sql-webhook-event.repository';

type Schemas = DashboardComponents['schemas'];

/** A payin as the payins page lists it: money in kobo, its status as it reads now. */
export function payinSummaryOf(payin: StoredPayin): Schemas['PayinSummary'] {
  return {
    reference: payin.reference,
    status: payin.status,
    amount: Number(payin.amountMinor),
    currency: payin.currency,
    fee: payin.feeMinor === null ? null : Number(payin.feeMinor),
    amountRefunded: Number(payin.refundedMinor),
    customerEmail: payin.customerEmail,
    customerName: payin.customerName,
    channel: payin.gateway,
    createdAt: payin.createdAt.toISOString(),
    paidAt: payin.paidAt?.toISOString() ?? null,
    failedAt: payin.failedAt?.toISOString() ?? null,
    failureReason: payin.failureReason,
  };
}

/** A payin's page: the payin, its checkout attempts, its events with their deliveries, its customer and its refunds. */
export function payinDetailOf(payin: StoredPayin, events: readonly EventWithAttempts[], refunds: readonly StoredRefund[]): Schemas['PayinDetail'] {
  return {
    payin: payinSummaryOf(payin),
    narration: payin.narration,
    expiresAt: payin.expiresAt.toISOString(),
    provider: payin.provider,
    providerReference: payin.providerReference,
    needsAttention: payin.needsAttention,
    amountRefunding: Number(payin.refundingMinor),
    attempts: payin.attempts.map((a, index) => ({ attempt: index + 1, channel: a.channel, outcome: a.outcome, declineReason: a.declineReason, attemptedAt: a.attemptedAt.toISOString() })),
    events: events.map((event) => ({
      id: event.id,
      type: event.type,
      createdAt: event.createdAt.toISOString(),
      status: event.status,
      nextAttemptAt: event.status === 'pending' ? event.nextAttemptAt.toISOString() : null,
      notifyUrl: event.notifyUrl,
      deliveries: event.attempts.map((a) => ({ attempt: a.attempt, startedAt: a.startedAt, durationMs: a.durationMs, statusCode: a.statusCode, error: a.error })),
    })),
    customer: { email: payin.customerEmail, name: payin.customerName },
    refunds: refunds.map(refundOf),
  };
}

/** A refund as the payin's page shows it, money in kobo. */
export function refundOf(refund: StoredRefund): Schemas['DashboardRefund'] {
  return {
    reference: refund.reference,
    payinReference: refund.payinReference,
    status: refund.status,
    amount: Number(refund.amountMinor),
    currency: refund.currency,
    reason: refund.reason,
    failureReason: refund.failureReason,
    createdBy: refund.createdBy,
    createdAt: refund.createdAt.toISOString(),
    completedAt: refund.completedAt?.toISOString() ?? null,
  };
}
