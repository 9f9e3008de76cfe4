import { Controller, Get, HttpCode, Param, Post, Put, Query, Req, Res } from '@nestjs/common';
import type { BalanceEntryList, Settlement, SettlementAccountState, SettlementList, SettlementSchedule } from '@paysign/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { callerOf, merchantOf } from '../http/caller';
import { pageOf } from '../http/listing-query';
import { amountTextErrors } from '../http/request-rules';
import { ROUTES } from '../http/routes';
import { refuseFields, validateBody } from '../http/validate-body';
import { VerifiedBody, verifiedFieldText } from '../http/verified-body.decorator';
import { entryToContract } from '../ledger/balance.controller';
import {
  checkedSettlementId,
  CREATE_SETTLEMENT_FIELDS,
  CreateSettlementDto,
  encodeSettlementCursor,
  encodeSettlementEntriesCursor,
  parseSettlementEntriesQuery,
  parseSettlementListQuery,
  scheduleErrors,
  SET_SETTLEMENT_ACCOUNT_FIELDS,
  SET_SETTLEMENT_SCHEDULE_FIELDS,
  SetSettlementAccountDto,
  SetSettlementScheduleDto,
} from './settlement-requests';
import { settlementToContract } from './settlement-view';
import { SettlementsService } from './settlements.service';

@Controller('api')
export class SettlementsController {
  constructor(private readonly settlements: SettlementsService) {}

  @Get('settlement-account')
  account(@Req() request: FastifyRequest): Promise<SettlementAccountState> {
    return this.settlements.account(merchantOf(request));
  }

  @Put('settlement-account')
  setAccount(@VerifiedBody() body: Record<string, unknown>, @Req() request: FastifyRequest): Promise<SettlementAccountState> {
    const input = validateBody(SetSettlementAccountDto, SET_SETTLEMENT_ACCOUNT_FIELDS, body);
    return this.settlements.setAccount(callerOf(request), input.enquiryId);
  }

  @Post('settlement-account/cancel')
  @HttpCode(200)
  cancelAccountChange(@VerifiedBody() body: Record<string, unknown>, @Req() request: FastifyRequest): Promise<SettlementAccountState> {
    refuseFields(body);
    return this.settlements.cancelAccountChange(callerOf(request));
  }

  @Get('settlement-schedule')
  schedule(@Req() request: FastifyRequest): Promise<SettlementSchedule> {
    return this.settlements.schedule(merchantOf(request));
  }

  @Put('settlement-schedule')
  setSchedule(@VerifiedBody() body: Record<string, unknown>, @Req() request: FastifyRequest): Promise<SettlementSchedule> {
    const minimumText = typeof body.minimumAmount === 'number' ? verifiedFieldText(request, 'minimumAmount') : undefined;
    const input = validateBody(SetSettlementScheduleDto, SET_SETTLEMENT_SCHEDULE_FIELDS, body, [...amountTextErrors(minimumText, 'minimumAmount'), ...scheduleErrors(body)]);
    return this.settlements.setSchedule(callerOf(request), input);
  }

  @Post('settlements')
  async create(@VerifiedBody() body: Record<string, unknown>, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<Settlement> {
    const input = validateBody(CreateSettlementDto, CREATE_SETTLEMENT_FIELDS, body);
    const { created, transfer } = await this.settlements.create(callerOf(request), input);
    void reply.header('Location', ROUTES.settlement(transfer.reference));
    if (created) void reply.status(201);
    else void reply.status(200).header('Idempotent-Replayed', 'true');
    return settlementToContract(transfer);
  }

  @Get('settlements')
  async list(@Query() query: Record<string, unknown>, @Req() request: FastifyRequest): Promise<SettlementList> {
    const listing = parseSettlementListQuery(merchantOf(request), query);
    const rows = await this.settlements.list({ ...listing, limit: listing.limit + 1 });
    return pageOf(rows, listing.limit, settlementToContract, (last) => encodeSettlementCursor(last, listing));
  }

  @Get('settlements/:id')
  async get(@Param('id') id: string, @Req() request: FastifyRequest): Promise<Settlement> {
    return settlementToContract(await this.settlements.get(merchantOf(request), checkedSettlementId(id)));
  }

  @Get('settlements/:id/entries')
  async entries(@Param('id') id: string, @Query() query: Record<string, unknown>, @Req() request: FastifyRequest): Promise<BalanceEntryList> {
    const checked = checkedSettlementId(id);
    const page = parseSettlementEntriesQuery(checked, query);
    const rows = await this.settlements.entries(merchantOf(request), checked, { ...page, limit: page.limit + 1 });
    return pageOf(rows, page.limit, entryToContract, (last) => encodeSettlementEntriesCursor(last.id, checked));
  }
}
