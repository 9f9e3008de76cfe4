import { Controller, Get, HttpCode, Inject, Param, Post, Query, Req, Res } from '@nestjs/common';
import type { FieldError, Payin, PayinList, EventDeliveryLogList } from '@paysign/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { pageOf } from '../http/listing-query';
import type { AppConfig } from '../config/app-config';
import { AppConfigToken } from '../config/app-config.token';
import { ApiException } from '../errors/api.exception';
import { VerifiedBody, verifiedFieldText } from '../http/verified-body.decorator';
import { ROUTES } from '../http/routes';
import { refuseFields, validateBody } from '../http/validate-body';
import { amountTextErrors, checkedReference } from '../http/request-rules';
import { CREATE_PAYIN_FIELDS, CreatePayinDto } from './create-payin.dto';
import { encodeCursor, parseListQuery } from './list-payins.query';
import type { MerchantUrlField } from '../http/merchant-url';
import { PayinsService } from './payins.service';
import { SqlWebhookEventRepository } from '../webhooks/sql-webhook-event.repository';
import { webhookEventToContract } from '../webhooks/webhook-event-view';
import { checkedMerchantUrl } from '../webhooks/webhook-target';

@Controller('api/payins')
export class PayinsController {
  constructor(
    private readonly payins: PayinsService,
    private readonly webhookEvents: SqlWebhookEventRepository,
    @Inject(AppConfigToken) private readonly config: AppConfig,
  ) {}

  @Post()
  async create(@VerifiedBody() body: Record<string, unknown>, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<Payin> {
    const amountText = typeof body.amount === 'number' ? verifiedFieldText(request, 'amount') : undefined;
    const urls = this.merchantUrls(body);
    const input = validateBody(CreatePayinDto, CREATE_PAYIN_FIELDS, body, [...amountTextErrors(amountText), ...urls.errors]);
    // Stored, echoed and redirected to as normalised: the customer's browser gets the URL the merchant reads back.
    Object.assign(input, urls.normalised);
    const merchant = request.merchant as NonNullable<FastifyRequest['merchant']>;
    const { created, payin } = await this.payins.create(merchant.merchantId, input);
    void reply.header('Location', ROUTES.payin(payin.reference));
    if (created) {
      void reply.status(201);
    } else {
      void reply.status(200).header('Idempotent-Replayed', 'true');
    }
    return payin;
  }

  @Get()
  async list(@Query() query: Record<string, unknown>, @Req() request: FastifyRequest): Promise<PayinList> {
    const merchant = request.merchant as NonNullable<FastifyRequest['merchant']>;
    const listing = parseListQuery(merchant.merchantId, query);
    const rows = await this.payins.list({ ...listing, limit: listing.limit + 1 });
    return pageOf(rows, listing.limit, (payin) => this.payins.toContract(payin), (last) => encodeCursor(last, listing));
  }

  @Get(':reference')
  async get(@Param('reference') reference: string, @Req() request: FastifyRequest): Promise<Payin> {
    const merchant = request.merchant as NonNullable<FastifyRequest['merchant']>;
    return this.payins.get({ merchantId: merchant.merchantId, reference: checkedReference(reference) });
  }

  /** The merchant's own cancellation of a payin not yet paid: CANCELLED with merchant_cancelled, once; a payin already final is left as it is. */
  @Post(':reference/cancel')
  @HttpCode(200)
  async cancel(@Param('reference') reference: string, @VerifiedBody() body: Record<string, unknown>, @Req() request: FastifyRequest): Promise<Payin> {
    refuseFields(body);
    const merchant = request.merchant as NonNullable<FastifyRequest['merchant']>;
    const key = { merchantId: merchant.merchantId, reference: checkedReference(reference) };
    await this.payins.find(key);
    const result = await this.payins.transition(key, { to: 'CANCELLED', by: 'merchant' });
    if (!result.moved) throw new ApiException('PAYIN_NOT_PENDING', { reference, status: result.payin.status });
    return this.payins.toContract(result.payin);
  }

  /** Every event of the payin with every delivery attempt, for a merchant debugging its receiver. */
  @Get(':reference/events')
  async events(@Param('reference') reference: string, @Req() request: FastifyRequest): Promise<EventDeliveryLogList> {
    const merchant = request.merchant as NonNullable<FastifyRequest['merchant']>;
    // Reading the payin first answers 404 for another merchant's.
    const payin = await this.payins.find({ merchantId: merchant.merchantId, reference: checkedReference(reference) });
    const events = await this.webhookEvents.listOfObject(payin.merchantId, 'payin', payin.reference);
    return { data: events.map(webhookEventToContract) };
  }

  /**
   * The merchant's URLs, normalised (see normaliseMerchantUrl), and those that
   * could never be used: http in production, and a notifyUrl webhooks are
   * never sent to (a private or loopback literal address), refused now rather
   * than failing every attempt. The mode's rules read the normalised form.
   */
  private merchantUrls(body: Record<string, unknown>): { normalised: Partial<Record<MerchantUrlField, string>>; errors: FieldError[] } {
    const normalised: Partial<Record<MerchantUrlField, string>> = {};
    const errors: FieldError[] = [];
    const options = { production: this.config.mode === 'production', allowLocalReceivers: this.config.webhooks.allowLocalReceivers };
    for (const field of ['notifyUrl', 'redirectUrl'] as const) {
      const raw = body[field];
      if (typeof raw !== 'string') continue;
      const result = checkedMerchantUrl(field, raw, options);
      if ('error' in result) errors.push(result.error);
      else normalised[field] = result.url;
    }
    return { normalised, errors };
  }
}
