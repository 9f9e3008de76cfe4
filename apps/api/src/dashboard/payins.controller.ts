import { randomBytes } from 'node:crypto';
import { Controller, Get, Param, Post, Query, Req, Res } from '@nestjs/common';
import { DASHBOARD_SCHEMAS, type DashboardComponents, type RefundReason } from '@paysign/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { checkedReference, REFERENCE_PATTERN } from '../http/request-rules';
import { pageOf } from '../http/listing-query';
import { PayinsService } from '../payins/payins.service';
import type { CreateRefundDto } from '../refunds/refund-requests';
import { RefundsService } from '../refunds/refunds.service';
import { SqlWebhookEventRepository } from '../webhooks/sql-webhook-event.repository';
import { actorOf, DashboardAudit } from './dashboard-audit';
import { FieldReader, jsonObject } from './dashboard-body';
import { DashboardRoute } from './dashboard-route.decorator';
import { sessionOf } from './dashboard-session.guard';
import { encodeSearchCursor, parsePayinSearch } from './payin-search';
import { payinDetailOf, payinSummaryOf, refundOf } from './payin-views';

type Schemas = DashboardComponents['schemas'];

/** Every refund of one payin fits one read: each takes at least a kobo, and a payin is refunded a few times at most. */
const REFUNDS_OF_A_PAYIN = 100;
const REFUND_FIELDS = DASHBOARD_SCHEMAS.DashboardRefundRequest.properties;
const READERS = ['owner', 'admin', 'developer', 'operations', 'viewer'] as const;

/**
 * Payins (tag Payins): the merchant's payins searched and paged, a payin's
 * page, and a refund made from it. Everything goes through the services the
 * signed API uses, with the session's merchant: the listing's SQL and the
 * refund's rules are theirs.
 */
@Controller('dashboard/api/payins')
export class DashboardPayinsController {
  constructor(
    private readonly payins: PayinsService,
    private readonly refunds: RefundsService,
    private readonly webhookEvents: SqlWebhookEventRepository,
    private readonly audit: DashboardAudit,
  ) {}

  @Get()
  @DashboardRoute({ roles: READERS })
  async list(@Query() query: Record<string, unknown>, @Req() request: FastifyRequest): Promise<Schemas['PayinPage']> {
    const search = parsePayinSearch(sessionOf(request).merchantId, query);
    const rows = await this.payins.list({ ...search, limit: search.limit + 1 });
    const page = pageOf(rows, search.limit, payinSummaryOf, (last) => encodeSearchCursor(last, query));
    return { data: page.data, nextCursor: page.nextCursor };
  }

  @Get(':reference')
  @DashboardRoute({ roles: READERS })
  async get(@Param('reference') reference: string, @Req() request: FastifyRequest): Promise<Schemas['PayinDetail']> {
    const { merchantId } = sessionOf(request);
    // Read first: another merchant's payin is 404, as on the signed API.
    const payin = await this.payins.find({ merchantId, reference: checkedReference(reference) });
    const [events, refunds] = await Promise.all([
      this.webhookEvents.listOfObject(merchantId, 'payin', payin.reference),
      this.refunds.list({ merchantId, payinReference: payin.reference, limit: REFUNDS_OF_A_PAYIN }),
    ]);
    return payinDetailOf(payin, events, refunds);
  }

  @Post(':reference/refunds')
  @DashboardRoute({ roles: ['owner', 'admin', 'operations'], freshFactor: true })
  async refund(@Param('reference') reference: string, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<Schemas['DashboardRefund']> {
    const payinReference = checkedReference(reference);
    const fields = new FieldReader(jsonObject(request), Object.keys(REFUND_FIELDS));
    const amount = fields.integer('amount', { min: REFUND_FIELDS.amount.minimum, max: REFUND_FIELDS.amount.maximum, describe: `a whole number of kobo from ${REFUND_FIELDS.amount.minimum} to ${REFUND_FIELDS.amount.maximum}, or left out to refund everything left`, optional: true });
    const reason = fields.oneOf('reason', DASHBOARD_SCHEMAS.RefundReason.enum as readonly RefundReason[]);
    const own = fields.string('reference', { pattern: REFERENCE_PATTERN, max: 64, describe: '1 to 64 of A-Z a-z 0-9 . _ -, or left out for one made for you', optional: true });
    fields.done();
    const session = sessionOf(request);
    // Kobo to the naira the refunds service takes: exact, since the amount is at most 10^11 kobo.
    const input: CreateRefundDto = { reference: own || `rf_${randomBytes(12).toString('base64url')}`, payinReference, reason, ...(amount === undefined ? {} : { amount: amount / 100 }) };
    const { created, refund } = await this.refunds.createAsMember(session.merchantId, input, {
      createdBy: `dashboard:${session.email}`,
      alsoInTransaction: (tx, made) =>
        this.audit.record(actorOf(session, request.ip), 'refund.created', { subject: made.reference, detail: { payinReference, amount: Number(made.amountMinor), currency: made.currency, reason } }, tx),
    });
    void reply.status(created ? 201 : 200);
    return refundOf(refund);
  }
}
