import { Controller, Get, HttpCode, Inject, Param, Post, Query, Req, Res } from '@nestjs/common';
import { SCHEMAS, type DashboardComponents } from '@paysign/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppConfig } from '../config/app-config';
import { AppConfigToken } from '../config/app-config.token';
import { ApiException, validationFailed } from '../errors/api.exception';
import { DASHBOARD_LISTING_NAMES, encodeListingCursor, pageOf, parseListingQuery } from '../http/listing-query';
import { MerchantStore } from '../merchants/merchant-store';
import { memberIdentity } from '../merchants/member-identity';
import { amountOf } from '../money/money';
import { batchReferenceTaken, PayoutBatchesService } from '../payouts/payout-batches.service';
import { PayoutsService } from '../payouts/payouts.service';
import { BatchFileCheck, found, type CheckedRow } from './batch-file-check';
import { actorOf, DashboardAudit } from './dashboard-audit';
import { FieldReader, jsonObject, REFERENCE } from './dashboard-body';
import { DashboardRoute } from './dashboard-route.decorator';
import { sessionOf } from './dashboard-session.guard';
import { PAYOUT_MAKERS, PAYOUT_READERS } from './payouts.controller';
import { dashboardBatch, dashboardPayout } from './payout-views';

type Schemas = DashboardComponents['schemas'];
const SCOPE = 'dashboard-payout-batches';
const TITLE = { max: 100, describe: '1 to 100 characters, such as November payroll' };

/**
 * Payout batches (tag Payout batches) from a CSV file: the dry run the CLI
 * gives, then a batch made only from a file whose every row passes, then
 * its submission with the count and total the member expects. Through the
 * merchant API's services, recorded as the member's (memberIdentity).
 */
@Controller('dashboard/api/payout-batches')
export class DashboardPayoutBatchesController {
  constructor(
    private readonly batches: PayoutBatchesService,
    private readonly payouts: PayoutsService,
    private readonly check: BatchFileCheck,
    private readonly merchantStore: MerchantStore,
    private readonly audit: DashboardAudit,
    @Inject(AppConfigToken) private readonly config: AppConfig,
  ) {}

  @Get()
  @DashboardRoute({ roles: [...PAYOUT_READERS] })
  async list(@Query() query: Record<string, unknown>, @Req() request: FastifyRequest): Promise<Schemas['PayoutBatchPage']> {
    const listing = parseListingQuery(query, SCHEMAS.PayoutBatchStatus.enum, SCOPE, [], DASHBOARD_LISTING_NAMES);
    const rows = await this.batches.list({ merchantId: sessionOf(request).merchantId, ...listing, limit: listing.limit + 1 });
    const page = pageOf(rows, listing.limit, dashboardBatch, (last) => encodeListingCursor(last, listing, SCOPE));
    return { data: page.data, nextCursor: page.nextCursor };
  }

