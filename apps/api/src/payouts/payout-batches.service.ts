import type { SqlQueryable } from '../db/sql-client';
import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import type { Logger } from 'pino';
import type { AppConfig } from '../config/app-config';
import { AppConfigToken } from '../config/app-config.token';
import { Clock } from '../config/clock';
import { ApiException } from '../errors/api.exception';
import { JobRunner, type JobRunOutcome } from '../jobs/job-runner';
import { ServiceLogger } from '../logging/logger';
import { MerchantRegistry } from '../merchants/merchant-registry';
import { MerchantStore } from '../merchants/merchant-store';
import { amountOf, moneyFromAmount } from '../money/money';
import { PayoutBatchStore, type PayoutBatchListQuery, type StoredBatch, type SubmitOutcome } from './payout-batch-store';
import type { PayoutKey } from './payout-rows';
import { PAYOUT_DISPATCH_JOB } from './payout-dispatcher';
import { PayoutEvents } from './payout-events';
import type { CreatePayoutBatchDto, SubmitPayoutBatchDto } from './payout-requests';
import type { Caller } from '../http/caller';
import { PayoutsService, requireRole } from './payouts.service';

export const PAYOUT_EXPIRY_JOB = 'payout-expiry';

/** The dashboard's refusal of a batch reference the merchant has used already. */
export const batchReferenceTaken = (reference: string) => new ApiException('DASHBOARD_CONFLICT', { why: `A payout batch ${reference} exists already: give the new batch another reference.` });

const naira = (minor: bigint) => amountOf({ minor, currency: 'NGN' }).toFixed(2);

/**
 * Payout batches as merchants call them: open one, add payouts to it (a
 * payout create with `batchReference`), submit it with the count and total
 * expected, or cancel it. Also the `payout-expiry` job, which cancels the
 * approvals and the open batches nobody acted on in time.
 */
@Injectable()
export class PayoutBatchesService implements OnModuleInit {
  constructor(
    private readonly store: PayoutBatchStore,
    private readonly payouts: PayoutsService,
    private readonly events: PayoutEvents,
    private readonly merchants: MerchantRegistry,
    private readonly merchantStore: MerchantStore,
    private readonly jobs: JobRunner,
    @Inject(ServiceLogger) private readonly logger: Logger,
    @Inject(AppConfigToken) private readonly config: AppConfig,
    @Inject(Clock) private readonly clock: Clock,
  ) {}

  onModuleInit(): void {
    this.jobs.add({ name: PAYOUT_EXPIRY_JOB, intervalMs: this.config.payouts.expiryIntervalMs, run: () => this.expire() });
  }

  /** Opens the batch, or answers the one with this reference: as it is for the same title, 409 for another. */
  async create(caller: Caller, input: CreatePayoutBatchDto): Promise<{ created: boolean; batch: StoredBatch }> {
    requireRole(this.merchants, caller, 'payouts:create');
    const result = await this.store.create({ merchantId: caller.merchantId, reference: input.reference, title: input.title, createdBy: caller.apiKey }, this.config.payouts.batchTtlSeconds * 1000, this.now());
    if (!result.created && result.batch.title !== input.title) throw new ApiException('IDEMPOTENCY_CONFLICT', { reference: input.reference });
    return result;
  }

  /**
   * Opens the batch for a dashboard member, recorded as created by
   * `createdBy` (memberIdentity); the member's role was checked by the
   * caller. A batch with this reference, whatever its title, is refused
   * with DASHBOARD_CONFLICT: the member's rows go into no batch but theirs.
   * It is opened `building`: until builtAsMember, nobody approves or submits it.
   */
  async createAsMember(merchantId: string, createdBy: string, input: CreatePayoutBatchDto): Promise<StoredBatch> {
    const result = await this.store.create({ merchantId, reference: input.reference, title: input.title, createdBy, building: true }, this.config.payouts.batchTtlSeconds * 1000, this.now());
    if (!result.created) throw batchReferenceTaken(input.reference);
    return result.batch;
  }

  /**
   * Ends the building of a member's batch whose every row is in (createAsMember
   * opened it `building`, so that nobody approves a part of it), with its
   * security log line in the same transaction.
   */
  async builtAsMember(key: PayoutKey, alsoInTransaction: (tx: SqlQueryable) => Promise<void>): Promise<void> {
    if (!(await this.store.built(key, alsoInTransaction))) throw new ApiException('DASHBOARD_CONFLICT', { why: `Payout batch ${key.reference} was cancelled while its rows were added (it expired): make it again.` });
  }

  get(caller: Caller, reference: string): Promise<StoredBatch> {
    return this.find({ merchantId: caller.merchantId, reference });
  }

