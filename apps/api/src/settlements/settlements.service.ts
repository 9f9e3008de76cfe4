import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import type { SettlementAccountState, SettlementSchedule, SetSettlementScheduleRequest } from '@paysign/contracts';
import { EnquiryRecords } from '../accounts/enquiry-records';
import type { AppConfig } from '../config/app-config';
import { AppConfigToken } from '../config/app-config.token';
import { Clock } from '../config/clock';
import type { SqlQueryable } from '../db/sql-client';
import { StoreClock, storeInstant } from '../db/store-clock';
import { ApiException } from '../errors/api.exception';
import type { Caller } from '../http/caller';
import { JobRunner } from '../jobs/job-runner';
import { Ledger, type BalanceEntry } from '../ledger/ledger';
import { ServiceLogger } from '../logging/logger';
import { MerchantRegistry } from '../merchants/merchant-registry';
import { amountOf, moneyFromAmount } from '../money/money';
import { PAYOUT_DISPATCH_JOB } from '../payouts/payout-dispatcher';
import type { StoredPayout } from '../payouts/payout-rows';
import { requireRole } from '../payouts/payouts.service';
import { ProviderRegistry } from '../providers/provider-registry';
import type { SettlementAccountsOf, StoredSettlementAccount } from './settlement-accounts';
import { SettlementAccounts } from './settlement-accounts';
import { isoWeekdayOf, nextRunAfter, weekdayOfIso } from './settlement-calendar';
import { SettlementEvents } from './settlement-events';
import { SettlementSchedules } from './settlement-schedules';
import { SettlementStore, type SettleOutcome, type SettlementListQuery, type SettlingCurrency } from './settlement-store';

const naira = (minor: bigint) => amountOf({ minor, currency: 'NGN' }).toFixed(2);

/** Settlements as merchants call them: the settlement account and schedule, settling now, and reading settlements and what they covered. */
@Injectable()
export class SettlementsService {
  constructor(
    private readonly store: SettlementStore,
    private readonly accounts: SettlementAccounts,
    private readonly schedules: SettlementSchedules,
    private readonly events: SettlementEvents,
    private readonly enquiries: EnquiryRecords,
    private readonly ledger: Ledger,
    private readonly merchants: MerchantRegistry,
    private readonly providers: ProviderRegistry,
    private readonly jobs: JobRunner,
    @Inject(AppConfigToken) private readonly config: AppConfig,
    @Inject(Clock) private readonly clock: Clock,
    @Inject(StoreClock) private readonly storeClock: StoreClock,
    @Inject(ServiceLogger) private readonly logger: Logger,
  ) {}

  async account(merchantId: string): Promise<SettlementAccountState> {
    return accountState(await this.accounts.of(merchantId));
  }

  /** Names the settlement account by an enquiry of the merchant's, in force after its delay, the first as any change. */
  async setAccount(caller: Caller, enquiryId: string): Promise<SettlementAccountState> {
    requireRole(this.merchants, caller, 'settlements:manage');
    return this.requestAccount(caller.merchantId, enquiryId, { requestedBy: caller.apiKey });
  }

  /** The same, asked by a dashboard member, whose role the dashboard checked; `requestedBy` names them. */
  setAccountAsMember(merchantId: string, enquiryId: string, member: MemberChange<StoredSettlementAccount>): Promise<SettlementAccountState> {
    return this.requestAccount(merchantId, enquiryId, member);
  }

  async cancelAccountChange(caller: Caller): Promise<SettlementAccountState> {
    requireRole(this.merchants, caller, 'settlements:manage');
    return this.cancelAccount(caller.merchantId, { requestedBy: caller.apiKey });
  }

  cancelAccountChangeAsMember(merchantId: string, member: MemberChange<StoredSettlementAccount>): Promise<SettlementAccountState> {
    return this.cancelAccount(merchantId, member);
  }

  async schedule(merchantId: string): Promise<SettlementSchedule> {
    const [schedule, pause, { current }] = await Promise.all([this.schedules.of(merchantId), this.schedules.pauseOf(merchantId), this.accounts.of(merchantId)]);
    const runs = this.config.settlements.enabled && current !== undefined && pause === undefined;
    return {
      interval: schedule.interval,
      minimumAmount: amountOf({ minor: schedule.minimumMinor, currency: 'NGN' }),
      weekday: schedule.weekday === null ? null : weekdayOfIso(schedule.weekday),
      runHourUtc: this.config.settlements.runHourUtc,
      paused: pause !== undefined,
      pausedBy: pause?.settlementId ?? null,
      nextRunAt: runs ? (nextRunAfter(schedule, this.now(), this.config.settlements.runHourUtc)?.toISOString() ?? null) : null,
    };
  }

