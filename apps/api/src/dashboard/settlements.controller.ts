import { Controller, Get, HttpCode, Inject, Param, Post, Put, Query, Req, Res } from '@nestjs/common';
import type { DashboardComponents } from '@paysign/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppConfig } from '../config/app-config';
import { AppConfigToken } from '../config/app-config.token';
import { SqlClient } from '../db/sql-client';
import { pageOf } from '../http/listing-query';
import { moneyFromAmount } from '../money/money';
import { checkedSettlementId, encodeSettlementCursor, encodeSettlementEntriesCursor, parseSettlementEntriesQuery, parseSettlementListQuery } from '../settlements/settlement-requests';
import { SettlementsService } from '../settlements/settlements.service';
import { entriesWithSources, MONEY_READERS } from './balance.controller';
import { actorOf, DashboardAudit, maskedAccountNumber } from './dashboard-audit';
import { FieldReader, jsonObject } from './dashboard-body';
import { DashboardRoute } from './dashboard-route.decorator';
import { memberIdentity } from '../merchants/member-identity';
import { sessionOf } from './dashboard-session.guard';
import { dashboardSettlementOf, readAccountRequest, readSchedule, readSettleNow } from './settlement-fields';

type Schemas = DashboardComponents['schemas'];

/**
 * Settlements (tag Settlements): the schedule, the settlement account and
 * each settlement with what it covered, through the signed API's own
 * SettlementsService with the session's merchant, in kobo. Every change is
 * written to the security log in its own transaction.
 */
@Controller('dashboard/api')
export class DashboardSettlementsController {
  constructor(
    private readonly settlements: SettlementsService,
    private readonly audit: DashboardAudit,
    private readonly client: SqlClient,
    @Inject(AppConfigToken) private readonly config: AppConfig,
  ) {}

  @Get('settlement-schedule')
  @DashboardRoute({ roles: MONEY_READERS })
  async schedule(@Req() request: FastifyRequest): Promise<Schemas['SettlementSchedule']> {
    return scheduleInKobo(await this.settlements.schedule(sessionOf(request).merchantId));
  }

  @Put('settlement-schedule')
  @DashboardRoute({ roles: ['owner', 'admin'] })
  async setSchedule(@Req() request: FastifyRequest): Promise<Schemas['SettlementSchedule']> {
    const input = readSchedule(jsonObject(request));
    const session = sessionOf(request);
    const detail = { interval: input.interval, weekday: input.weekday ?? null, minimumAmount: Number(input.minimumMinor) };
    const schedule = await this.settlements.setScheduleAsMember(session.merchantId, input, {
      requestedBy: memberIdentity(session.email),
      alsoInTransaction: (tx) => this.audit.record(actorOf(session, request.ip), 'settlement-schedule.set', { detail }, tx),
    });
    return scheduleInKobo(schedule);
  }

  @Get('settlement-account')
  @DashboardRoute({ roles: MONEY_READERS })
  async account(@Req() request: FastifyRequest): Promise<Schemas['SettlementAccountState']> {
    return this.withDelay(await this.settlements.account(sessionOf(request).merchantId));
  }

  @Put('settlement-account')
  @DashboardRoute({ roles: ['owner'], freshFactor: true })
  async setAccount(@Req() request: FastifyRequest): Promise<Schemas['SettlementAccountState']> {
    const enquiryId = readAccountRequest(jsonObject(request));
    const session = sessionOf(request);
    const state = await this.settlements.setAccountAsMember(session.merchantId, enquiryId, {
      requestedBy: memberIdentity(session.email),
      alsoInTransaction: (tx, account) =>
        this.audit.record(actorOf(session, request.ip), 'settlement-account.requested', { subject: account.enquiryId, detail: { bankCode: account.bankCode, accountNumber: maskedAccountNumber(account.accountNumber), accountName: account.accountName, effectiveAt: account.effectiveAt.toISOString() } }, tx),
    });
    return this.withDelay(state);
  }

  @Post('settlement-account/cancel')
  @HttpCode(200)
  @DashboardRoute({ roles: ['owner'], freshFactor: true })
  async cancelAccountChange(@Req() request: FastifyRequest): Promise<Schemas['SettlementAccountState']> {
    new FieldReader(jsonObject(request), []).done();
    const session = sessionOf(request);
    const state = await this.settlements.cancelAccountChangeAsMember(session.merchantId, {
      requestedBy: memberIdentity(session.email),
      alsoInTransaction: (tx, account) =>
        this.audit.record(actorOf(session, request.ip), 'settlement-account.cancelled', { subject: account.enquiryId, detail: { bankCode: account.bankCode, accountNumber: maskedAccountNumber(account.accountNumber), accountName: account.accountName } }, tx),
    });
    return this.withDelay(state);
  }

  @Get('settlements')
  @DashboardRoute({ roles: MONEY_READERS })
  async list(@Query() query: Record<string, unknown>, @Req() request: FastifyRequest): Promise<Schemas['SettlementPage']> {
    const listing = parseSettlementListQuery(sessionOf(request).merchantId, query);
    const rows = await this.settlements.list({ ...listing, limit: listing.limit + 1 });
    const { data, nextCursor } = pageOf(rows, listing.limit, dashboardSettlementOf, (last) => encodeSettlementCursor(last, listing));
    return { data, nextCursor };
  }

  @Post('settlements')
  @DashboardRoute({ roles: ['owner', 'admin'], freshFactor: true })
  async create(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<Schemas['Settlement']> {
    const input = readSettleNow(jsonObject(request));
    const session = sessionOf(request);
    const { created, transfer } = await this.settlements.createAsMember(session.merchantId, input, {
      requestedBy: memberIdentity(session.email),
      alsoInTransaction: (tx, id) => this.audit.record(actorOf(session, request.ip), 'settlement.created', { subject: id, detail: { reference: input.reference, currency: input.currency } }, tx),
    });
    void reply.status(created ? 201 : 200);
    return dashboardSettlementOf(transfer);
  }

  @Get('settlements/:id')
  @DashboardRoute({ roles: MONEY_READERS })
  async get(@Param('id') id: string, @Req() request: FastifyRequest): Promise<Schemas['Settlement']> {
    return dashboardSettlementOf(await this.settlements.get(sessionOf(request).merchantId, checkedSettlementId(id)));
  }

  @Get('settlements/:id/entries')
  @DashboardRoute({ roles: MONEY_READERS })
  async entries(@Param('id') id: string, @Query() query: Record<string, unknown>, @Req() request: FastifyRequest): Promise<Schemas['BalanceEntryPage']> {
    const { merchantId } = sessionOf(request);
    const checked = checkedSettlementId(id);
    const page = parseSettlementEntriesQuery(checked, query);
    const rows = await this.settlements.entries(merchantId, checked, { ...page, limit: page.limit + 1 });
    const shown = rows.slice(0, page.limit);
    const last = shown.at(-1);
    return { data: await entriesWithSources(this.client, merchantId, shown), nextCursor: rows.length > page.limit && last ? encodeSettlementEntriesCursor(last.id, checked) : null };
  }

  private withDelay(state: Omit<Schemas['SettlementAccountState'], 'changeDelaySeconds'>): Schemas['SettlementAccountState'] {
    return { ...state, changeDelaySeconds: this.config.settlements.accountChangeDelaySeconds };
  }
}

function scheduleInKobo(schedule: Awaited<ReturnType<SettlementsService['schedule']>>): Schemas['SettlementSchedule'] {
  return { ...schedule, minimumAmount: Number(moneyFromAmount(schedule.minimumAmount, 'NGN').minor) };
}
