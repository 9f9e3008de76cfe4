import { Controller, Get, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import type { EventDeliveryLogList, FieldError, Payout, PayoutList } from '@paysign/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { pageOf } from '../http/listing-query';
import { Inject } from '@nestjs/common';
import type { AppConfig } from '../config/app-config';
import { AppConfigToken } from '../config/app-config.token';
import { rateLimited } from '../errors/api.exception';
import { amountTextErrors, checkedReference } from '../http/request-rules';
import { ROUTES } from '../http/routes';
import { VerifiedBody, verifiedFieldText } from '../http/verified-body.decorator';
import { refuseFields, validateBody } from '../http/validate-body';
import { SqlWebhookEventRepository } from '../webhooks/sql-webhook-event.repository';
import { webhookEventToContract } from '../webhooks/webhook-event-view';
import { checkedMerchantUrl } from '../webhooks/webhook-target';
import { PayoutDispatcher } from './payout-dispatcher';
import { CREATE_PAYOUT_FIELDS, CreatePayoutDto, encodePayoutCursor, parsePayoutListQuery, REJECT_PAYOUT_FIELDS, RejectPayoutDto } from './payout-requests';
import { PayoutSendStore } from './payout-send-store';
import { payoutToContract } from './payout-view';
import { PayoutsService } from './payouts.service';
import { callerOf, merchantOf } from '../http/caller';


@Controller('api/payouts')
export class PayoutsController {
  constructor(
    private readonly payouts: PayoutsService,
    private readonly sendStore: PayoutSendStore,
    private readonly dispatcher: PayoutDispatcher,
    private readonly webhookEvents: SqlWebhookEventRepository,
    @Inject(AppConfigToken) private readonly config: AppConfig,
  ) {}

  @Post()
  async create(@VerifiedBody() body: Record<string, unknown>, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<Payout> {
    const amountText = typeof body.amount === 'number' ? verifiedFieldText(request, 'amount') : undefined;
    const notifyUrl = this.notifyUrl(body.notifyUrl);
    const input = validateBody(CreatePayoutDto, CREATE_PAYOUT_FIELDS, body, [...amountTextErrors(amountText), ...notifyUrl.errors]);
    if (notifyUrl.url !== undefined) input.notifyUrl = notifyUrl.url;
    const { created, payout } = await this.payouts.create(callerOf(request), input);
    void reply.header('Location', ROUTES.payout(payout.reference));
    if (created) void reply.status(201);
    else void reply.status(200).header('Idempotent-Replayed', 'true');
    return payout;
  }

  @Get()
  async list(@Query() query: Record<string, unknown>, @Req() request: FastifyRequest): Promise<PayoutList> {
    const listing = parsePayoutListQuery(merchantOf(request), query);
    const rows = await this.payouts.list({ ...listing, limit: listing.limit + 1 });
    return pageOf(rows, listing.limit, payoutToContract, (last) => encodePayoutCursor(last, listing));
  }

  @Get(':reference')
  async get(@Param('reference') reference: string, @Req() request: FastifyRequest): Promise<Payout> {
    return payoutToContract(await this.payouts.get({ merchantId: merchantOf(request), reference: checkedReference(reference) }));
  }

  @Post(':reference/cancel')
  @HttpCode(200)
  async cancel(@Param('reference') reference: string, @VerifiedBody() body: Record<string, unknown>, @Req() request: FastifyRequest): Promise<Payout> {
    refuseFields(body);
    return payoutToContract(await this.payouts.cancel(callerOf(request), checkedReference(reference)));
  }

  /** Four eyes: signed by a key with payouts:approve that did not create the payout. */
  @Post(':reference/approve')
  @HttpCode(200)
  async approve(@Param('reference') reference: string, @VerifiedBody() body: Record<string, unknown>, @Req() request: FastifyRequest): Promise<Payout> {
    refuseFields(body);
    return payoutToContract(await this.payouts.approve(callerOf(request), checkedReference(reference)));
  }

  @Post(':reference/reject')
  @HttpCode(200)
  async reject(@Param('reference') reference: string, @VerifiedBody() body: Record<string, unknown>, @Req() request: FastifyRequest): Promise<Payout> {
    const input = validateBody(RejectPayoutDto, REJECT_PAYOUT_FIELDS, body);
    return payoutToContract(await this.payouts.reject(callerOf(request), checkedReference(reference), input.reason ?? null));
  }

  /** A status check now, at most once per PAYOUT_REQUERY_INTERVAL_SECONDS per payout. */
  @Post(':reference/requery')
  @HttpCode(200)
  async requery(@Param('reference') reference: string, @VerifiedBody() body: Record<string, unknown>, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<Payout> {
    refuseFields(body);
    const key = { merchantId: merchantOf(request), reference: checkedReference(reference) };
    const payout = await this.payouts.get(key);
    const intervalMs = this.config.payouts.requeryIntervalSeconds * 1000;
    const marked = await this.sendStore.markRequery(key, intervalMs);
    if (!marked.allowed) throw rateLimited(reply, { source: 'API key', limit: 1, periodMs: intervalMs, retryAfterSeconds: marked.retryAfterMs / 1000 });
    await this.dispatcher.checkNow(payout);
    return payoutToContract(await this.payouts.get(key));
  }

  /** Every event of the payout with every delivery attempt. */
  @Get(':reference/events')
  async events(@Param('reference') reference: string, @Req() request: FastifyRequest): Promise<EventDeliveryLogList> {
    // Reading the payout first answers 404 for another merchant's.
    const payout = await this.payouts.get({ merchantId: merchantOf(request), reference: checkedReference(reference) });
    const events = await this.webhookEvents.listOfObject(payout.merchantId, 'payout', payout.reference);
    return { data: events.map(webhookEventToContract) };
  }

  /** The notifyUrl checked as a payin's is. */
  private notifyUrl(raw: unknown): { url?: string; errors: FieldError[] } {
    if (typeof raw !== 'string') return { errors: [] };
    const result = checkedMerchantUrl('notifyUrl', raw, { production: this.config.mode === 'production', allowLocalReceivers: this.config.webhooks.allowLocalReceivers });
    return 'error' in result ? { errors: [result.error] } : { url: result.url, errors: [] };
  }
}