  async setSchedule(caller: Caller, input: SetSettlementScheduleRequest): Promise<SettlementSchedule> {
    requireRole(this.merchants, caller, 'settlements:manage');
    return this.changeSchedule(caller.merchantId, { ...input, minimumMinor: moneyFromAmount(input.minimumAmount, 'NGN').minor }, { requestedBy: caller.apiKey });
  }

  /** The same, set by a dashboard member, with the minimum in kobo. */
  setScheduleAsMember(merchantId: string, input: ScheduleInput, member: MemberChange<void>): Promise<SettlementSchedule> {
    return this.changeSchedule(merchantId, input, member);
  }

  /**
   * Settles the whole available balance now, as a run would, with the
   * platform's minimum payout as its minimum. The caller's reference is the
   * request's idempotency key: the same again answers the settlement it made.
   */
  async create(caller: Caller, input: { reference: string; currency: SettlingCurrency }): Promise<{ created: boolean; transfer: StoredPayout }> {
    requireRole(this.merchants, caller, 'settlements:manage');
    return this.settleNow(caller.merchantId, input, { requestedBy: caller.apiKey });
  }

  /** The same, asked by a dashboard member; the settlement records `requestedBy` as who made it. */
  createAsMember(merchantId: string, input: { reference: string; currency: SettlingCurrency }, member: MemberChange<string>): Promise<{ created: boolean; transfer: StoredPayout }> {
    return this.settleNow(merchantId, input, member);
  }

  private async requestAccount(merchantId: string, enquiryId: string, by: MemberChange<StoredSettlementAccount> | { requestedBy: string }): Promise<SettlementAccountState> {
    const enquiry = await this.enquiries.find(merchantId, enquiryId);
    if (!enquiry) throw new ApiException('ENQUIRY_NOT_FOUND', { enquiryId });
    if (enquiry.expired) throw new ApiException('ENQUIRY_EXPIRED', { enquiryId, expiresAt: enquiry.expiresAt.toISOString() });
    const account = { bankCode: enquiry.bankCode, accountNumber: enquiry.accountNumber, accountName: enquiry.accountName, enquiryId: enquiry.enquiryId };
    const delayMs = this.config.settlements.accountChangeDelaySeconds * 1000;
    const state = await this.accounts.request(merchantId, account, by.requestedBy, delayMs, this.now(), alsoOf(by));
    this.logger.warn({ merchantId, requestedBy: by.requestedBy, bankCode: account.bankCode, effectiveAt: (state.pending ?? state.current)?.effectiveAt }, 'settlement account change requested');
    return accountState(state);
  }

  private async cancelAccount(merchantId: string, by: MemberChange<StoredSettlementAccount> | { requestedBy: string }): Promise<SettlementAccountState> {
    const state = await this.accounts.cancel(merchantId, this.now(), alsoOf(by));
    if (!state) throw new ApiException('SETTLEMENT_ACCOUNT_CHANGE_NOT_PENDING', {});
    this.logger.warn({ merchantId, requestedBy: by.requestedBy }, 'settlement account change cancelled');
    return accountState(state);
  }

  private async changeSchedule(merchantId: string, input: ScheduleInput, by: MemberChange<void> | { requestedBy: string }): Promise<SettlementSchedule> {
    const weekday = input.interval === 'weekly' && input.weekday ? isoWeekdayOf(input.weekday) : null;
    await this.schedules.set(merchantId, { interval: input.interval, weekday, minimumMinor: input.minimumMinor }, this.now(), 'alsoInTransaction' in by ? { alsoInTransaction: (tx) => by.alsoInTransaction(tx) } : {});
    this.logger.info({ merchantId, requestedBy: by.requestedBy, interval: input.interval, weekday: input.weekday ?? null }, 'settlement schedule set');
    return this.schedule(merchantId);
  }

