import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import type { PayinChannel } from '@paysign/contracts';
import type { Logger } from 'pino';
import type { AppConfig } from '../config/app-config';
import { AppConfigToken } from '../config/app-config.token';
import { Clock } from '../config/clock';
import { StoreClock, storeInstant } from '../db/store-clock';
import type { HostedGateway, ProviderPaymentStatus } from '../providers/ports/payment-gateway.port';
import { ProviderRegistry } from '../providers/provider-registry';
import { JobRunner } from '../jobs/job-runner';
import { nextCheck, ProviderChecks } from '../jobs/provider-checks';
import { ServiceLogger } from '../logging/logger';
import { ApiException } from '../errors/api.exception';
import { ServiceMetrics } from '../metrics/service-metrics';
import { CheckoutLinks } from './checkout-links';
import { PayinEvents } from './payin-events';
import { PayinRepository, type StoredPayin } from './payin-repository.interface';
import { isFinal } from './payin-states';
import { paysInFull } from '../providers/ports/pays-in-full';

export const PAYIN_PROVIDER_CHECK_JOB = 'payin-provider-check';

/** Where a check of the provider came from: the customer's return, the provider's webhook, or the schedule. */
export type CheckSource = 'return' | 'webhook' | 'schedule';

/** Seconds after its creation at which a payin's provider is asked, when nothing else has settled it; then every 10 minutes, and once at expiry. */
const CHECK_OFFSETS_SECONDS = [60, 180, 600];
const CHECK_EVERY_SECONDS = 600;
const checkOffsetSeconds = (n: number): number => CHECK_OFFSETS_SECONDS[n] ?? (CHECK_OFFSETS_SECONDS.at(-1) as number) + (n - CHECK_OFFSETS_SECONDS.length + 1) * CHECK_EVERY_SECONDS;
/** Asked this long past expiry with no answer, a payin is flagged for an operator; its checks go on. */
const ATTENTION_AFTER_EXPIRY_MS = 24 * 3_600_000;

/**
 * Payins taken on a provider's page (a hosted gateway): starting them at the
 * provider, and settling them on the provider's word alone. Three things ask
 * the provider: the customer's return, the provider's webhook, and the
 * `payin-provider-check` job, which asks about every payin still PENDING on
 * a schedule until expiry; none takes the outcome from what it was told.
 *
 * A payment the provider reports for another amount or currency than the
 * payin's, or charged for less than the payin's amount, moves nothing: the payin stays PENDING, is flagged
 * `needsAttention`, and its checks stop. So is a payment reported for a
 * payin already final (paid after it expired or was cancelled): the money
 * is at the provider, not credited, and an operator refunds it.
 */
@Injectable()
export class ProviderPayments implements OnModuleInit {
  /** The schedule of checks of payins started at a hosted gateway. */
  private readonly checks: ProviderChecks<StoredPayin>;

  constructor(
    @Inject(PayinRepository) private readonly payins: PayinRepository,
    private readonly providers: ProviderRegistry,
    private readonly links: CheckoutLinks,
    private readonly events: PayinEvents,
    private readonly jobs: JobRunner,
    private readonly metrics: ServiceMetrics,
    @Inject(ServiceLogger) private readonly logger: Logger,
    @Inject(AppConfigToken) private readonly config: AppConfig,
    @Inject(Clock) private readonly serviceClock: Clock,
    @Inject(StoreClock) private readonly storeClock: StoreClock,
  ) {
    this.checks = new ProviderChecks(
      {
        job: PAYIN_PROVIDER_CHECK_JOB,
        object: 'payin',
        attentionLogLevel: 'error',
        intervalMs: config.payinProviderCheckIntervalMs,
        batchSize: config.payinSweepBatchSize,
        leaseMs: 2 * config.providerTimeoutMs + 60_000,
        due: { claimDue: (limit, leaseMs) => this.payins.claimProviderChecks(limit, leaseMs) },
        check: async (payin) => void (await this.settle(payin, 'schedule')),
      },
      { jobs, metrics, logger },
    );
  }

  onModuleInit(): void {
    // Asked about wherever a configured gateway is hosted, selected or not: its payins in flight are still settled there.
    if (this.providers.ids.some((id) => this.providers.gateway(id)?.kind === 'hosted')) this.checks.schedule();
  }

