import { Controller, Get, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import type { PayoutBatch, PayoutBatchList } from '@paysign/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { pageOf } from '../http/listing-query';
import { amountTextErrors, checkedReference } from '../http/request-rules';
import { ROUTES } from '../http/routes';
import { VerifiedBody, verifiedFieldText } from '../http/verified-body.decorator';
import { refuseFields, validateBody } from '../http/validate-body';
import { CREATE_PAYOUT_BATCH_FIELDS, CreatePayoutBatchDto, encodePayoutBatchCursor, parsePayoutBatchListQuery, SUBMIT_PAYOUT_BATCH_FIELDS, SubmitPayoutBatchDto } from './payout-requests';
import { payoutBatchToContract } from './payout-view';
import { PayoutBatchesService } from './payout-batches.service';
import { callerOf, merchantOf } from '../http/caller';

@Controller('api/payout-batches')
export class PayoutBatchesController {
  constructor(private readonly batches: PayoutBatchesService) {}

  @Post()
  async create(@VerifiedBody() body: Record<string, unknown>, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<PayoutBatch> {
    const input = validateBody(CreatePayoutBatchDto, CREATE_PAYOUT_BATCH_FIELDS, body);
    const { created, batch } = await this.batches.create(callerOf(request), input);
    void reply.header('Location', ROUTES.payoutBatch(batch.reference));
    if (created) void reply.status(201);
    else void reply.status(200).header('Idempotent-Replayed', 'true');
    return payoutBatchToContract(batch);
  }

  @Get()
  async list(@Query() query: Record<string, unknown>, @Req() request: FastifyRequest): Promise<PayoutBatchList> {
    const listing = parsePayoutBatchListQuery(merchantOf(request), query);
    const rows = await this.batches.list({ ...listing, limit: listing.limit + 1 });
    return pageOf(rows, listing.limit, payoutBatchToContract, (last) => encodePayoutBatchCursor(last, listing));
  }

  @Get(':reference')
  async get(@Param('reference') reference: string, @Req() request: FastifyRequest): Promise<PayoutBatch> {
    return payoutBatchToContract(await this.batches.get(callerOf(request), checkedReference(reference)));
  }

  /** Closes the batch and queues its payouts, if it holds what the body expects. */
  @Post(':reference/submit')
  @HttpCode(200)
  async submit(@Param('reference') reference: string, @VerifiedBody() body: Record<string, unknown>, @Req() request: FastifyRequest): Promise<PayoutBatch> {
    const totalText = typeof body.expectedTotal === 'number' ? verifiedFieldText(request, 'expectedTotal') : undefined;
    const input = validateBody(SubmitPayoutBatchDto, SUBMIT_PAYOUT_BATCH_FIELDS, body, amountTextErrors(totalText, 'expectedTotal'));
    return payoutBatchToContract(await this.batches.submit(callerOf(request), checkedReference(reference), input));
  }

  @Post(':reference/cancel')
  @HttpCode(200)
  async cancel(@Param('reference') reference: string, @VerifiedBody() body: Record<string, unknown>, @Req() request: FastifyRequest): Promise<PayoutBatch> {
    refuseFields(body);
    return payoutBatchToContract(await this.batches.cancel(callerOf(request), checkedReference(reference)));
  }
}
