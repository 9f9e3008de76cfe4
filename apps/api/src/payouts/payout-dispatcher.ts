import { Inject, Injectable, type BeforeApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import type { Logger } from 'pino';
import type { AppConfig } from '../config/app-config';
import { AppConfigToken } from '../config/app-config.token';
import { Clock } from '../config/clock';
import { StoreClock, storeInstant } from '../db/store-clock';
import { JobRunner, type JobRunOutcome } from '../jobs/job-runner';
import { nextCheck, ProviderChecks } from '../jobs/provider-checks';
import { ProviderSends } from '../jobs/provider-sends';
import { ServiceLogger } from '../logging/logger';
import { ServiceMetrics } from '../metrics/service-metrics';
import { sameName } from '@paysign/contracts';
import { PayoutEvents } from './payout-events';
import type { PayoutTransfers, SendAnswer, TransferStatus } from '../providers/ports/payout-transfers.port';
import { ProviderRegistry } from '../providers/provider-registry';
import type { PayoutTransition } from './payout-states';
import { PayoutSendStore } from './payout-send-store';
import { PayoutStore, type StoredPayout } from './payout-store';
import { ATTENTION_AFTER_S, statusCheckOffsetSeconds } from '../jobs/status-check-schedule';

/** After a payout succeeded, it is asked about again at these offsets, in case its bank reverses it; then no more. */
export const REVERSAL_WATCH_SECONDS: readonly number[] = [60, 3600, 86_400];

export const PAYOUT_DISPATCH_JOB = 'payout-dispatch';
export const PAYOUT_STATUS_CHECK_JOB = 'payout-status-check';

/**
 * Sends payouts and settles their outcome, as two jobs of every instance.
 *
 * `payout-dispatch` takes QUEUED payouts, moves each to PROCESSING with its
 * provider reference (committed before the provider hears of it), checks
 * the account's name again with the provider, and sends the transfer. Only
 * the provider's definitive answer moves a payout on; a timeout, an error
 * or "pending" leave it PROCESSING for its status checks.
 *
 * `payout-status-check` asks the provider about every payout whose check is
 * due: PROCESSING ones on PAYOUT_STATUS_CHECK_SCHEDULE, then hourly, then
 * daily, with `needsAttention` past 72 hours; successful ones a few times
 * more, in case their bank reverses them. A transfer the provider has no
 * record of, past PAYOUT_RESEND_GRACE_SECONDS, is sent again under the same
 * provider reference, which the provider treats as the same transfer: no
 * outcome is ever guessed, and nothing is sent blind under a new reference.
 */
@Injectable()
export class PayoutDispatcher implements OnModuleInit, BeforeApplicationShutdown {
  /** Sends under way, each ended by the provider's answer, its timeout or shutdown. */
  private readonly sends: ProviderSends;
  /** The status checks of payouts sent, and of paid ones watched for a reversal. */
  private readonly checks: ProviderChecks<StoredPayout>;

  constructor(
    private readonly store: PayoutStore,
    private readonly sendStore: PayoutSendStore,
    private readonly events: PayoutEvents,
    private readonly jobs: JobRunner,
    private readonly providers: ProviderRegistry,
    private readonly metrics: ServiceMetrics,
    @Inject(ServiceLogger) private readonly logger: Logger,
    @Inject(AppConfigToken) private readonly config: AppConfig,
    @Inject(Clock) private readonly clock: Clock,
    @Inject(StoreClock) private readonly storeClock: StoreClock,
  ) {
    const { statusCheckIntervalMs, statusCheckBatchSize, providerTimeoutMs, dispatchConcurrency } = config.payouts;
    this.sends = new ProviderSends({ slots: dispatchConcurrency, timeoutMs: providerTimeoutMs, calls: metrics.payoutProviderCalls, logger, object: 'payout', onFree: () => jobs.wake(PAYOUT_DISPATCH_JOB) });
    this.checks = new ProviderChecks(
      {
        job: PAYOUT_STATUS_CHECK_JOB,
        object: 'payout',
        attentionLogLevel: 'warn',
        intervalMs: statusCheckIntervalMs,
        batchSize: statusCheckBatchSize,
        // The lease outlasts a check (its status call, and a resend's name check and send) with room to spare.
        leaseMs: 3 * providerTimeoutMs + 60_000,
        due: { claimDue: (limit, leaseMs) => this.sendStore.claimDueChecks(limit, leaseMs) },
        check: (payout, shutdown) => this.check(payout, shutdown),
      },
      { jobs, metrics, logger },
    );
  }

  onModuleInit(): void {
    // New payouts are sent only where a provider is selected; payouts in flight are checked wherever their provider is still configured.
    if (this.providers.payoutsForNewPayouts()) this.jobs.add({ name: PAYOUT_DISPATCH_JOB, intervalMs: this.config.payouts.dispatchIntervalMs, run: () => this.dispatchBatch() });
    if (this.providers.ids.some((id) => this.providers.implements(id, 'payouts'))) this.checks.schedule();
  }

  /**
   * Takes as many QUEUED payouts as there are free sending slots
   * (PAYOUT_DISPATCH_CONCURRENCY), and starts sending them without waiting:
   * a provider slow to answer holds its slot, never the whole dispatch. A
   * send that ends frees its slot and wakes the job.
   */
  async dispatchBatch(): Promise<JobRunOutcome> {
    const { statusCheckScheduleSeconds } = this.config.payouts;
    const free = this.sends.free;
    const selected = this.providers.payoutsForNewPayouts();
    if (free <= 0 || !selected) return { again: false };
    const sendThrough = { provider: selected.provider, newReference: () => selected.adapter.newReference() };
    const claimed = await this.sendStore.claimQueued(free, this.now(), (statusCheckScheduleSeconds[0] as number) * 1000, sendThrough);
    for (const payout of claimed) this.sends.start((shutdown) => this.send(payout, shutdown));
    return { again: false };
  }

  /** Resolves when every send under way has ended: tests wait on it after running the dispatch. */
  idle(): Promise<void> {
    return this.sends.idle();
  }

  /** At shutdown the sends under way stop waiting for the provider; their payouts stay PROCESSING, and a status check settles them. */
  beforeApplicationShutdown(): Promise<void> {
    return this.sends.stop();
  }

  /** A status check now of the payout `provider` was sent under `providerReference`, as its webhook names it; false when no payout of that provider has it. */
  async checkByProviderReference(provider: string, providerReference: string): Promise<boolean> {
    const payout = await this.sendStore.findByProviderReference(provider, providerReference);
    if (payout) await this.checkNow(payout);
    return payout !== undefined;
  }

  /** A status check now, out of schedule: the merchant's requery. */
  async checkNow(payout: StoredPayout): Promise<void> {
    if (payout.status === 'PROCESSING' || (payout.status === 'SUCCESSFUL' && payout.nextStatusCheckAt !== null)) await this.check(payout, this.sends.shutdown);
  }

  /** Moves a QUEUED payout to PROCESSING as the dispatch would, through the provider selected now (the sandbox's simulation); undefined when none is. */
  async startSending(payout: StoredPayout): Promise<StoredPayout | undefined> {
    const selected = this.providers.payoutsForNewPayouts();
    return selected && this.apply(payout, { to: 'PROCESSING', provider: selected.provider, providerReference: selected.adapter.newReference() });
  }

  /** Moves the payout as the provider's answer (or the sandbox's simulation) says; resolves the payout as it is after. */
  async apply(payout: StoredPayout, transition: PayoutTransition): Promise<StoredPayout | undefined> {
    const moved = await this.store.move(payout, transition, this.now(), this.events.eventOf, {
      firstCheckMs: (this.config.payouts.statusCheckScheduleSeconds[0] as number) * 1000,
      reversalWatchMs: (REVERSAL_WATCH_SECONDS[0] as number) * 1000,
    });
    if (moved) this.logger.info({ merchantId: moved.merchantId, reference: moved.reference, providerReference: moved.providerReference, status: moved.status, failureReason: moved.failureReason }, `payout ${moved.status}`);
    return moved;
  }

  /** Checks the name, then sends; never throws: an unknown outcome is left to the status checks. */
  private async send(payout: StoredPayout, shutdown: AbortSignal): Promise<void> {
    const provider = this.providerOf(payout);
    if (!provider) return;
    try {
      const lookup = await this.sends.call('account_name', shutdown, (signal) => provider.accountName(payout, signal));
      if (lookup === undefined || lookup.outcome === 'bank-unavailable' || lookup.outcome === 'timeout') return;
      if (lookup.outcome === 'not-found' || lookup.outcome === 'dormant') {
        await this.apply(payout, { to: 'FAILED', reason: lookup.outcome === 'not-found' ? 'account_not_found' : 'account_dormant' });
        return;
      }
      if (!sameName(lookup.accountName, payout.accountName)) {
        this.logger.warn({ merchantId: payout.merchantId, reference: payout.reference }, 'payout not sent: the account was renamed since it was enquired');
        await this.apply(payout, { to: 'FAILED', reason: 'account_name_changed' });
        return;
      }
      const transfer = { providerReference: payout.providerReference as string, bankCode: payout.bankCode, accountNumber: payout.accountNumber, accountName: payout.accountName, amountMinor: payout.amountMinor, narration: payout.narration, merchantId: payout.merchantId };
      const answer = await this.sends.call('send', shutdown, (signal) => provider.send(transfer, signal));
      if (answer) await this.settle(payout, answer);
    } catch (error) {
      this.logger.error({ err: error, merchantId: payout.merchantId, reference: payout.reference }, 'payout dispatch failed; its status checks will settle it');
    }
  }

  private async check(payout: StoredPayout, shutdown: AbortSignal): Promise<void> {
    const provider = this.providerOf(payout);
    // Not asked anywhere else: its schedule goes on, so that its deadline still flags it for an operator.
    if (!provider) return payout.status === 'PROCESSING' ? this.reschedule(payout) : this.watchForReversal(payout);
    const status = await this.sends.call('status', shutdown, (signal) => provider.status({ providerReference: payout.providerReference as string, amountMinor: payout.amountMinor, paid: payout.status === 'SUCCESSFUL', merchantId: payout.merchantId }, signal));
    if (status?.outcome === 'mismatch') return this.mismatched(payout, status);
    if (payout.status === 'SUCCESSFUL') {
      if (status?.outcome === 'reversed') await this.apply(payout, { to: 'REVERSED', reason: status.reason });
      else await this.watchForReversal(payout);
      return;
    }
    if (status === undefined || status.outcome === 'pending') return this.reschedule(payout);
    if (status.outcome === 'not_found') {
      const sinceSentMs = this.nowMs() - (payout.processingAt as Date).getTime();
      await this.reschedule(payout);
      if (sinceSentMs >= this.config.payouts.resendGraceSeconds * 1000 && payout.provider === null) {
        // Sent by the release before providers were recorded: asked where it most likely went, but never sent again on a guess.
        this.logger.warn({ merchantId: payout.merchantId, reference: payout.reference, providerReference: payout.providerReference }, 'the provider has no record of a payout with no provider recorded: not sent again until its provider is recorded at the next start');
      } else if (sinceSentMs >= this.config.payouts.resendGraceSeconds * 1000) {
        this.logger.warn({ merchantId: payout.merchantId, reference: payout.reference, providerReference: payout.providerReference }, 'the provider has no record of the payout: sending it again under the same provider reference');
        await this.send(payout, shutdown);
      }
      return;
    }
    await this.settle(payout, status);
  }

  /** Moves a PROCESSING payout on a definitive answer; anything else leaves it for its next check. */
  private async settle(payout: StoredPayout, answer: SendAnswer | TransferStatus): Promise<void> {
    switch (answer.outcome) {
      case 'successful':
        await this.apply(payout, { to: 'SUCCESSFUL' });
        return;
      case 'failed':
        await this.apply(payout, { to: 'FAILED', reason: answer.reason });
        return;
      case 'mismatch':
        await this.mismatched(payout, answer);
        return;
      case 'reversed': {
        // Paid, then returned, before we heard of either: both moves, in order, each with its event.
        const paid = await this.apply(payout, { to: 'SUCCESSFUL' });
        if (paid) await this.apply(paid, { to: 'REVERSED', reason: answer.reason });
        return;
      }
      default:
        return;
    }
  }

  /** The next check of a PROCESSING payout on its schedule, and `needsAttention` once it has been sent for 72 hours. */
  private async reschedule(payout: StoredPayout): Promise<void> {
    const processingAt = (payout.processingAt as Date).getTime();
    const now = this.nowMs();
    const next = nextCheck((n) => statusCheckOffsetSeconds(n, this.config.payouts.statusCheckScheduleSeconds), processingAt, now, payout.statusChecks + 1);
    const overdue = (now - processingAt) / 1000 >= ATTENTION_AFTER_S;
    const rescheduled = await this.sendStore.rescheduleCheck(payout, 'PROCESSING', next.checks, new Date(next.atMs), overdue);
    if (overdue && rescheduled && !payout.needsAttention) {
      this.metrics.payoutsNeedingAttention.inc();
      this.checks.flagged(
        'no_answer',
        { merchantId: payout.merchantId, reference: payout.reference, provider: payout.provider, providerReference: payout.providerReference, processingAt: payout.processingAt },
        'payout needs attention: no definitive answer from the provider in 72 hours',
      );
    }
  }

  /** The provider reports this transfer with another amount or currency: nothing moves on its word, checks stop, and an operator is asked to look. */
  private async mismatched(payout: StoredPayout, reported: { amountMinor: bigint; currency: string }): Promise<void> {
    await this.sendStore.rescheduleCheck(payout, payout.status, payout.statusChecks + 1, null, true);
    // A requery or a replayed webhook that meets it again reports nothing new.
    if (payout.needsAttention) return;
    this.metrics.providerMismatches.inc({ provider: payout.provider ?? 'unrecorded', object: 'payout' });
    this.metrics.needsAttention('payout', 'mismatch');
    this.logger.error(
      { merchantId: payout.merchantId, reference: payout.reference, providerReference: payout.providerReference, amountMinor: payout.amountMinor.toString(), reportedAmountMinor: reported.amountMinor.toString(), reportedCurrency: reported.currency },
      'payout needs attention: the provider reports another amount or currency; nothing was moved',
    );
  }

  private async watchForReversal(payout: StoredPayout): Promise<void> {
    const checks = payout.statusChecks + 1;
    const offset = REVERSAL_WATCH_SECONDS[checks];
    const nextAt = offset === undefined ? null : new Date((payout.completedAt as Date).getTime() + offset * 1000);
    await this.sendStore.rescheduleCheck(payout, 'SUCCESSFUL', checks, nextAt, false);
  }

  /**
   * The payout's provider of record: the only adapter a send, a resend or a
   * status check of it ever goes to. A payout sent before records were kept
   * is the selected provider's, as it was then. One whose provider is not
   * configured on this instance is left as it is: another instance may have
   * it, and the boot check keeps it from being lost (a retired provider's are
   * flagged for an operator there).
   */
  private providerOf(payout: StoredPayout): PayoutTransfers | undefined {
    const id = payout.provider ?? this.providers.selection.payouts;
    const adapter = id === null ? undefined : this.providers.payouts(id);
    if (!adapter) this.logger.warn({ merchantId: payout.merchantId, reference: payout.reference, provider: id }, 'payout not sent or checked: its provider of record is not configured on this instance');
    return adapter;
  }

  /** The instant the stored times of a payout are compared with: the store's clock when a test gives one, else the service's, which keeps to the database's. */
  private nowMs(): number {
    return storeInstant(this.storeClock, this.clock);
  }

  private now(): Date {
    return new Date(this.nowMs());
  }
}
