import type { SqlQueryable } from '../db/sql-client';
import { sha256Hex } from '@paysign/signing';
import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import type { Payout } from '@paysign/contracts';
import { EnquiryRecords } from '../accounts/enquiry-records';
import type { AppConfig } from '../config/app-config';
import { AppConfigToken } from '../config/app-config.token';
import { Clock } from '../config/clock';
import { ApiException } from '../errors/api.exception';
import type { Caller } from '../http/caller';
import { JobRunner } from '../jobs/job-runner';
import { ServiceLogger } from '../logging/logger';
import { InsufficientBalanceError, Ledger } from '../ledger/ledger';
import { MerchantRegistry } from '../merchants/merchant-registry';
import { MerchantStore } from '../merchants/merchant-store';
import { needsApproval, type PayoutRole } from '../merchants/payout-approval';
import { amountOf, moneyFromAmount } from '../money/money';
import { matchName } from '@paysign/contracts';
import { PayoutEvents } from './payout-events';
import { ProviderRegistry } from '../providers/provider-registry';
import { PAYOUT_DISPATCH_JOB } from './payout-dispatcher';
import type { CreatePayoutDto } from './payout-requests';
import { PayoutStore, type AlsoOnCreate, type InitialPayoutStatus, type NewPayout, type PayoutKey, type PayoutListQuery, type StoredPayout } from './payout-store';
import { payoutToContract } from './payout-view';

const naira = (minor: bigint) => amountOf({ minor, currency: 'NGN' }).toFixed(2);


/** Payouts as merchants call them: create, read, list, cancel, approve, reject; the sending is PayoutDispatcher's. */
@Injectable()
export class PayoutsService {
  constructor(
    private readonly store: PayoutStore,
    private readonly events: PayoutEvents,
    private readonly enquiries: EnquiryRecords,
    private readonly ledger: Ledger,
    private readonly merchants: MerchantRegistry,
    private readonly merchantStore: MerchantStore,
    private readonly jobs: JobRunner,
    private readonly providers: ProviderRegistry,
    @Inject(AppConfigToken) private readonly config: AppConfig,
    @Inject(Clock) private readonly clock: Clock,
    @Inject(ServiceLogger) private readonly logger: Logger,
  ) {}

  /**
   * Creates a payout, or answers the one with the same reference: as it is
   * now for the same body, 409 for another. A retry is answered before the
   * enquiry or the balance is looked at, so that a payout once created is
   * never refused on its retry because its enquiry has since expired.
   */
  async create(caller: Caller, input: CreatePayoutDto): Promise<{ created: boolean; payout: Payout }> {
    requireRole(this.merchants, caller, 'payouts:create');
    return this.createFor(caller.merchantId, caller.apiKey, input);
  }

  /**
   * Creates a payout for a dashboard member as `create` does for a key,
   * recorded as created by `createdBy` (memberIdentity): the member's role
   * was checked by the caller, and four eyes keeps them from approving it.
   * `alsoInTransaction` (the security log line) commits with the payout it creates.
   */
  async createAsMember(merchantId: string, createdBy: string, input: CreatePayoutDto, alsoInTransaction?: AlsoOnCreate): Promise<{ created: boolean; payout: Payout }> {
    return this.createFor(merchantId, createdBy, input, alsoInTransaction);
  }

