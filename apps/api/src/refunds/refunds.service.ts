import { sha256Hex } from '@paysign/signing';
import { Inject, Injectable } from '@nestjs/common';
import type { Refund } from '@paysign/contracts';
import { EnquiryRecords } from '../accounts/enquiry-records';
import type { AppConfig } from '../config/app-config';
import { AppConfigToken } from '../config/app-config.token';
import { Clock } from '../config/clock';
import type { SqlQueryable } from '../db/sql-client';
import { StoreClock, storeInstant } from '../db/store-clock';
import { ApiException } from '../errors/api.exception';
import type { Caller } from '../http/caller';
import { JobRunner } from '../jobs/job-runner';
import { MerchantRegistry } from '../merchants/merchant-registry';
import { amountOf, moneyFromAmount } from '../money/money';
import { ProviderRegistry } from '../providers/provider-registry';
import { REFUND_DISPATCH_JOB, RefundDispatcher } from './refund-dispatcher';
import { RefundEvents } from './refund-events';
import type { CreateRefundDto } from './refund-requests';
import { RefundStore, type RefundAdmission, type RefundedPayin, type RefundKey, type RefundListQuery, type RefundRefusal, type StoredRefund } from './refund-store';
import { refundToContract } from './refund-view';

const DAY_MS = 86_400_000;

/** Who makes a refund: an API key, or a dashboard member with what they record of it in its transaction. */
export interface RefundMaker {
  createdBy: string;
  alsoInTransaction?: (tx: SqlQueryable, created: StoredRefund) => Promise<void>;
}

/** Refunds as merchants call them: create, read, list, cancel, and the customer's account for one that needs it; the sending is RefundDispatcher's. */
@Injectable()
export class RefundsService {
  constructor(
    private readonly store: RefundStore,
    private readonly events: RefundEvents,
    private readonly dispatcher: RefundDispatcher,
    private readonly enquiries: EnquiryRecords,
    private readonly merchants: MerchantRegistry,
    private readonly providers: ProviderRegistry,
    private readonly jobs: JobRunner,
    @Inject(AppConfigToken) private readonly config: AppConfig,
    @Inject(Clock) private readonly clock: Clock,
    @Inject(StoreClock) private readonly storeClock: StoreClock,
  ) {}

  /**
   * Creates a refund, or answers the one with the same reference: as it is
   * now for the same body, 409 for another. Everything that depends on the
   * payin and the balances is judged in the create's transaction, under the
   * payin's lock.
   */
  async create(caller: Caller, input: CreateRefundDto): Promise<{ created: boolean; refund: Refund }> {
    this.requireRole(caller);
    const { created, refund } = await this.createFor(caller.merchantId, input, { createdBy: caller.apiKey });
    return { created, refund: refundToContract(refund) };
  }

  /**
   * A member's refund from the dashboard, under the same rules; the
   * member's role was checked there. `createdBy` names the member
   * (`dashboard:<email>`), and `alsoInTransaction` (the security log line)
   * commits with the refund, or not at all.
   */
  createAsMember(merchantId: string, input: CreateRefundDto, member: RefundMaker): Promise<{ created: boolean; refund: StoredRefund }> {
    return this.createFor(merchantId, input, member);
  }

