import { sha256Hex } from '@paysign/signing';
import { Inject, Injectable } from '@nestjs/common';
import type { Payin } from '@paysign/contracts';
import { CheckoutLinks } from './checkout-links';
import type { AppConfig } from '../config/app-config';
import { AppConfigToken } from '../config/app-config.token';
import { Clock } from '../config/clock';
import { ApiException } from '../errors/api.exception';
import { ProviderRegistry } from '../providers/provider-registry';
import { MerchantRegistry } from '../merchants/merchant-registry';
import { moneyFromAmount } from '../money/money';
import { SETTLEMENT_CURRENCIES, settles } from '../money/settlement-currencies';
import type { CreatePayinDto } from './create-payin.dto';
import { PayinRepository, type NewPayin, type NewPayinAttempt, type PayinKey, type PayinListQuery, type StoredPayin } from './payin-repository.interface';
import { effectivePayin, type PayinTransition } from './payin-states';
import { PayinEvents } from './payin-events';
import { payinToContract } from './payin-view';
import { ProviderPayments } from './provider-payments';

/** What a transition attempt came to: the payin moved, or it was already final (this attempt lost, or came late). */
export type TransitionResult = { moved: true; payin: StoredPayin } | { moved: false; payin: StoredPayin };

@Injectable()
export class PayinsService {
  constructor(
    @Inject(PayinRepository) private readonly payins: PayinRepository,
    @Inject(AppConfigToken) private readonly config: AppConfig,
    @Inject(Clock) private readonly clock: Clock,
    private readonly providers: ProviderRegistry,
    private readonly links: CheckoutLinks,
    private readonly events: PayinEvents,
    private readonly merchants: MerchantRegistry,
    private readonly providerPayments: ProviderPayments,
  ) {}

  /** Creates a payin, or replays the one with the same reference and body. */
  async create(merchantId: string, input: CreatePayinDto): Promise<{ created: boolean; payin: Payin }> {
    // A currency no payout can send: the money would be stuck unless the operator settles it by hand, as the merchant agreed.
    if (!settles(input.currency) && !this.merchants.collectsUnsettled(merchantId, input.currency)) {
      throw new ApiException('CURRENCY_NOT_SETTLEABLE', { currency: input.currency, settles: SETTLEMENT_CURRENCIES.join(', ') });
    }
    if (input.notifyUrl && !this.merchants.canSignNotifications(merchantId)) throw new ApiException('WEBHOOK_NOT_CONFIGURED', { merchantId });
    const gateway = input.gateway ?? null;
    // The gateway selected now takes the payin for good: it is its provider of record.
    const taker = this.providers.gatewayForNewPayin(gateway);
    if (!taker) {
      throw new ApiException('GATEWAY_NOT_CONFIGURED', { channel: gateway ?? 'any channel', configured: this.providers.channelsForNewPayins.join(', ') || 'none' });
    }
    const fields = {
      merchantId,
      reference: input.reference,
      amountMinor: moneyFromAmount(input.amount, input.currency).minor,
      currency: input.currency,
      customerEmail: input.customerEmail,
      customerName: input.customerName ?? null,
      gateway,
      narration: input.narration ?? null,
      notifyUrl: input.notifyUrl ?? null,
      redirectUrl: input.redirectUrl ?? null,
    };
    const now = this.now();
    const checkout = this.links.tokens.issue();
    const newPayin: NewPayin = {
      ...fields,
      provider: taker.provider,
      requestFingerprint: fingerprint(fields),
      createdAt: now,
      expiresAt: new Date(now.getTime() + this.config.payinExpirySeconds * 1000),
      checkoutSeed: checkout.seed,
      checkoutTokenHash: checkout.tokenHash,
    };
    const result = await this.payins.insertIfAbsent(newPayin);
    if (!result.created && result.payin.requestFingerprint !== newPayin.requestFingerprint) {
      throw new ApiException('IDEMPOTENCY_CONFLICT', { reference: input.reference });
    }
    // A payin of a hosted gateway is started at the provider now, so the customer's first visit goes straight on; a start that fails is made again at that visit.
    const payin = result.created ? await this.providerPayments.start(result.payin) : this.current(result.payin);
    return { created: result.created, payin: this.toContract(payin) };
  }

  async get(key: PayinKey): Promise<Payin> {
    return this.toContract(await this.find(key));
  }

  /** The payin as it is now: one found PENDING past its expiry is answered ABANDONED, so no read returns a stale PENDING; the write is the sweep's. */
  async find(key: PayinKey): Promise<StoredPayin> {
    const payin = await this.payins.find(key);
    if (!payin) throw new ApiException('PAYIN_NOT_FOUND', { reference: key.reference });
    return this.current(payin);
  }

  async findByCheckoutTokenHash(tokenHash: string): Promise<StoredPayin | undefined> {
    const payin = await this.payins.findByCheckoutTokenHash(tokenHash);
    return payin && this.current(payin);
  }

  /** One page, newest first, each payin as it is now; the status filter is on that state too. */
  async list(query: PayinListQuery): Promise<StoredPayin[]> {
    const page = await this.payins.list(query, this.now());
    return page.map((payin) => this.current(payin));
  }

  /**
   * Moves a PENDING payin to a final state; the checkout page and the sandbox
   * simulation both come here. Exactly one of two concurrent attempts moves it.
   * An attempt on an expired payin moves nothing, and finds it ABANDONED.
   */
  async transition(key: PayinKey, transition: PayinTransition): Promise<TransitionResult> {
    const moved = await this.payins.transition(key, transition, this.now(), this.events.eventOf);
    if (moved) return { moved: true, payin: moved };
    return { moved: false, payin: await this.find(key) };
  }

  /**
   * Records the customer's attempt at paying, and the move it makes: paid,
   * failed at the PAYIN_MAX_ATTEMPTS-th decline (or one that ends it), or
   * still PENDING for another try. `recorded: false` when the payin was
   * already final or expired: nothing is recorded, and the payin is as it is.
   */
  async attempt(key: PayinKey, attempt: Omit<NewPayinAttempt, 'attemptedAt'>): Promise<{ recorded: boolean; payin: StoredPayin }> {
    const recorded = await this.payins.recordAttempt(key, { ...attempt, attemptedAt: this.now() }, this.config.payinMaxAttempts, this.events.eventOf);
    if (recorded) return { recorded: true, payin: recorded };
    return { recorded: false, payin: await this.find(key) };
  }

  /** Tries left, the next one included, while the payin is open; 0 once it is final. At least 1 while open, even where PAYIN_MAX_ATTEMPTS was lowered below the declines it has: its next decline fails it. */
  attemptsLeft(payin: StoredPayin): number {
    if (payin.status !== 'PENDING') return 0;
    return Math.max(1, this.config.payinMaxAttempts - payin.attempts.length);
  }

  toContract(payin: StoredPayin): Payin {
    return payinToContract(payin, this.links);
  }

  private current(payin: StoredPayin): StoredPayin {
    return effectivePayin(payin, this.clock());
  }

  private now(): Date {
    return new Date(this.clock());
  }
}

/** Equal for requests that mean the same payin: 1000.50 and 1000.5 are one amount. */
function fingerprint(fields: Omit<NewPayin, 'requestFingerprint' | 'createdAt' | 'expiresAt' | 'checkoutSeed' | 'checkoutTokenHash' | 'provider'>): string {
  const normalised = [fields.amountMinor.toString(), fields.currency, fields.customerEmail, fields.customerName, fields.gateway, fields.narration, fields.notifyUrl, fields.redirectUrl];
  return sha256Hex(JSON.stringify(normalised));
}