  private async createFor(merchantId: string, createdBy: string, input: CreatePayoutDto, alsoInTransaction?: AlsoOnCreate): Promise<{ created: boolean; payout: Payout }> {
    if (!this.providers.payoutsForNewPayouts()) throw new ApiException('PAYOUT_PROVIDER_NOT_CONFIGURED', {});
    const key = { merchantId, reference: input.reference };
    const amountMinor = moneyFromAmount(input.amount, input.currency).minor;
    const requestFingerprint = fingerprint(amountMinor, input);
    const existing = await this.store.find(key);
    if (existing) return { created: false, payout: payoutToContract(replayed(existing, requestFingerprint)) };

    if (input.notifyUrl && !this.merchants.canSignNotifications(merchantId)) throw new ApiException('WEBHOOK_NOT_CONFIGURED', { merchantId });
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
      createdBy,
      batchReference: input.batchReference ?? null,
    };
    // With approval on, a batch's payouts all wait for the approver who submits it, whatever their amounts: the threshold is for single payouts.
    const policy = this.merchants.payoutApprovalOf(merchantId);
    const approval = payout.batchReference !== null ? policy.required : needsApproval(policy, amountMinor);
    const status: InitialPayoutStatus = approval ? 'PENDING_APPROVAL' : payout.batchReference !== null ? 'BATCHED' : 'QUEUED';
    const start = { status, approvalTtlMs: this.config.payouts.approvalTtlSeconds * 1000, batchMaxItems: this.config.payouts.batchMaxItems };
    const result = await this.store.create(payout, start, dailyLimitMinor, this.now(), this.events.eventOf, alsoInTransaction).catch(async (error: unknown) => {
      if (!(error instanceof InsufficientBalanceError)) throw error;
      const { availableMinor } = await this.ledger.balanceOf(merchantId, input.currency);
      throw new ApiException('INSUFFICIENT_BALANCE', {
        subject: 'payout',
        currency: input.currency,
        needed: naira(amountMinor + feeMinor),
        breakdown: ` (${input.currency} ${naira(amountMinor)} and a fee of ${input.currency} ${naira(feeMinor)})`,
        balances: `the available balance is ${input.currency} ${naira(availableMinor)}`,
        advice: 'Wait for settlement, or pay out less.',
      });
    });
    if ('refused' in result) {
      switch (result.refused) {
        case 'batch-not-found':
          throw new ApiException('PAYOUT_BATCH_NOT_FOUND', { reference: payout.batchReference ?? '' });
        case 'batch-not-open':
          throw new ApiException('PAYOUT_BATCH_NOT_OPEN', { reference: payout.batchReference ?? '', status: result.batchStatus });
        case 'batch-full':
          throw limitExceeded(amountMinor, `past the ${result.maxItems} payouts one batch holds (PAYOUT_BATCH_MAX_ITEMS); open another batch for the rest`);
        case 'daily-limit':
          throw limitExceeded(amountMinor, `past the daily total of NGN ${naira(dailyLimitMinor)}, of which NGN ${naira(result.usedMinor)} is already paid out or on its way in the last 24 hours`);
      }
    }
    if (!result.created) return { created: false, payout: payoutToContract(replayed(result.payout, requestFingerprint)) };
    if (result.payout.status === 'QUEUED') this.jobs.wake(PAYOUT_DISPATCH_JOB);
    return { created: true, payout: payoutToContract(result.payout) };
  }

  /** The merchant's payout; a settlement's transfer is not one of them (GET /payment/api/settlements/{id} reads it). */
  async get(key: PayoutKey): Promise<StoredPayout> {
    const payout = await this.store.find(key);
    if (!payout || payout.purpose !== 'payout') throw new ApiException('PAYOUT_NOT_FOUND', { reference: key.reference });
    return payout;
  }

  list(query: PayoutListQuery): Promise<StoredPayout[]> {
    return this.store.list(query);
  }

  /** Cancels a QUEUED or PENDING_APPROVAL payout and releases its hold; any other is 409, since it may already be on its way. */
  async cancel(caller: Caller, reference: string): Promise<StoredPayout> {
    requireRole(this.merchants, caller, 'payouts:create');
    const key = { merchantId: caller.merchantId, reference };
    await this.get(key);
    const cancelled = await this.store.move(key, { to: 'CANCELLED', reason: 'cancelled_by_merchant' }, this.now(), this.events.eventOf);
    if (cancelled) return cancelled;
    const payout = await this.get(key);
    if (payout.batchReference !== null && payout.status !== 'CANCELLED') throw inBatch(payout);
    throw new ApiException('PAYOUT_NOT_CANCELLABLE', { reference, status: payout.status });
  }

  /**
   * Approves a PENDING_APPROVAL payout outside a batch, signed by a key with
   * payouts:approve that did not create it; it becomes QUEUED and is sent.
   * The same key approving again is answered the payout as it is.
   */
  async approve(caller: Caller, reference: string): Promise<StoredPayout> {
    const payout = await this.decidable(caller, reference, 'approve');
    if (payout.approval?.status === 'approved' && payout.approval.decidedBy === caller.apiKey) return payout;
    const approved = await this.store.move(payout, { to: 'QUEUED', approvedBy: caller.apiKey }, this.now(), this.events.eventOf);
    if (!approved) {
      // Still waiting, yet not moved: its approval expired, and the sweep that cancels it has not run yet.
      if ((await this.get(payout)).status === 'PENDING_APPROVAL') throw new ApiException('PAYOUT_NOT_AWAITING_APPROVAL', { reference, status: 'PENDING_APPROVAL past its approval expiry, and about to be cancelled' });
      return this.approve(caller, reference);
    }
    this.logger.info({ merchantId: approved.merchantId, reference, approvedBy: caller.apiKey }, 'payout approved');
    this.jobs.wake(PAYOUT_DISPATCH_JOB);
    return approved;
  }

  /**
   * Approves a PENDING_APPROVAL payout outside a batch for a dashboard
   * member, recorded as `decidedBy` (`dashboard:<email>`). Four eyes holds
   * as for keys: a member may not approve a payout created by a key they
   * made (`ownKeys`). The member's passkey or code was checked by the caller.
   */
  async approveAsMember(merchantId: string, reference: string, approver: { decidedBy: string; ownKeys: readonly string[]; alsoInTransaction?: (tx: SqlQueryable) => Promise<void> }): Promise<StoredPayout> {
    const payout = await this.get({ merchantId, reference });
    if (payout.batchReference !== null) throw inBatch(payout);
    if (payout.createdBy !== null && approver.ownKeys.includes(payout.createdBy)) {
      throw new ApiException('DASHBOARD_FOUR_EYES', { key: payout.createdBy, subject: `Payout ${reference}` });
    }
    if (payout.approval?.status === 'approved' && payout.approval.decidedBy === approver.decidedBy) return payout;
    if (payout.status !== 'PENDING_APPROVAL') throw new ApiException('PAYOUT_NOT_AWAITING_APPROVAL', { reference, status: payout.status });
    const approved = await this.store.move(payout, { to: 'QUEUED', approvedBy: approver.decidedBy }, this.now(), this.events.eventOf, approver.alsoInTransaction ? { alsoInTransaction: approver.alsoInTransaction } : {});
    if (!approved) {
      if ((await this.get(payout)).status === 'PENDING_APPROVAL') throw new ApiException('PAYOUT_NOT_AWAITING_APPROVAL', { reference, status: 'PENDING_APPROVAL past its approval expiry, and about to be cancelled' });
      return this.approveAsMember(merchantId, reference, approver);
    }
    this.logger.info({ merchantId, reference, approvedBy: approver.decidedBy }, 'payout approved');
    this.jobs.wake(PAYOUT_DISPATCH_JOB);
    return approved;
  }

  /** Rejects a PENDING_APPROVAL payout outside a batch: it is cancelled, its hold released, with who rejected it and why. */
  async reject(caller: Caller, reference: string, note: string | null): Promise<StoredPayout> {
    const payout = await this.decidable(caller, reference, 'reject');
    if (payout.approval?.status === 'rejected' && payout.approval.decidedBy === caller.apiKey) return payout;
    const rejected = await this.store.move(payout, { to: 'CANCELLED', reason: 'rejected', rejectedBy: caller.apiKey, note }, this.now(), this.events.eventOf);
    if (!rejected) return this.reject(caller, reference, note);
    this.logger.info({ merchantId: rejected.merchantId, reference, rejectedBy: caller.apiKey }, 'payout rejected');
    return rejected;
  }

  /** Rejects a PENDING_APPROVAL payout outside a batch for a dashboard member, recorded as `decidedBy`; `alsoInTransaction` (the security log line) commits with it. */
  async rejectAsMember(merchantId: string, reference: string, rejecter: { decidedBy: string; note: string; alsoInTransaction: (tx: SqlQueryable) => Promise<void> }): Promise<StoredPayout> {
    const payout = await this.get({ merchantId, reference });
    if (payout.batchReference !== null) throw inBatch(payout);
    // Decided already (another rejection won the race): a conflict that says by whom, as the approvals page finds it; a second rejection records nothing.
    if (payout.status !== 'PENDING_APPROVAL') throw decidedAlready(payout);
    const rejected = await this.store.move(payout, { to: 'CANCELLED', reason: 'rejected', rejectedBy: rejecter.decidedBy, note: rejecter.note }, this.now(), this.events.eventOf, { alsoInTransaction: rejecter.alsoInTransaction });
    if (!rejected) return this.rejectAsMember(merchantId, reference, rejecter);
    this.logger.info({ merchantId, reference, rejectedBy: rejecter.decidedBy }, 'payout rejected');
    return rejected;
  }

  /** Cancels a page of the payouts whose approval expired; resolves how many it found, cancelled or not. */
  async expireApprovals(limit: number): Promise<number> {
    const due = await this.store.approvalsExpired(limit);
    for (const key of due) {
      const expired = await this.store.move(key, { to: 'CANCELLED', reason: 'approval_expired' }, this.now(), this.events.eventOf);
      if (expired) this.logger.info({ merchantId: key.merchantId, reference: key.reference }, 'payout cancelled: nobody approved it in time');
    }
    return due.length;
  }

  /** The payout `caller` may approve or reject now, or the refusal that says why not. */
  private async decidable(caller: Caller, reference: string, decision: 'approve' | 'reject'): Promise<StoredPayout> {
    if (!this.merchants.hasRole(caller.apiKey, 'payouts:approve')) {
      throw new ApiException('APPROVER_REQUIRED', { apiKey: caller.apiKey, action: decision, subject: `payout ${reference}`, why: 'it lacks the payouts:approve role.' });
    }
    const payout = await this.get({ merchantId: caller.merchantId, reference });
    if (payout.batchReference !== null) throw inBatch(payout);
    if (decision === 'approve' && payout.createdBy === caller.apiKey) {
      throw new ApiException('APPROVER_REQUIRED', { apiKey: caller.apiKey, action: decision, subject: `payout ${reference}`, why: 'it created the payout, and a payout is approved by a second credential.' });
    }
    // Two keys one dashboard member made are one person's: four eyes needs two.
    if (decision === 'approve' && payout.createdBy !== null && (await this.merchantStore.keysOfSameMaker(caller.apiKey)).includes(payout.createdBy)) {
      throw new ApiException('APPROVER_REQUIRED', { apiKey: caller.apiKey, action: decision, subject: `payout ${reference}`, why: `the same team member made it and ${payout.createdBy}, which created the payout; a payout is approved by a second person.` });
    }
    const decidedByCaller = payout.approval?.decidedBy === caller.apiKey && payout.approval.status === (decision === 'approve' ? 'approved' : 'rejected');
    if (payout.status !== 'PENDING_APPROVAL' && !decidedByCaller) throw new ApiException('PAYOUT_NOT_AWAITING_APPROVAL', { reference, status: payout.status });
    return payout;
  }

  private now(): Date {
    return new Date(this.clock());
  }
}