  /** The merchant's batch, or PAYOUT_BATCH_NOT_FOUND. */
  async find(key: PayoutKey): Promise<StoredBatch> {
    const batch = await this.store.find(key);
    if (!batch) throw new ApiException('PAYOUT_BATCH_NOT_FOUND', { reference: key.reference });
    return batch;
  }

  list(query: PayoutBatchListQuery): Promise<StoredBatch[]> {
    return this.store.list(query);
  }

  async submit(caller: Caller, reference: string, input: SubmitPayoutBatchDto): Promise<StoredBatch> {
    const expected = { count: input.expectedCount, totalMinor: moneyFromAmount(input.expectedTotal, 'NGN').minor };
    // Keys one dashboard member made are one person's: none of them may approve what another of them created.
    const ownKeys = await this.merchantStore.keysOfSameMaker(caller.apiKey);
    const submitter = { apiKey: caller.apiKey, canCreate: this.merchants.hasRole(caller.apiKey, 'payouts:create'), canApprove: this.merchants.hasRole(caller.apiKey, 'payouts:approve'), ...(ownKeys.length > 1 ? { ownKeys } : {}) };
    const outcome = await this.store.submit({ merchantId: caller.merchantId, reference }, expected, submitter, this.now());
    return this.submitted(caller.merchantId, reference, expected, outcome, { by: caller.apiKey, refusal: (why) => new ApiException('APPROVER_REQUIRED', { apiKey: caller.apiKey, action: 'submit', subject: `payout batch ${reference}`, why }) });
  }

  /**
   * Submits an OPEN batch for the dashboard member who made it, with the
   * count and total they expect, as `submit` does for a key. A batch
   * holding a payout that needs approval is approved by another member
   * (ApprovalsController), and refused here with DASHBOARD_CONFLICT,
   * whatever the member's role: an approval asks a fresh second factor,
   * which a submission does not.
   */
  async submitForMember(merchantId: string, reference: string, expected: { count: number; totalMinor: bigint }, member: { decidedBy: string; ownKeys: readonly string[]; alsoInTransaction?: (tx: SqlQueryable) => Promise<void> }): Promise<StoredBatch> {
    const outcome = await this.store.submit({ merchantId, reference }, expected, { apiKey: member.decidedBy, canCreate: true, canApprove: false, ownKeys: member.ownKeys }, this.now(), member.alsoInTransaction);
    return this.submitted(merchantId, reference, expected, outcome, { by: member.decidedBy, refusal: () => new ApiException('DASHBOARD_CONFLICT', { why: `Payout batch ${reference} holds payouts that need approval: another owner, admin or approver approves it under Approvals, which submits it (four eyes).` }) });
  }

  /** The batch a submission submitted, or the refusal that says why not. */
  private submitted(merchantId: string, reference: string, expected: { count: number; totalMinor: bigint }, outcome: SubmitOutcome, submitter: { by: string; refusal: (why: string) => ApiException }): StoredBatch {
    if ('submitted' in outcome) {
      if (!outcome.replayed) {
        this.logger.info({ merchantId, reference, submittedBy: submitter.by, count: expected.count }, 'payout batch submitted');
        this.jobs.wake(PAYOUT_DISPATCH_JOB);
      }
      return outcome.submitted;
    }
    switch (outcome.refused) {
      case 'not-found':
        throw new ApiException('PAYOUT_BATCH_NOT_FOUND', { reference });
      case 'not-open':
        throw new ApiException('PAYOUT_BATCH_NOT_OPEN', { reference, status: outcome.status });
      case 'role-required':
        throw new ApiException('ROLE_REQUIRED', { apiKey: submitter.by, role: 'payouts:create' });
      case 'approver-required':
        throw submitter.refusal(outcome.why);
      case 'mismatch': {
        // Each number that differs as a field error too, for a program to read without parsing the message.
        const details = [
          ...(outcome.count === expected.count ? [] : [{ field: 'expectedCount', code: 'mismatch', message: `The batch holds ${outcome.count} payouts; you expected ${expected.count}.` }]),
          ...(outcome.totalMinor === expected.totalMinor ? [] : [{ field: 'expectedTotal', code: 'mismatch', message: `The batch's payouts total NGN ${naira(outcome.totalMinor)}; you expected NGN ${naira(expected.totalMinor)}.` }]),
        ];
        const params = { reference, count: String(outcome.count), total: naira(outcome.totalMinor), expectedCount: String(expected.count), expectedTotal: naira(expected.totalMinor) };
        throw new ApiException('PAYOUT_BATCH_MISMATCH', params, { details });
      }
    }
  }