  private async settleNow(merchantId: string, input: { reference: string; currency: SettlingCurrency }, by: MemberChange<string> | { requestedBy: string }): Promise<{ created: boolean; transfer: StoredPayout }> {
    if (!this.config.settlements.enabled) throw new ApiException('SETTLEMENTS_NOT_ENABLED', {});
    if (!this.providers.payoutsForNewPayouts()) throw new ApiException('PAYOUT_PROVIDER_NOT_CONFIGURED', {});
    const { currency } = input;
    const outcome = await this.settle({ merchantId, currency, runKey: `manual:${input.reference}`, requestedBy: by.requestedBy, minimumMinor: this.config.payouts.minAmountMinor, ...alsoOf(by) });
    switch (outcome.outcome) {
      case 'created':
        return { created: true, transfer: outcome.transfer };
      case 'already-settled':
        return { created: false, transfer: await this.get(merchantId, outcome.id) };
      case 'suspended':
        // A key's merchant was suspended since its request was let in: answered as its next request will be. A member
        // keeps their session (the dashboard reads a 401 as signed out): they are told why nothing was settled.
        if ('alsoInTransaction' in by) throw new ApiException('DASHBOARD_CONFLICT', { why: 'Your merchant account is suspended: nothing is settled until the operator reinstates it. Ask the operator.' });
        throw new ApiException('AUTH_UNKNOWN_API_KEY', { detail: 'The API key is not an active credential: its merchant is suspended. Ask the operator.' });
      case 'no-account':
        throw new ApiException('SETTLEMENT_ACCOUNT_NOT_SET', {});
      case 'paused':
        throw new ApiException('SETTLEMENTS_PAUSED', { id: outcome.pause.settlementId, reason: outcome.pause.reason });
      case 'below-minimum':
        throw new ApiException('NOTHING_TO_SETTLE', { currency, available: `${currency} ${naira(outcome.availableMinor)}`, minimum: `${currency} ${naira(outcome.minimumMinor)}` });
    }
  }

  /** One settlement of the merchant and currency, logged and sent on its way when made: the runs' and the POST's. */
  async settle(request: Parameters<SettlementStore['settle']>[0]): Promise<SettleOutcome> {
    const outcome = await this.store.settle(request, this.now(), this.events.eventOf);
    if (outcome.outcome === 'created') {
      const { transfer } = outcome;
      this.logger.info({ merchantId: transfer.merchantId, settlementId: transfer.reference, amountMinor: transfer.amountMinor.toString(), runKey: request.runKey }, 'settlement created');
      this.jobs.wake(PAYOUT_DISPATCH_JOB);
    }
    return outcome;
  }

  async get(merchantId: string, id: string): Promise<StoredPayout> {
    const transfer = await this.store.find(merchantId, id);
    if (!transfer) throw new ApiException('SETTLEMENT_NOT_FOUND', { id });
    return transfer;
  }

  list(query: SettlementListQuery): Promise<StoredPayout[]> {
    return this.store.list(query);
  }

  /** A page of the entries of `available` the settlement covered, newest first. */
  async entries(merchantId: string, id: string, page: { limit: number; afterId?: bigint }): Promise<BalanceEntry[]> {
    const cover = await this.store.coverOf(merchantId, id);
    if (!cover) throw new ApiException('SETTLEMENT_NOT_FOUND', { id });
    const belowId = page.afterId !== undefined && page.afterId < cover.belowId ? page.afterId : cover.belowId;
    return this.ledger.entriesOf({ merchantId, currency: cover.currency, kind: 'available', afterId: belowId, aboveId: cover.aboveId, limit: page.limit });
  }

  private now(): Date {
    return new Date(storeInstant(this.storeClock, this.clock));
  }
}

/**
 * A change asked by a dashboard member: who (`dashboard:<email>`), and what
 * commits with it (their security log line), given what changed.
 */
export interface MemberChange<Changed> {
  requestedBy: string;
  alsoInTransaction: (tx: SqlQueryable, changed: Changed) => Promise<void>;
}

/** A schedule to set, its minimum in minor units. */
export type ScheduleInput = Omit<SetSettlementScheduleRequest, 'minimumAmount'> & { minimumMinor: bigint };

const alsoOf = <Changed>(by: MemberChange<Changed> | { requestedBy: string }) => ('alsoInTransaction' in by ? { alsoInTransaction: by.alsoInTransaction } : {});

function accountState(accounts: SettlementAccountsOf): SettlementAccountState {
  const bank = (account: StoredSettlementAccount) => ({ bankCode: account.bankCode, accountNumber: account.accountNumber, accountName: account.accountName, enquiryId: account.enquiryId });
  return {
    current: accounts.current ? { account: bank(accounts.current), inForceSince: accounts.current.effectiveAt.toISOString() } : null,
    pending: accounts.pending ? { account: bank(accounts.pending), requestedAt: accounts.pending.requestedAt.toISOString(), effectiveAt: accounts.pending.effectiveAt.toISOString() } : null,
  };
}

