import { Controller, Get, Inject, Param, Query, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Clock } from '../config/clock';
import { ApiException } from '../errors/api.exception';
import { ReportReader } from '../reports/report-csv';
import { sendReport } from '../reports/report-download';
import { REPORTS } from '../reports/reports';
import { MEMBER_ROLES, type MemberRole } from './dashboard-roles';
import { DashboardRoute } from './dashboard-route.decorator';
import { sessionOf } from './dashboard-session.guard';

/** Who reads each report: the roles of the list it exports (openapi/dashboard-api.yaml); the route admits their union. */
const PAYIN_READERS: readonly MemberRole[] = ['owner', 'admin', 'developer', 'operations', 'viewer'];
const PAYOUT_READERS: readonly MemberRole[] = ['owner', 'admin', 'operations', 'approver', 'viewer'];
const REPORT_READERS: Readonly<Record<string, readonly MemberRole[]>> = { payins: PAYIN_READERS, refunds: PAYIN_READERS, payouts: PAYOUT_READERS, 'balance-entries': MEMBER_ROLES, settlements: MEMBER_ROLES };

/**
 * Exports (tag Exports): the signed API's reports, downloaded with the
 * session, by the same code (reports/report-download.ts): the same query,
 * columns and streaming in keyset batches, never the whole file in memory.
 */
@Controller('dashboard/api/exports')
export class ExportsController {
  constructor(
    private readonly reader: ReportReader,
    @Inject(Clock) private readonly clock: Clock,
  ) {}

  @Get(':report.csv')
  @DashboardRoute({ roles: [...MEMBER_ROLES] })
  async download(@Param('report') name: string, @Query() query: Record<string, unknown>, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
    const report = REPORTS.get(name);
    if (!report) throw new ApiException('DASHBOARD_NOT_FOUND', { what: 'report', id: name });
    const session = sessionOf(request);
    const admitted = REPORT_READERS[report.name] ?? [];
    if (!admitted.includes(session.role)) throw new ApiException('DASHBOARD_ROLE_FORBIDDEN', { role: session.role, roles: admitted.join(', ') });
    return sendReport(this.reader, report, { merchantId: session.merchantId, query, now: new Date(this.clock()) }, reply);
  }
}
