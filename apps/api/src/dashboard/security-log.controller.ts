import { Controller, Get, Query, Req, Res } from '@nestjs/common';
import type { DashboardComponents } from '@paysign/contracts';
import { stringify } from 'csv-stringify';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { toDate } from '../db/sql-client';
import { MerchantStore } from '../merchants/merchant-store';
import { FieldReader } from './dashboard-body';
import { DashboardRoute } from './dashboard-route.decorator';
import { sessionOf } from './dashboard-session.guard';

type Entry = DashboardComponents['schemas']['SecurityLogEntry'];
type AuditRow = { id: string | number; at: Date | string; actor: string; channel: string; action: string; subject: string | null; address: string | null; detail: unknown };

const PAGE = 50;
/** Rows one statement of the CSV reads: the file is streamed in keyset batches. */
const CSV_BATCH = 1000;
const CSV_COLUMNS = ['id', 'at', 'actor', 'channel', 'action', 'subject', 'address', 'detail'] as const;

/**
 * The security log (tag Security log): every dashboard action and every
 * operator command on this merchant, from the append-only audit trail.
 */
@Controller('dashboard/api')
export class SecurityLogController {
  constructor(private readonly merchantStore: MerchantStore) {}

  @Get('security-log')
  @DashboardRoute({ roles: ['owner', 'admin'] })
  async page(@Query() query: Record<string, unknown>, @Req() request: FastifyRequest): Promise<DashboardComponents['schemas']['SecurityLogPage']> {
    const fields = new FieldReader(query, ['before']);
    const before = query.before === undefined ? undefined : fields.string('before', { max: 18, pattern: /^[1-9][0-9]{0,17}$/, describe: 'the id of the last entry of the page before' });
    fields.done();
    const params: unknown[] = [sessionOf(request).merchantId, PAGE + 1];
    const { rows } = await this.merchantStore.client.query<AuditRow>(
      `SELECT id, at, actor, channel, action, subject, address, detail FROM merchant_audit WHERE merchant_id = $1${before ? ` AND id < $${params.push(before)}` : ''} ORDER BY id DESC LIMIT $2`,
      params,
    );
    return { data: rows.slice(0, PAGE).map(entryOf), hasMore: rows.length > PAGE };
  }

  /** The whole log, oldest first, streamed: each batch is read once the client has taken the one before. */
  @Get('security-log.csv')
  @DashboardRoute({ roles: ['owner', 'admin'] })
  async csv(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const { merchantId } = sessionOf(request);
    // Spreadsheets run a cell that starts with = + - @ as a formula; such text is written with a ' first (OWASP CSV injection).
    const csv = stringify({ header: true, columns: [...CSV_COLUMNS], record_delimiter: '\r\n', cast: { string: (value) => (/^[=+\-@\t\r]/.test(value) ? `'${value}` : value) } });
    void reply.headers({ 'content-type': 'text/csv; charset=utf-8', 'content-disposition': 'attachment; filename="security-log.csv"', 'cache-control': 'no-store' }).send(csv);
    let after = '0';
    for (;;) {
      const { rows } = await this.merchantStore.client.query<AuditRow>('SELECT id, at, actor, channel, action, subject, address, detail FROM merchant_audit WHERE merchant_id = $1 AND id > $2 ORDER BY id LIMIT $3', [merchantId, after, CSV_BATCH]);
      for (const row of rows) {
        const entry = entryOf(row);
        if (!csv.write({ ...entry, id: String(entry.id), detail: JSON.stringify(entry.detail) })) await new Promise((resolve) => csv.once('drain', resolve));
      }
      if (rows.length < CSV_BATCH) break;
      after = String(rows[rows.length - 1]?.id);
    }
    csv.end();
  }
}

function entryOf(row: AuditRow): Entry {
  return {
    id: Number(row.id),
    at: toDate(row.at).toISOString(),
    actor: row.actor,
    channel: row.channel,
    action: row.action,
    subject: row.subject,
    address: row.address,
    detail: (typeof row.detail === 'string' ? JSON.parse(row.detail) : row.detail) as Entry['detail'],
  };
}
