import { Controller, Get, Inject, Param, Query, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Clock } from '../config/clock';
import { ApiException } from '../errors/api.exception';
import { ReportReader } from './report-csv';
import { sendReport } from './report-download';
import { REPORTS } from './reports';

/**
 * `GET /payment/api/reports/{name}.csv`: a merchant's report, streamed as
 * CSV from the database (docs/reports.md). Signed like every /payment/api
 * route, the query string included. Bad input and a database that fails
 * before the first byte are JSON errors; a failure after it cuts the transfer.
 */
@Controller('api/reports')
export class ReportsController {
  constructor(
    private readonly reader: ReportReader,
    @Inject(Clock) private readonly clock: Clock,
  ) {}

  @Get(':file')
  async download(@Param('file') file: string, @Query() query: Record<string, unknown>, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
    const report = file.endsWith('.csv') ? REPORTS.get(file.slice(0, -'.csv'.length)) : undefined;
    if (!report) throw new ApiException('ROUTE_NOT_FOUND', {});
    const merchant = request.merchant as NonNullable<FastifyRequest['merchant']>;
    return sendReport(this.reader, report, { merchantId: merchant.merchantId, query, now: new Date(this.clock()) }, reply);
  }
}