  @Post('dry-run')
  @HttpCode(200)
  @DashboardRoute({ roles: [...PAYOUT_MAKERS] })
  async dryRun(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<Schemas['BatchDryRun']> {
    const fields = new FieldReader(jsonObject(request), ['csv']);
    const csv = fields.string('csv', this.csvRule());
    fields.done();
    return summary(await this.check.check(sessionOf(request), csv, reply));
  }

  @Post()
  @HttpCode(201)
  @DashboardRoute({ roles: [...PAYOUT_MAKERS] })
  async create(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<Schemas['PayoutBatchDetail']> {
    const fields = new FieldReader(jsonObject(request), ['reference', 'title', 'csv']);
    const reference = fields.string('reference', REFERENCE);
    const title = fields.text('title', TITLE);
    const csv = fields.string('csv', this.csvRule());
    fields.done();
    const session = sessionOf(request);
    const { merchantId } = session;
    // A first look saves the enquiries of a file whose reference is taken; the create itself decides a race.
    if (await found(this.batches.find({ merchantId, reference }), 'PAYOUT_BATCH_NOT_FOUND')) throw batchReferenceTaken(reference);
    // Every row is checked again, here and now: a dry run's answer may be stale, and is never trusted from the browser.
    const rows = await this.check.check(session, csv, reply);
    const refused = rows.filter((row) => row.payout === undefined);
    if (refused.length > 0) throw validationFailed(refused.map(({ result }) => ({ field: 'csv', code: 'row', message: `Line ${result.line} (${result.reference || 'no reference'}): ${result.problem}.` })));
    const createdBy = memberIdentity(session.email);
    await this.batches.createAsMember(merchantId, createdBy, { reference, title });
    try {
      for (const { payout } of rows as Array<Required<CheckedRow>>) {
        const { amountMinor, ...rest } = payout;
        await this.payouts.createAsMember(merchantId, createdBy, { ...rest, amount: amountOf({ minor: amountMinor, currency: 'NGN' }), currency: 'NGN', batchReference: reference });
      }
    } catch (error) {
      // A row refused now (the balance, a limit) leaves no batch half made: it is cancelled with the payouts already in it, releasing their holds.
      // Until then it was `building`: nobody could approve a part of it.
      const why = error instanceof ApiException ? error.code : 'an unexpected failure';
      await this.batches.cancelFor(merchantId, reference, { alsoInTransaction: (tx) => this.audit.record(actorOf(session, request.ip), 'batch.cancelled', { subject: reference, detail: { title, why: `a row was refused as it was added: ${why}` } }, tx) });
      throw error;
    }
    const total = rows.reduce((sum, row) => sum + (row.payout?.amountMinor ?? 0n), 0n);
    await this.batches.builtAsMember({ merchantId, reference }, (tx) => this.audit.record(actorOf(session, request.ip), 'batch.created', { subject: reference, detail: { title, count: rows.length, total: Number(total) } }, tx));
    return this.detail(merchantId, reference);
  }

  @Get(':reference')
  @DashboardRoute({ roles: [...PAYOUT_READERS] })
  async get(@Param('reference') reference: string, @Req() request: FastifyRequest): Promise<Schemas['PayoutBatchDetail']> {
    return this.detail(sessionOf(request).merchantId, reference);
  }

  @Post(':reference/submit')
  @HttpCode(200)
  @DashboardRoute({ roles: [...PAYOUT_MAKERS] })
  async submit(@Param('reference') reference: string, @Req() request: FastifyRequest): Promise<Schemas['PayoutBatch']> {
    const fields = new FieldReader(jsonObject(request), ['expectedCount', 'expectedTotal']);
    const count = fields.integer('expectedCount', { min: 1, max: this.config.payouts.batchMaxItems, describe: `how many payouts you expect the batch to hold, from 1 to ${this.config.payouts.batchMaxItems}` });
    const total = fields.integer('expectedTotal', { min: 1, max: Number.MAX_SAFE_INTEGER, describe: 'the total you expect, in kobo, such as 1050050 for NGN 10,500.50' });
    fields.done();
    const session = sessionOf(request);
    await this.find(session.merchantId, reference);
    const submitted = await this.batches.submitForMember(session.merchantId, reference, { count, totalMinor: BigInt(total) }, {
      decidedBy: memberIdentity(session.email),
      ownKeys: await this.merchantStore.identitiesOf(session.merchantId, session.email),
      alsoInTransaction: (tx) => this.audit.record(actorOf(session, request.ip), 'batch.submitted', { subject: reference, detail: { count, total } }, tx),
    });
    return dashboardBatch(submitted);
  }

  private async detail(merchantId: string, reference: string): Promise<Schemas['PayoutBatchDetail']> {
    const batch = await this.find(merchantId, reference);
    // All of them: a batch takes at most PAYOUT_BATCH_MAX_ITEMS waiting payouts, and none leaves it but all together (its cancellation).
    const payouts = await this.payouts.list({ merchantId, batchReference: reference, limit: this.config.payouts.batchMaxItems });
    return { batch: dashboardBatch(batch), payouts: payouts.reverse().map(dashboardPayout) };
  }

  private async find(merchantId: string, reference: string) {
    if (!REFERENCE.pattern.test(reference)) throw new ApiException('DASHBOARD_NOT_FOUND', { what: 'payout batch', id: reference.slice(0, 64) });
    return this.batches.find({ merchantId, reference }).catch((error: unknown) => {
      if (error instanceof ApiException && error.code === 'PAYOUT_BATCH_NOT_FOUND') throw new ApiException('DASHBOARD_NOT_FOUND', { what: 'payout batch', id: reference });
      throw error;
    });
  }

  /** A file's text fits in a body: its bound is the body's (BODY_LIMIT_BYTES); its rows', DASHBOARD_BATCH_MAX_ROWS. */
  private csvRule() {
    return { max: this.config.bodyLimitBytes, describe: `the text of a CSV file with the columns reference, bankCode, accountNumber, amount, narration and optionally expectedAccountName, header first` };
  }
}

/** The rows of a dry run, with their count, total and problems. */
function summary(rows: readonly CheckedRow[]): Schemas['BatchDryRun'] {
  const total = rows.reduce((sum, { result }) => sum + (result.amount ?? 0), 0);
  return { rows: rows.map((row) => row.result), count: rows.length, total, problems: rows.filter((row) => row.result.problem !== null).length };
}
