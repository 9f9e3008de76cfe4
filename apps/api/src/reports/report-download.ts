import type { FastifyReply } from 'fastify';
import type { AnyReport } from '../db/report-definition';
import type { ReportReader } from './report-csv';
import { parseReportQuery } from './report-query';

/** What one download of a report is for: the merchant, the query string as sent, and the instant it was asked. */
export interface ReportDownload {
  merchantId: string;
  query: Record<string, unknown>;
  now: Date;
}

/**
 * Answers a download of `report` as a streamed CSV file: the query read
 * strictly, the first batch read (a failure before the first byte is a JSON
 * error, thrown), then the rows as the client takes them. The signed API's
 * reports and the dashboard's exports both answer through it.
 */
export async function sendReport(reader: ReportReader, report: AnyReport, download: ReportDownload, reply: FastifyReply): Promise<FastifyReply> {
  const asked = parseReportQuery(report, download.merchantId, download.query, download.now);
  const stream = await reader.open(report, asked);
  const name = `${report.name}-${compact(asked.from)}-${compact(asked.to)}.csv`;
  return reply
    .headers({ 'content-type': 'text/csv; charset=utf-8', 'content-disposition': `attachment; filename="${name}"`, 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' })
    .send(stream);
}

/** An instant as a file name can hold it on every system: 20261101T000000Z. */
function compact(instant: Date): string {
  return instant.toISOString().replace(/\.[0-9]{3}Z$/, 'Z').replace(/[-:]/g, '');
}