  private async createFor(merchantId: string, input: CreateRefundDto, maker: RefundMaker): Promise<{ created: boolean; refund: StoredRefund }> {
    const key = { merchantId, reference: input.reference };
    const existing = await this.store.find(key);
    if (existing) return { created: false, refund: replayed(existing, input) };
    if (input.notifyUrl && !this.merchants.canSignNotifications(merchantId)) throw new ApiException('WEBHOOK_NOT_CONFIGURED', { merchantId });

    // The payin's currency is read inside the transaction; an amount is checked against it there, and its kobo here.
    const amountMinor = input.amount === undefined ? null : moneyFromAmount(input.amount, 'NGN').minor;
    const now = this.now();
    const returnsFee = this.merchants.feesOf(merchantId).refundReturnsFee;
    const admit = (payin: RefundedPayin): RefundAdmission => {
      if (payin.status !== 'SUCCESSFUL' || payin.needsAttention) return { refused: { refused: 'payin-not-refundable', payin } };
      if (payin.paidAt && now.getTime() - payin.paidAt.getTime() > this.config.refunds.windowDays * DAY_MS) return { refused: { refused: 'window-closed', paidAt: payin.paidAt } };
      const provider = payin.provider ?? this.providers.selection.gateway;
      if (provider === null || !this.providers.refunds(provider)) return { refused: { refused: 'provider-not-configured', provider } };
      return { provider, returnsFee };
    };
    const outcome = await this.store.create(
      {
        ...key,
        payinReference: input.payinReference,
        amountMinor,
        reason: input.reason ?? null,
        merchantNote: input.merchantNote ?? null,
        customerNote: input.customerNote ?? null,
        notifyUrl: input.notifyUrl ?? null,
        requestFingerprint: fingerprint(input),
        createdBy: maker.createdBy,
      },
      admit,
      now,
      this.events.eventOf,
      maker.alsoInTransaction,
    );
    if ('refused' in outcome) throw refusal(outcome, input, this.config.refunds.windowDays);
    if (!outcome.created) return { created: false, refund: replayed(outcome.refund, input) };
    this.jobs.wake(REFUND_DISPATCH_JOB);
    return { created: true, refund: outcome.refund };
  }

  async get(key: RefundKey): Promise<StoredRefund> {
    const refund = await this.store.find(key);
    if (!refund) throw new ApiException('REFUND_NOT_FOUND', { reference: key.reference });
    return refund;
  }

  list(query: RefundListQuery): Promise<StoredRefund[]> {
    return this.store.list(query);
  }

  /** Cancels a PENDING refund and releases its hold; any other is 409, since it may already be at the provider. */
  async cancel(caller: Caller, reference: string): Promise<StoredRefund> {
    this.requireRole(caller);
    const key = { merchantId: caller.merchantId, reference };
    const cancelled = await this.store.move(key, { to: 'CANCELLED' }, this.now(), this.events.eventOf);
    if (cancelled) return cancelled;
    const refund = await this.get(key);
    throw new ApiException('REFUND_NOT_CANCELLABLE', { reference, status: refund.status });
  }

  /** The customer's bank account for a REQUIRES_ACTION refund, bound to an unexpired enquiry of the merchant as a payout's is; the refund is sent to it. */
  async setAccount(caller: Caller, reference: string, enquiryId: string): Promise<StoredRefund> {
    this.requireRole(caller);
    const refund = await this.get({ merchantId: caller.merchantId, reference });
    if (refund.status !== 'REQUIRES_ACTION') throw new ApiException('REFUND_NOT_AWAITING_ACCOUNT', { reference, status: refund.status });
    const enquiry = await this.enquiries.find(caller.merchantId, enquiryId);
    if (!enquiry) throw new ApiException('ENQUIRY_NOT_FOUND', { enquiryId });
    if (enquiry.expired) throw new ApiException('ENQUIRY_EXPIRED', { enquiryId, expiresAt: enquiry.expiresAt.toISOString() });
    const account = { bankCode: enquiry.bankCode, accountNumber: enquiry.accountNumber, accountName: enquiry.accountName, enquiryId: enquiry.enquiryId };
    const moved = await this.dispatcher.apply(refund, { to: 'PROCESSING', account });
    if (!moved) {
      const now = await this.get(refund);
      throw new ApiException('REFUND_NOT_AWAITING_ACCOUNT', { reference, status: now.status });
    }
    this.dispatcher.sendInBackground(moved);
    return moved;
  }

  private requireRole(caller: Caller): void {
    if (!this.merchants.hasRole(caller.apiKey, 'refunds:create')) throw new ApiException('ROLE_REQUIRED', { apiKey: caller.apiKey, role: 'refunds:create' });
  }