  /** The hosted gateway of a payin: its provider of record's, when that provider is configured and its gateway is hosted. Never another provider's. */
  hostedGatewayOf(payin: Pick<StoredPayin, 'gateway' | 'provider'>): { provider: string; gateway: HostedGateway; channels: PayinChannel[] } | undefined {
    const taker = this.providers.gatewayOf(payin);
    if (taker?.adapter.kind !== 'hosted') return undefined;
    return { provider: taker.provider, gateway: taker.adapter, channels: taker.channels };
  }

  /**
   * Starts the payin at its hosted gateway, unless it was started already;
   * resolves the payin as it is after. A start the provider refused, or gave
   * no answer to, leaves the payin unstarted: the checkout page starts it
   * when the customer opens it. Never throws.
   */
  async start(payin: StoredPayin): Promise<StoredPayin> {
    const hosted = this.hostedGatewayOf(payin);
    if (!hosted || payin.providerReference !== null || payin.status !== 'PENDING' || payin.checkoutSeed === null) return payin;
    try {
      const started = await hosted.gateway.startPayment(
        { ...payin, channels: hosted.channels, returnUrl: this.links.returnUrlOf(payin.checkoutSeed) },
        AbortSignal.timeout(this.config.providerTimeoutMs),
      );
      if ('refused' in started) {
        this.logger.warn({ merchantId: payin.merchantId, reference: payin.reference, gateway: hosted.gateway.name, refusal: started.refused }, 'the provider refused to start a payin');
        return payin;
      }
      const firstCheckAt = new Date(this.clock() + (CHECK_OFFSETS_SECONDS[0] as number) * 1000);
      const recorded = await this.payins.recordProviderStart(payin, { provider: hosted.provider, providerReference: started.providerReference, paymentPageUrl: started.paymentPageUrl, firstCheckAt });
      // Another start won the race: its page is the one shown; this one's is never seen by anyone, so it cannot be paid.
      return recorded ?? (await this.payins.find(payin)) ?? payin;
    } catch (error) {
      this.logger.warn({ merchantId: payin.merchantId, reference: payin.reference, gateway: hosted.gateway.name, err: errorSummary(error) }, 'the provider did not answer the start of a payin; the checkout page starts it again');
      return payin;
    }
  }

  /** Settles the payin `provider` knows by a provider reference, as its webhook names it; undefined when no payin of that provider has it. */
  async settleByProviderReference(provider: string, providerReference: string, source: CheckSource): Promise<StoredPayin | undefined> {
    const payin = await this.payins.findByProviderReference(provider, providerReference);
    return payin && this.settle(payin, source);
  }

  /**
   * Asks the provider about the payin and moves it as the answer says, and
   * as nothing else does: paid (for its own amount and currency); declined,
   * once the customer is back from the provider's page or the payin has
   * expired (before that, the customer may still try again there); or
   * abandoned, once expired with nothing paid and nothing under way.
   * Resolves the payin as it is after. A provider that does not answer
   * leaves it as it was, and the schedule asks again; for a webhook, the
   * answer is PROVIDER_UNAVAILABLE (503), so that the provider sends it again.
   */
  async settle(payin: StoredPayin, source: CheckSource): Promise<StoredPayin> {
    const hosted = this.hostedGatewayOf(payin);
    if (payin.providerReference === null) return payin;
    if (!hosted) {
      // Its provider of record is not configured here: no other is asked, and its schedule goes on, so that its deadline still flags it.
      if (source === 'schedule') await this.reschedule(payin);
      return payin;
    }
    let status: ProviderPaymentStatus;
    try {
      status = await hosted.gateway.paymentStatus({ providerReference: payin.providerReference, merchantId: payin.merchantId }, AbortSignal.timeout(this.config.providerTimeoutMs));
    } catch (error) {
      this.logger.warn({ merchantId: payin.merchantId, reference: payin.reference, source, err: errorSummary(error) }, 'the provider did not answer a payin check; it is asked again later');
      if (source === 'webhook') throw new ApiException('PROVIDER_UNAVAILABLE', { provider: hosted.gateway.name });
      if (source === 'schedule') await this.reschedule(payin);
      return payin;
    }

    if (isFinal(payin.status)) return status.outcome === 'paid' ? this.paidWhenFinal(payin, hosted.gateway.name) : payin;
    const expired = this.clock() >= payin.expiresAt.getTime();
    switch (status.outcome) {
      case 'paid':
        if (!paysInFull(status, payin)) {
          return this.flag(payin, hosted.gateway.name, 'mismatch', 'the provider reports a payment for another amount or currency than the payin\'s, or charged for less than its amount: nothing was credited', {
            reportedAmountMinor: status.amountMinor.toString(),
            reportedChargedMinor: status.chargedMinor.toString(),
            reportedCurrency: status.currency,
          });
        }
        return this.move(payin, { to: 'SUCCESSFUL' }, source, hosted.gateway.name);
      case 'declined':
        if (source === 'return' || expired) return this.move(payin, { to: 'FAILED', reason: status.reason }, source, hosted.gateway.name);
        break;
      case 'unpaid':
      case 'not_found':
        if (expired) return this.move(payin, { to: 'ABANDONED' }, source, hosted.gateway.name);
        break;
      case 'pending':
        // A payment under way is never abandoned: past expiry it is asked about every 10 minutes until it ends, and flagged after a day.
        break;
    }
    if (source === 'schedule') await this.reschedule(payin);
    return payin;
  }

