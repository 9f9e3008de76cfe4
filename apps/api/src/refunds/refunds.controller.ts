import { Controller, Get, HttpCode, Inject, Param, Post, Query, Req, Res } from '@nestjs/common';
import type { EventDeliveryLogList, FieldError, Refund, RefundList } from '@paysign/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppConfig } from '../config/app-config';
import { AppConfigToken } from '../config/app-config.token';
import { callerOf, merchantOf } from '../http/caller';
import { pageOf } from '../http/listing-query';
import { amountTextErrors, checkedReference } from '../http/request-rules';
import { ROUTES } from '../http/routes';
import { refuseFields, validateBody } from '../http/validate-body';
import { VerifiedBody, verifiedFieldText } from '../http/verified-body.decorator';
import { SqlWebhookEventRepository } from '../webhooks/sql-webhook-event.repository';
import { webhookEventToContract } from '../webhooks/webhook-event-view';
import { checkedMerchantUrl } from '../webhooks/webhook-target';
import { CREATE_REFUND_FIELDS, CreateRefundDto, encodeRefundCursor, parseRefundListQuery, SET_REFUND_ACCOUNT_FIELDS, SetRefundAccountDto } from './refund-requests';
import { refundToContract } from './refund-view';
import { RefundsService } from './refunds.service';

@Controller('api/refunds')
export class RefundsController {
  constructor(
    private readonly refunds: RefundsService,
    private readonly webhookEvents: SqlWebhookEventRepository,
    @Inject(AppConfigToken) private readonly config: AppConfig,
  ) {}

  @Post()
  async create(@VerifiedBody() body: Record<string, unknown>, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<Refund> {
    const amountText = typeof body.amount === 'number' ? verifiedFieldText(request, 'amount') : undefined;
    const notifyUrl = this.notifyUrl(body.notifyUrl);
    const input = validateBody(CreateRefundDto, CREATE_REFUND_FIELDS, body, [...amountTextErrors(amountText), ...notifyUrl.errors]);
    if (notifyUrl.url !== undefined) input.notifyUrl = notifyUrl.url;
    const { created, refund } = await this.refunds.create(callerOf(request), input);
    void reply.header('Location', ROUTES.refund(refund.reference));
    if (created) void reply.status(201);
    else void reply.status(200).header('Idempotent-Replayed', 'true');
    return refund;
  }

  @Get()
  async list(@Query() query: Record<string, unknown>, @Req() request: FastifyRequest): Promise<RefundList> {
    const listing = parseRefundListQuery(merchantOf(request), query);
    const rows = await this.refunds.list({ ...listing, limit: listing.limit + 1 });
    return pageOf(rows, listing.limit, refundToContract, (last) => encodeRefundCursor(last, listing));
  }

  @Get(':reference')
  async get(@Param('reference') reference: string, @Req() request: FastifyRequest): Promise<Refund> {
    return refundToContract(await this.refunds.get({ merchantId: merchantOf(request), reference: checkedReference(reference) }));
  }

  @Post(':reference/cancel')
  @HttpCode(200)
  async cancel(@Param('reference') reference: string, @VerifiedBody() body: Record<string, unknown>, @Req() request: FastifyRequest): Promise<Refund> {
    refuseFields(body);
    return refundToContract(await this.refunds.cancel(callerOf(request), checkedReference(reference)));
  }

  /** The customer's bank account for a refund in REQUIRES_ACTION, as an enquiry of the merchant. */
  @Post(':reference/account')
  @HttpCode(200)
  async account(@Param('reference') reference: string, @VerifiedBody() body: Record<string, unknown>, @Req() request: FastifyRequest): Promise<Refund> {
    const checked = checkedReference(reference);
    const input = validateBody(SetRefundAccountDto, SET_REFUND_ACCOUNT_FIELDS, body);
    return refundToContract(await this.refunds.setAccount(callerOf(request), checked, input.enquiryId));
  }

  /** Every event of the refund with every delivery attempt. */
  @Get(':reference/events')
  async events(@Param('reference') reference: string, @Req() request: FastifyRequest): Promise<EventDeliveryLogList> {
    // Reading the refund first answers 404 for another merchant's.
    const refund = await this.refunds.get({ merchantId: merchantOf(request), reference: checkedReference(reference) });
    const events = await this.webhookEvents.listOfObject(refund.merchantId, 'refund', refund.reference);
    return { data: events.map(webhookEventToContract) };
  }

  /** The notifyUrl checked as a payin's is. */
  private notifyUrl(raw: unknown): { url?: string; errors: FieldError[] } {
    if (typeof raw !== 'string') return { errors: [] };
    const result = checkedMerchantUrl('notifyUrl', raw, { production: this.config.mode === 'production', allowLocalReceivers: this.config.webhooks.allowLocalReceivers });
    return 'error' in result ? { errors: [result.error] } : { url: result.url, errors: [] };
  }
}
