import { Inject, Injectable, type BeforeApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import type { Logger } from 'pino';
import type { AppConfig } from '../config/app-config';
import { AppConfigToken } from '../config/app-config.token';
import { Clock } from '../config/clock';
import { StoreClock, storeInstant } from '../db/store-clock';
import { JobRunner, type JobRunOutcome } from '../jobs/job-runner';
import { nextCheck, ProviderChecks } from '../jobs/provider-checks';
import { ProviderSends } from '../jobs/provider-sends';
import { ATTENTION_AFTER_S, statusCheckOffsetSeconds } from '../jobs/status-check-schedule';
import { ServiceLogger } from '../logging/logger';
import { ServiceMetrics } from '../metrics/service-metrics';
import type { PaymentRefunds, RefundOrder, RefundStatusAnswer } from '../providers/ports/payment-refunds.port';
import { ProviderRegistry } from '../providers/provider-registry';
import { RefundEvents } from './refund-events';
import type { RefundTransition } from './refund-states';
import { RefundStore, type StoredRefund } from './refund-store';

export const REFUND_DISPATCH_JOB = 'refund-dispatch';
export const REFUND_STATUS_CHECK_JOB = 'refund-status-check';

/**
 * Sends refunds to the provider of record of their payin, and settles their
 * outcome, as two jobs of every instance.
 *
 * `refund-dispatch` takes PENDING refunds and moves each to PROCESSING with
 * a reference its provider minted (committed before the provider hears of
 * it), then asks the provider to refund. `refund-status-check` asks the
 * provider about each PROCESSING refund on its schedule; a refund the
 * provider has no record of past REFUND_RESEND_GRACE_SECONDS is sent again
 * under the same reference, which the adapter finds before it makes
 * another, so no outcome is ever guessed and no refund is made twice.
 */
@Injectable()
export class RefundDispatcher implements OnModuleInit, BeforeApplicationShutdown {
  /** Sends under way, each ended by the provider's answer, its timeout or shutdown. */
  private readonly sends: ProviderSends;
  private readonly checks: ProviderChecks<StoredRefund>;

  constructor(
    private readonly store: RefundStore,
    private readonly events: RefundEvents,
    private readonly jobs: JobRunner,
    private readonly providers: ProviderRegistry,
    private readonly metrics: ServiceMetrics,
    @Inject(ServiceLogger) private readonly logger: Logger,
    @Inject(AppConfigToken) private readonly config: AppConfig,
    @Inject(Clock) private readonly clock: Clock,
    @Inject(StoreClock) private readonly storeClock: StoreClock,
  ) {
    const { statusCheckIntervalMs, statusCheckBatchSize, providerTimeoutMs, dispatchConcurrency } = config.refunds;
    this.sends = new ProviderSends({ slots: dispatchConcurrency, timeoutMs: providerTimeoutMs, calls: metrics.refundProviderCalls, logger, object: 'refund', onFree: () => jobs.wake(REFUND_DISPATCH_JOB) });
    this.checks = new ProviderChecks(
      {
        job: REFUND_STATUS_CHECK_JOB,
        object: 'refund',
        attentionLogLevel: 'warn',
        intervalMs: statusCheckIntervalMs,
        batchSize: statusCheckBatchSize,
        // The lease outlasts a check (its status call, and a resend) with room to spare.
        leaseMs: 2 * providerTimeoutMs + 60_000,
        due: { claimDue: (limit, leaseMs) => this.store.claimDueChecks(limit, leaseMs, this.refundProviders()) },
        check: (refund, shutdown) => this.check(refund, shutdown, { mayResend: true }),
      },
      { jobs, metrics, logger },
    );
  }

  onModuleInit(): void {
    if (!this.providers.ids.some((id) => this.providers.implements(id, 'refunds'))) return;
    this.jobs.add({ name: REFUND_DISPATCH_JOB, intervalMs: this.config.refunds.dispatchIntervalMs, run: () => this.dispatchBatch() });
    this.checks.schedule();
  }

  /** Takes as many PENDING refunds as there are free sending slots (REFUND_DISPATCH_CONCURRENCY), and starts sending them without waiting. */
  async dispatchBatch(): Promise<JobRunOutcome> {
    const free = this.sends.free;
    if (free <= 0) return { again: false };
    const mint = { providers: this.refundProviders(), newReference: (provider: string) => this.providers.refunds(provider)?.newReference() };
    const claimed = await this.store.claimPending(free, this.now(), this.firstCheckMs(), mint, this.events.eventOf);
    for (const refund of claimed) this.sendInBackground(refund);
    return { again: false };
  }

  /** Sends the refund without waiting for the provider; the send's end frees its slot and wakes the dispatch. */
  sendInBackground(refund: StoredRefund): void {
    this.sends.start((shutdown) => this.send(refund, shutdown));
  }

  /** Resolves when every send under way has ended: tests wait on it after running the dispatch. */
  idle(): Promise<void> {
    return this.sends.idle();
  }

  /** At shutdown the sends under way stop waiting for the provider; their refunds stay PROCESSING, and a status check settles them. */
  beforeApplicationShutdown(): Promise<void> {
    return this.sends.stop();
  }

  /**
   * A status check now of every refund in flight at `provider` of the
   * payment it knows by `paymentReference`, as its webhook names it;
   * resolves how many. It settles what the provider says, and never sends:
   * only a check holding its refund's lease (the scheduled one) may send a
   * refund again, so that two checks of one refund never both send it.
   */
  async checkByPayment(provider: string, paymentReference: string): Promise<number> {
    const refunds = await this.store.inFlightOfPayment(provider, paymentReference);
    for (const refund of refunds) await this.check(refund, this.sends.shutdown, { mayResend: false });
    return refunds.length;
  }

  /** A status check now, out of schedule: an operator's requery. It settles what the provider says, and never sends. */
  async checkNow(refund: StoredRefund): Promise<void> {
    await this.check(refund, this.sends.shutdown, { mayResend: false });
  }

  /** Moves a PENDING refund to PROCESSING as the dispatch would (the sandbox's simulation); undefined when its provider is not configured here. */
  async startSending(refund: StoredRefund): Promise<StoredRefund | undefined> {
    const adapter = refund.provider === null ? undefined : this.providers.refunds(refund.provider);
    return adapter && this.apply(refund, { to: 'PROCESSING', providerReference: adapter.newReference() });
  }

  /** Moves the refund as the provider's answer (or the sandbox's simulation) says; resolves the refund as it is after. */
  async apply(refund: StoredRefund, transition: RefundTransition): Promise<StoredRefund | undefined> {
    const moved = await this.store.move(refund, transition, this.now(), this.events.eventOf, { firstCheckMs: this.firstCheckMs(), waitingCheckMs: this.config.refunds.requiresActionCheckSeconds * 1000 });
    if (moved) this.logger.info({ merchantId: moved.merchantId, reference: moved.reference, providerReference: moved.providerReference, status: moved.status, failureReason: moved.failureReason }, `refund ${moved.status}`);
    return moved;
  }

  /** Asks the provider to refund (or, with an account, to send it there); never throws: an unknown outcome is left to the status checks. */
  private async send(refund: StoredRefund, shutdown: AbortSignal): Promise<void> {
    const provider = this.providerOf(refund);
    if (!provider) return;
    try {
      const order = orderOf(refund);
      const answer = order.account
        ? await this.sends.call('send_to_account', shutdown, (signal) => provider.sendToAccount({ ...order, account: order.account as NonNullable<RefundOrder['account']> }, signal))
        : await this.sends.call('refund', shutdown, (signal) => provider.refund(order, signal));
      if (answer) await this.settle(refund, answer);
    } catch (error) {
      this.logger.error({ err: error, merchantId: refund.merchantId, reference: refund.reference }, 'refund send failed; its status checks will settle it');
    }
  }

  /** Asks the provider about the refund and settles its answer; `mayResend` only for a check that holds the refund's lease. */
  private async check(refund: StoredRefund, shutdown: AbortSignal, { mayResend }: { mayResend: boolean }): Promise<void> {
    if (refund.status === 'REQUIRES_ACTION') return this.checkWaiting(refund, shutdown);
    if (refund.status !== 'PROCESSING') return;
    const provider = this.providerOf(refund);
    // Not asked anywhere else: its schedule goes on, so that its deadline still flags it for an operator.
    if (!provider) return this.reschedule(refund);
    const status = await this.sends.call('status', shutdown, (signal) => provider.status(orderOf(refund), signal));
    // Still at the provider, or still refused there with the account given (the provider's to fail): asked again on its schedule.
    if (status === undefined || status.outcome === 'processing' || (status.outcome === 'requires_action' && refund.account !== null)) return this.reschedule(refund);
    if (status.outcome === 'not_found') {
      const sinceSentMs = this.nowMs() - (refund.processingAt as Date).getTime();
      await this.reschedule(refund);
      if (mayResend && sinceSentMs >= this.config.refunds.resendGraceSeconds * 1000) {
        this.logger.warn({ merchantId: refund.merchantId, reference: refund.reference, providerReference: refund.providerReference }, 'the provider has no record of the refund: sending it again under the same provider reference');
        await this.send(refund, shutdown);
      }
      return;
    }
    await this.settle(refund, status);
  }

  /**
   * A refund waiting for the customer's account, asked about every
   * REFUND_REQUIRES_ACTION_CHECK_SECONDS: the provider may settle it without
   * one. Nothing is ever sent from here, and no deadline flags it: it waits
   * for the merchant.
   */
  private async checkWaiting(refund: StoredRefund, shutdown: AbortSignal): Promise<void> {
    const provider = this.providerOf(refund);
    const status = provider && (await this.sends.call('status', shutdown, (signal) => provider.status(orderOf(refund), signal)));
    if (status?.outcome === 'successful' || status?.outcome === 'failed' || status?.outcome === 'mismatch') return this.settle(refund, status);
    await this.store.rescheduleCheck(refund, refund.statusChecks + 1, new Date(this.nowMs() + this.config.refunds.requiresActionCheckSeconds * 1000), false);
  }

  /** Moves a PROCESSING refund, or one waiting for an account, on a definitive answer; anything else leaves it for its next check. */
  private async settle(refund: StoredRefund, answer: RefundStatusAnswer): Promise<void> {
    switch (answer.outcome) {
      case 'successful':
        await this.apply(refund, { to: 'SUCCESSFUL' });
        return;
      case 'failed':
        await this.apply(refund, { to: 'FAILED', reason: answer.reason });
        return;
      case 'requires_action':
        // An account given already and still refused there is the provider's to fail; asked again, it waits for its checks.
        if (refund.account === null) await this.apply(refund, { to: 'REQUIRES_ACTION' });
        return;
      case 'mismatch':
        await this.mismatched(refund, answer);
        return;
      default:
        return;
    }
  }

  /** The next check of a PROCESSING refund on its schedule, and `needsAttention` once it has been at the provider for 72 hours. */
  private async reschedule(refund: StoredRefund): Promise<void> {
    const processingAt = (refund.processingAt as Date).getTime();
    const now = this.nowMs();
    const next = nextCheck((n) => statusCheckOffsetSeconds(n, this.config.refunds.statusCheckScheduleSeconds), processingAt, now, refund.statusChecks + 1);
    const overdue = (now - processingAt) / 1000 >= ATTENTION_AFTER_S;
    const rescheduled = await this.store.rescheduleCheck(refund, next.checks, new Date(next.atMs), overdue);
    if (overdue && rescheduled && !refund.needsAttention) {
      this.checks.flagged('no_answer', { merchantId: refund.merchantId, reference: refund.reference, provider: refund.provider, providerReference: refund.providerReference }, 'refund needs attention: no definitive answer from the provider in 72 hours');
    }
  }

  /** The provider reports this refund with another amount or currency: nothing moves on its word, checks stop, and an operator is asked to look. */
  private async mismatched(refund: StoredRefund, reported: { amountMinor: bigint; currency: string }): Promise<void> {
    await this.store.rescheduleCheck(refund, refund.statusChecks + 1, null, true);
    if (refund.needsAttention) return;
    this.metrics.providerMismatches.inc({ provider: refund.provider ?? 'unrecorded', object: 'refund' });
    this.checks.flagged(
      'mismatch',
      { merchantId: refund.merchantId, reference: refund.reference, providerReference: refund.providerReference, amountMinor: refund.amountMinor.toString(), reportedAmountMinor: reported.amountMinor.toString(), reportedCurrency: reported.currency },
      'refund needs attention: the provider reports another amount or currency; nothing was moved',
    );
  }

  /** The refund's provider of record, its payin's: the only adapter it is ever sent to or asked about. One not configured on this instance is left for an instance that has it. */
  private providerOf(refund: StoredRefund): PaymentRefunds | undefined {
    const adapter = refund.provider === null ? undefined : this.providers.refunds(refund.provider);
    if (!adapter) this.logger.warn({ merchantId: refund.merchantId, reference: refund.reference, provider: refund.provider }, 'refund not sent or checked: its provider of record is not configured on this instance');
    return adapter;
  }

  /** The providers configured on this instance that refund: the only ones whose refunds it sends or asks about. */
  private refundProviders(): string[] {
    return this.providers.ids.filter((id) => this.providers.implements(id, 'refunds'));
  }

  private firstCheckMs(): number {
    return (this.config.refunds.statusCheckScheduleSeconds[0] as number) * 1000;
  }

  /** The instant the stored times of a refund are compared with: the store's clock when a test gives one, else the service's. */
  private nowMs(): number {
    return storeInstant(this.storeClock, this.clock);
  }

  private now(): Date {
    return new Date(this.nowMs());
  }
}

/** The refund as its provider is asked about it. */
function orderOf(refund: StoredRefund): RefundOrder {
  return {
    providerReference: refund.providerReference as string,
    paymentReference: refund.paymentReference,
    amountMinor: refund.amountMinor,
    currency: refund.currency,
    customerNote: refund.customerNote,
    merchantNote: refund.merchantNote,
    merchantId: refund.merchantId,
    account: refund.account && { bankCode: refund.account.bankCode, accountNumber: refund.account.accountNumber, accountName: refund.account.accountName },
  };
}