  /** Moves the payin on the provider's answer. A payment the provider confirmed, for a payin another path made final meanwhile (expired, cancelled), is flagged, never dropped. */
  private async move(payin: StoredPayin, transition: Parameters<PayinRepository['transition']>[1], source: CheckSource, provider: string): Promise<StoredPayin> {
    const moved = await this.payins.transition(payin, transition, new Date(this.clock()), this.events.eventOf, { confirmedByProvider: transition.to !== 'ABANDONED' });
    if (moved) {
      this.logger.info({ merchantId: moved.merchantId, reference: moved.reference, status: moved.status, source }, 'payin settled by its provider');
      return moved;
    }
    const now = (await this.payins.find(payin)) ?? payin;
    return transition.to === 'SUCCESSFUL' && isFinal(now.status) ? this.paidWhenFinal(now, provider) : now;
  }

  /** The provider reports a payment for a payin already final: SUCCESSFUL is the same payment; any other final state leaves the money uncredited at the provider, for an operator to refund. */
  private async paidWhenFinal(payin: StoredPayin, provider: string): Promise<StoredPayin> {
    if (payin.status === 'SUCCESSFUL') return payin;
    return this.flag(payin, provider, 'late', `the provider reports a payment for a payin already ${payin.status}: the money is at the provider and was not credited; refund it there`);
  }

  /** The next check on the schedule: the next offset still ahead, and never later than expiry, when the last one runs; past expiry every 10 minutes, flagged a day after it. */
  private async reschedule(payin: StoredPayin): Promise<void> {
    const now = this.clock();
    const expiry = payin.expiresAt.getTime();
    const nextAt = now < expiry ? Math.min(nextCheck(checkOffsetSeconds, payin.createdAt.getTime(), now).atMs, expiry) : now + CHECK_EVERY_SECONDS * 1000;
    const overdue = now >= expiry + ATTENTION_AFTER_EXPIRY_MS;
    await this.payins.scheduleProviderCheck(payin, new Date(nextAt), overdue);
    if (overdue && !payin.needsAttention) {
      this.checks.flagged('no_answer', { merchantId: payin.merchantId, reference: payin.reference, provider: payin.provider, providerReference: payin.providerReference }, 'payin needs attention: no final answer from the provider a day after expiry; its checks go on');
    }
  }

  /** The instant expiry and the schedule are judged by: the store's clock when a test gives one, as the claim of due checks uses it; else the service's, which keeps to the database's. */
  private clock(): number {
    return storeInstant(this.storeClock, this.serviceClock);
  }

  /** Flags the payin for an operator, once: a replayed webhook or a later check finds it flagged, and neither logs nor counts it again. */
  private async flag(payin: StoredPayin, provider: string, kind: 'mismatch' | 'late', why: string, extra: Record<string, string> = {}): Promise<StoredPayin> {
    const flagged = await this.payins.flagForAttention(payin);
    if (!flagged) return (await this.payins.find(payin)) ?? payin;
    if (kind === 'mismatch') this.metrics.providerMismatches.inc({ provider, object: 'payin' });
    this.metrics.needsAttention('payin', kind === 'mismatch' ? 'mismatch' : 'paid_when_final');
    this.logger.error({ merchantId: payin.merchantId, reference: payin.reference, providerReference: payin.providerReference, provider, amountMinor: payin.amountMinor.toString(), ...extra }, `payin needs attention: ${why}`);
    return flagged;
  }
}

function errorSummary(error: unknown): { name: string; message: string } {
  return error instanceof Error ? { name: error.name, message: error.message } : { name: 'Error', message: String(error) };
}
