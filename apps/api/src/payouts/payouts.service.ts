import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { Payout } from '@paysign/contracts';
import { EnquiryRecords } from '../accounts/enquiry-records';
import type { AppConfig } from '../config/app-config';
import { AppConfigToken } from '../config/app-config.token';
import { Clock } from '../config/clock';
import { ApiException } from '../errors/api.exception';
import { JobRunner } from '../jobs/job-runner';
import { InsufficientBalanceError, Ledger } from '../ledger/ledger';
import { MerchantRegistry } from '../merchants/merchant-registry';
import { amountOf, moneyFromAmount } from '../money/money';
import { matchName } from './name-match';
import { PayoutEvents } from './payout-events';
import { PayoutProvider } from './payout-provider';
import { PAYOUT_DISPATCH_JOB } from './payout-dispatcher';
import type { CreatePayoutDto } from './payout-requests';
import { PayoutStore, type NewPayout, type PayoutKey, type PayoutListQuery, type StoredPayout } from './payout-store';
import { payoutToContract } from './payout-view';

const naira = (minor: bigint) => amountOf({ minor, currency: 'NGN' }).toFixed(2);

/** Payouts as merchants call them: create, read, list, cancel; the sending is PayoutDispatcher's. */
@Injectable()
export class PayoutsService {
  constructor(
    private readonly store: PayoutStore,
    private readonly events: PayoutEvents,
    private readonly enquiries: EnquiryRecords,
    private readonly ledger: Ledger,
    private readonly merchants: MerchantRegistry,
    private readonly jobs: JobRunner,
    @Inject(PayoutProvider) private readonly provider: PayoutProvider | null,
    @Inject(AppConfigToken) private readonly config: AppConfig,
    @Inject(Clock) private readonly clock: Clock,
  ) {}

  /**
   * Creates a payout, or answers the one with the same reference: as it is
   * now for the same body, 409 for another. A retry is answered before the
   * enquiry or the balance is looked at, so that a payout once created is
   * never refused on its retry because its enquiry has since expired.
   */
  async create(merchantId: string, input: CreatePayoutDto): Promise<{ created: boolean; payout: Payout }> {
    if (!this.provider) throw new ApiException('PAYOUT_PROVIDER_NOT_CONFIGURED', {});
    const key = { merchantId, reference: input.reference };
    const amountMinor = moneyFromAmount(input.amount, input.currency).minor;
    const requestFingerprint = fingerprint(amountMinor, input);
    const existing = await this.store.find(key);
    if (existing) return { created: false, payout: payoutToContract(replayed(existing, requestFingerprint)) };

    if (input.notifyUrl && this.merchants.webhookSecretsOf(merchantId).length === 0) throw new ApiException('WEBHOOK_NOT_CONFIGURED', { merchantId });
    const enquiry = await this.enquiries.find(merchantId, input.enquiryId);
    if (!enquiry) throw new ApiException('ENQUIRY_NOT_FOUND', { enquiryId: input.enquiryId });
    if (enquiry.expired) throw new ApiException('ENQUIRY_EXPIRED', { enquiryId: input.enquiryId, expiresAt: enquiry.expiresAt.toISOString() });
    const { minAmountMinor, maxAmountMinor, dailyLimitMinor } = this.config.payouts;
    if (amountMinor < minAmountMinor) throw limitExceeded(amountMinor, `below the minimum payout of NGN ${naira(minAmountMinor)}`);
    if (amountMinor > maxAmountMinor) throw limitExceeded(amountMinor, `above the maximum of NGN ${naira(maxAmountMinor)} per payout`);
    const nameMatch = input.expectedAccountName ? matchName(input.expectedAccountName, enquiry.accountName) : 'not_checked';
    if (nameMatch === 'none') throw new ApiException('ACCOUNT_NAME_MISMATCH', { accountName: enquiry.accountName, expectedAccountName: input.expectedAccountName ?? '' });

    const feeMinor = this.merchants.feesOf(merchantId).payoutMinor;
    const payout: NewPayout = {
      ...key,
      amountMinor,
      feeMinor,
      currency: input.currency,
      bankCode: enquiry.bankCode,
      accountNumber: enquiry.accountNumber,
      accountName: enquiry.accountName,
      nameMatch,
      narration: input.narration,
      enquiryId: enquiry.enquiryId,
      notifyUrl: input.notifyUrl ?? null,
      requestFingerprint,
    };
    const result = await this.store.create(payout, dailyLimitMinor, this.now()).catch(async (error: unknown) => {
      if (!(error instanceof InsufficientBalanceError)) throw error;
      const { availableMinor } = await this.ledger.balanceOf(merchantId, input.currency);
      throw new ApiException('INSUFFICIENT_BALANCE', { currency: input.currency, needed: naira(amountMinor + feeMinor), amount: naira(amountMinor), fee: naira(feeMinor), available: naira(availableMinor) });
    });
    if ('refused' in result) {
      throw limitExceeded(amountMinor, `past the daily total of NGN ${naira(dailyLimitMinor)}, of which NGN ${naira(result.usedMinor)} is already paid out or on its way in the last 24 hours`);
    }
    if (!result.created) return { created: false, payout: payoutToContract(replayed(result.payout, requestFingerprint)) };
    this.jobs.wake(PAYOUT_DISPATCH_JOB);
    return { created: true, payout: payoutToContract(result.payout) };
  }

  async get(key: PayoutKey): Promise<StoredPayout> {
    const payout = await this.store.find(key);
    if (!payout) throw new ApiException('PAYOUT_NOT_FOUND', { reference: key.reference });
    return payout;
  }

  list(query: PayoutListQuery): Promise<StoredPayout[]> {
    return this.store.list(query);
  }

  /** Cancels a QUEUED payout and releases its hold; any other is 409, since it may already be on its way. */
  async cancel(key: PayoutKey): Promise<StoredPayout> {
    const cancelled = await this.store.move(key, { to: 'CANCELLED' }, this.now(), this.events.eventOf);
    if (cancelled) return cancelled;
    const payout = await this.get(key);
    throw new ApiException('PAYOUT_NOT_CANCELLABLE', { reference: key.reference, status: payout.status });
  }

  private now(): Date {
    return new Date(this.clock());
  }
}

/** The stored payout, if the request is the one that created it; a different body under its reference is 409. */
function replayed(payout: StoredPayout, requestFingerprint: string): StoredPayout {
  if (payout.requestFingerprint !== requestFingerprint) throw new ApiException('IDEMPOTENCY_CONFLICT', { reference: payout.reference });
  return payout;
}

function limitExceeded(amountMinor: bigint, limit: string): ApiException {
  return new ApiException('PAYOUT_LIMIT_EXCEEDED', { amount: naira(amountMinor), limit });
}

/** Equal for requests that mean the same payout: 5000.50 and 5000.5 are one amount, and an absent field is null. */
function fingerprint(amountMinor: bigint, input: CreatePayoutDto): string {
  const normalised = [amountMinor.toString(), input.currency, input.enquiryId, input.narration, input.expectedAccountName ?? null, input.notifyUrl ?? null];
  return createHash('sha256').update(JSON.stringify(normalised)).digest('hex');
}