  /** The instant a refund is stamped and its payin's window judged by: the store's clock when a test gives one, else the service's, which keeps to the database's. */
  private now(): Date {
    return new Date(storeInstant(this.storeClock, this.clock));
  }
}

const major = (minor: bigint, currency: string) => amountOf({ minor, currency: currency as 'NGN' }).toFixed(2);

/** The API error of a refusal found in the create's transaction; nothing was held. */
function refusal(outcome: RefundRefusal, input: CreateRefundDto, windowDays: number): ApiException {
  const reference = input.payinReference;
  switch (outcome.refused) {
    case 'payin-not-found':
      return new ApiException('PAYIN_NOT_FOUND', { reference });
    case 'payin-not-refundable':
      return new ApiException('PAYIN_NOT_REFUNDABLE', { reference, why: whyNotRefundable(outcome.payin) });
    case 'window-closed':
      return new ApiException('REFUND_WINDOW_CLOSED', { reference, paidAt: outcome.paidAt.toISOString(), days: windowDays });
    case 'provider-not-configured':
      return new ApiException('REFUND_PROVIDER_NOT_CONFIGURED', { reference, provider: outcome.provider ?? 'none' });
    case 'exceeds-payin': {
      const { payin } = outcome;
      const taken = payin.refundedMinor + payin.refundingMinor;
      const values = { currency: payin.currency, amount: major(outcome.amountMinor, payin.currency), reference, payinAmount: major(payin.amountMinor, payin.currency), taken: major(taken, payin.currency), left: major(payin.amountMinor - taken, payin.currency) };
      return new ApiException('REFUND_EXCEEDS_PAYIN', values, {
        details: [{ field: 'amount', code: 'exceeds_payin', message: `payin: ${values.payinAmount}, refunded or in flight: ${values.taken}, left: ${values.left}` }],
      });
    }
    case 'insufficient-balance': {
      const { currency } = outcome;
      const unsettled =
        outcome.unsettledMinor === null
          ? 'its credit has settled, so it is drawn from available'
          : `its credit not yet settled is ${currency} ${major(outcome.unsettledMinor, currency)} (a refund is drawn from it only while it is more than the refund)`;
      return new ApiException('INSUFFICIENT_BALANCE', {
        subject: 'refund',
        currency,
        needed: major(outcome.amountMinor, currency),
        breakdown: '',
        balances: `neither balance covers it: of payin ${reference}, ${unsettled}, and the available balance is ${currency} ${major(outcome.availableMinor, currency)}`,
        advice: 'Wait for settlement, or refund less.',
      });
    }
  }
}

/** Why a payin cannot be refunded, completing "Payin {reference} ...". */
function whyNotRefundable(payin: RefundedPayin): string {
  if (payin.status === 'SUCCESSFUL') return 'is flagged needsAttention: the provider reported something an operator must settle first. Refunds wait until it is cleared.';
  if (payin.status === 'PENDING') return 'is PENDING, not paid, so there is nothing to refund. Cancel it instead, or wait for it to succeed.';
  return `is ${payin.status}: no money was taken, so there is nothing to refund.`;
}

/** The stored refund, if the request is the one that created it; a different body under its reference is 409. */
function replayed(refund: StoredRefund, input: CreateRefundDto): StoredRefund {
  if (refund.requestFingerprint !== fingerprint(input)) throw new ApiException('IDEMPOTENCY_CONFLICT', { reference: refund.reference });
  return refund;
}

/** Equal for requests that mean the same refund: 500.50 and 500.5 are one amount, and an absent field is null. */
function fingerprint(input: CreateRefundDto): string {
  const amount = input.amount === undefined ? null : moneyFromAmount(input.amount, 'NGN').minor.toString();
  const normalised = [input.payinReference, amount, input.reason ?? null, input.merchantNote ?? null, input.customerNote ?? null, input.notifyUrl ?? null];
  return sha256Hex(JSON.stringify(normalised));
}