  /**
   * Submits an OPEN batch for a dashboard member who approves it: the count
   * and total they were shown must be the batch's, and none of its payouts,
   * nor the batch, may come from a key the member made (four eyes).
   */
  async submitAsMember(merchantId: string, reference: string, expected: { count: number; totalMinor: bigint }, approver: { decidedBy: string; ownKeys: readonly string[]; alsoInTransaction?: (tx: SqlQueryable) => Promise<void> }): Promise<StoredBatch> {
    const outcome = await this.store.submit({ merchantId, reference }, expected, { apiKey: approver.decidedBy, canCreate: false, canApprove: true, ownKeys: approver.ownKeys }, this.now(), approver.alsoInTransaction);
    // Another member's submission, found as a replay: this member approved nothing.
    if ('submitted' in outcome && outcome.replayed && outcome.submitted.submittedBy !== approver.decidedBy) throw new ApiException('DASHBOARD_CONFLICT', { why: `Payout batch ${reference} was approved by ${outcome.submitted.submittedBy ?? 'someone else'} a moment ago; there is nothing left to approve.` });
    if ('submitted' in outcome) {
      if (!outcome.replayed) {
        this.logger.info({ merchantId, reference, submittedBy: approver.decidedBy, count: expected.count }, 'payout batch submitted');
        this.jobs.wake(PAYOUT_DISPATCH_JOB);
      }
      return outcome.submitted;
    }
    switch (outcome.refused) {
      case 'not-found':
        throw new ApiException('PAYOUT_BATCH_NOT_FOUND', { reference });
      case 'not-open':
        throw new ApiException('PAYOUT_BATCH_NOT_OPEN', { reference, status: outcome.status });
      case 'approver-required':
        throw new ApiException('DASHBOARD_FOUR_EYES', { key: 'an API key', subject: `Payout batch ${reference} or a payout in it` });
      case 'role-required':
      case 'mismatch':
        throw new ApiException('DASHBOARD_CONFLICT', { why: `Payout batch ${reference} changed since it was shown: it now holds ${'count' in outcome ? outcome.count : '?'} payouts. Open it again and approve what it holds now.` });
    }
  }

  /** Cancels an OPEN batch with every payout in it, releasing their holds: its creator withdrawing it, or an approver rejecting it. */
  async cancel(caller: Caller, reference: string): Promise<StoredBatch> {
    requireRole(this.merchants, caller, 'payouts:create', 'payouts:approve');
    return this.cancelFor(caller.merchantId, reference);
  }

  /**
   * Cancels an OPEN batch for a dashboard member, whose role the caller
   * checked. With `rejection`, its payouts record who rejected them and why;
   * `alsoInTransaction` (the security log line) commits with it.
   */
  async cancelFor(merchantId: string, reference: string, options: { rejection?: { by: string; note: string }; alsoInTransaction?: (tx: SqlQueryable) => Promise<void> } = {}): Promise<StoredBatch> {
    const outcome = await this.store.cancel({ merchantId, reference }, 'cancelled_by_merchant', this.now(), this.events.eventOf, options);
    if ('cancelled' in outcome) return outcome.cancelled;
    if (outcome.refused === 'not-found') throw new ApiException('PAYOUT_BATCH_NOT_FOUND', { reference });
    throw new ApiException('PAYOUT_BATCH_NOT_OPEN', { reference, status: outcome.status });
  }

  /**
   * One run of `payout-expiry`: a page of expired approvals, then a page of
   * expired open batches (PAYOUT_EXPIRY_BATCH_SIZE each). A batch whose
   * cancellation fails is logged and left for the next run; the others go on.
   */
  async expire(): Promise<JobRunOutcome> {
    const page = this.config.payouts.expiryBatchSize;
    const approvals = await this.payouts.expireApprovals(page);
    const batches = await this.store.expiredOpen(page);
    let failed = 0;
    for (const key of batches) {
      try {
        const outcome = await this.store.cancel(key, 'batch_expired', this.now(), this.events.eventOf);
        if ('cancelled' in outcome && !outcome.replayed) this.logger.info({ merchantId: key.merchantId, reference: key.reference }, 'payout batch cancelled: it was not submitted in time');
      } catch (error) {
        failed++;
        this.logger.error({ err: error, merchantId: key.merchantId, reference: key.reference }, 'payout batch not cancelled at its expiry; the next run tries again');
      }
    }
    // A page of failures is not run again at once: it would fail the same way.
    return { again: approvals === page || (batches.length === page && failed < batches.length) };
  }

  private now(): Date {
    return new Date(this.clock());
  }
}
