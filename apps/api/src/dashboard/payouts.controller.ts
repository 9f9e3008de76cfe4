import { Controller, Get, Param, Post, Query, Req, Res } from '@nestjs/common';
import type { DashboardComponents } from '@paysign/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiException } from '../errors/api.exception';
import { DASHBOARD_LISTING_NAMES, encodeListingCursor, pageOf, parseListingQuery } from '../http/listing-query';
import { memberIdentity } from '../merchants/member-identity';
import { amountOf } from '../money/money';
import { PAYOUT_STATUSES } from '../payouts/payout-states';
import { PayoutsService } from '../payouts/payouts.service';
import { actorOf, DashboardAudit, maskedAccountNumber } from './dashboard-audit';
import { FieldReader, jsonObject, REFERENCE } from './dashboard-body';
import { DashboardRoute } from './dashboard-route.decorator';
import { sessionOf } from './dashboard-session.guard';
import { dashboardPayout, payoutEvents } from './payout-views';

type Schemas = DashboardComponents['schemas'];

/** Who reads payouts: everyone but a developer, whose part is keys and endpoints. */
export const PAYOUT_READERS = ['owner', 'admin', 'operations', 'approver', 'viewer'] as const;
/** Who makes payouts and batches. */
export const PAYOUT_MAKERS = ['owner', 'admin', 'operations'] as const;
/** The merchant API's largest payout amount, in kobo (its `amount` maximum is 1,000,000,000 naira). */
const MAX_AMOUNT_KOBO = 100_000_000_000;
const ENQUIRY_ID = { pattern: /^enq_[A-Za-z0-9_-]{22}$/, max: 26, describe: 'the enquiryId of an account enquiry (POST /account-enquiries), such as enq_3q2w7RkY8x0cQm5nVbLz1s' };
const NARRATION = { max: 100, describe: '1 to 100 characters, not only spaces, as NIP allows' };

/** The dashboard's own scope for its cursors: a cursor of the merchant API's listing is not one of its. */
const SCOPE = 'dashboard-payouts';

/**
 * Payouts (tag Payouts) through the merchant API's PayoutsService, so that a
 * payout made here is held, limited and approved exactly as one made with a
 * key; it is recorded as the member's (memberIdentity), for four eyes.
 */
@Controller('dashboard/api/payouts')
export class DashboardPayoutsController {
  constructor(
    private readonly payouts: PayoutsService,
    private readonly audit: DashboardAudit,
  ) {}

  @Get()
  @DashboardRoute({ roles: [...PAYOUT_READERS] })
  async list(@Query() query: Record<string, unknown>, @Req() request: FastifyRequest): Promise<Schemas['PayoutPage']> {
    const { merchantId } = sessionOf(request);
    const listing = parseListingQuery(query, PAYOUT_STATUSES, SCOPE, ['q'], DASHBOARD_LISTING_NAMES);
    const { references, ...filters } = listing;
    const rows = await this.payouts.list({ merchantId, ...filters, ...(references?.q ? { referencePrefix: references.q } : {}), limit: listing.limit + 1 });
    const page = pageOf(rows, listing.limit, dashboardPayout, (last) => encodeListingCursor(last, listing, SCOPE));
    return { data: page.data, nextCursor: page.nextCursor };
  }

  @Get(':reference')
  @DashboardRoute({ roles: [...PAYOUT_READERS] })
  async get(@Param('reference') reference: string, @Req() request: FastifyRequest): Promise<Schemas['PayoutDetail']> {
    const payout = await findPayout(this.payouts, sessionOf(request).merchantId, reference);
    return { payout: dashboardPayout(payout), events: payoutEvents(payout) };
  }

  @Post()
  @DashboardRoute({ roles: [...PAYOUT_MAKERS] })
  async create(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<Schemas['Payout']> {
    const fields = new FieldReader(jsonObject(request), ['reference', 'amount', 'currency', 'enquiryId', 'narration']);
    const reference = fields.string('reference', REFERENCE);
    const amount = fields.integer('amount', { min: 1, max: MAX_AMOUNT_KOBO, describe: `an amount in kobo, a whole number from 1 to ${MAX_AMOUNT_KOBO}, such as 500000 for NGN 5,000.00` });
    const currency = fields.oneOf('currency', ['NGN'] as const);
    const enquiryId = fields.string('enquiryId', ENQUIRY_ID);
    const narration = fields.text('narration', NARRATION);
    fields.done();
    const session = sessionOf(request);
    const input = { reference, amount: amountOf({ minor: BigInt(amount), currency }), currency, enquiryId, narration };
    // The log line commits with the payout, its hold and its event, or not at all.
    const { created } = await this.payouts.createAsMember(session.merchantId, memberIdentity(session.email), input, (tx, payout) =>
      this.audit.record(actorOf(session, request.ip), 'payout.created', { subject: reference, detail: { amount, currency, bankCode: payout.bankCode, accountNumber: maskedAccountNumber(payout.accountNumber), accountName: payout.accountName, status: payout.status } }, tx),
    );
    void reply.status(created ? 201 : 200);
    return dashboardPayout(await this.payouts.get({ merchantId: session.merchantId, reference }));
  }
}

/** The merchant's payout `reference`, or DASHBOARD_NOT_FOUND. */
export async function findPayout(payouts: PayoutsService, merchantId: string, reference: string) {
  if (!REFERENCE.pattern.test(reference)) throw new ApiException('DASHBOARD_NOT_FOUND', { what: 'payout', id: reference.slice(0, 64) });
  return payouts.get({ merchantId, reference }).catch((error: unknown) => {
    if (error instanceof ApiException && error.code === 'PAYOUT_NOT_FOUND') throw new ApiException('DASHBOARD_NOT_FOUND', { what: 'payout', id: reference });
    throw error;
  });
}