/** Refuses `caller` with ROLE_REQUIRED unless its key holds one of `roles` (the first is the one the message names). */
export function requireRole(merchants: MerchantRegistry, caller: Caller, ...roles: [PayoutRole, ...PayoutRole[]]): void {
  if (!roles.some((role) => merchants.hasRole(caller.apiKey, role))) throw new ApiException('ROLE_REQUIRED', { apiKey: caller.apiKey, role: roles[0] });
}

/** A member's refusal of a payout no longer waiting for approval: by whom it was decided, when it was. */
export function decidedAlready(payout: StoredPayout): ApiException {
  const { approval } = payout;
  const decided = approval && approval.status !== 'pending' && approval.decidedBy ? ` was ${approval.status} by ${approval.decidedBy}, and` : '';
  return new ApiException('DASHBOARD_CONFLICT', { why: `Payout ${payout.reference}${decided} is ${payout.status}, not waiting for approval: there is nothing left to approve or reject.` });
}

function inBatch(payout: StoredPayout): ApiException {
  return new ApiException('PAYOUT_IN_BATCH', { reference: payout.reference, batchReference: payout.batchReference ?? '' });
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
  // Added last, and only when given, so that a payout created before batches keeps its fingerprint.
  if (input.batchReference) normalised.push(input.batchReference);
  return sha256Hex(JSON.stringify(normalised));
}
