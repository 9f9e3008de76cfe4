import { Readable } from 'node:stream';
import { stringify } from 'csv-stringify/sync';
import type { SqlQueryable } from '../db/sql-client';
import { cellText } from './csv-cells';
import { batchStatement, type AnyReport, type ReportDefinition, type ReportPosition, type ReportRequest } from '../db/report-definition';
import { encodeReportCursor } from './report-query';

/** The last column of every report: the row's position, which `after` takes to continue after it. */
export const CURSOR_COLUMN = 'cursor';

/**
 * How long a download waits for its first batch before it sends the header
 * row alone: a filter that matches few rows of a long window can make the
 * first batch slow, and the first byte must still leave at once. A first
 * batch that fails within it is answered as a JSON error instead.
 */
export const FIRST_BATCH_WAIT_MS = 250;

/** RFC 4180: CRLF after every record, a field quoted only when it holds a comma, a quote or a line break. */
const CSV_OPTIONS = { record_delimiter: 'windows', quoted_empty: false } as const;

/** The header row of a report, as every download of it starts. */
export function headerOf(report: AnyReport): string[] {
  return [...report.columns.map((column) => column.header), CURSOR_COLUMN];
}

/** One batch of rows as CSV records, each ending with its cursor cell. */
export function csvRecords<Row>(report: ReportDefinition<Row, unknown>, rows: readonly Row[]): string {
  if (rows.length === 0) return '';
  return stringify(
    rows.map((row) => [...report.columns.map((column) => cellText(column.kind, column.value(row))), encodeReportCursor(report.positionOf(row))]),
    CSV_OPTIONS,
  );
}

/** Reads a report's batches from the database, each one statement. */
export class ReportReader {
  constructor(
    private readonly client: SqlQueryable,
    private readonly batchRows: number,
    /** Watches each batch as the payin store's `report` operation; default: unwatched. */
    private readonly observed: <T>(operation: string, work: () => Promise<T>) => Promise<T> = (_operation, work) => work(),
  ) {}

  async batch<Row, Raw>(report: ReportDefinition<Row, Raw>, request: ReportRequest, after: ReportPosition | undefined): Promise<Row[]> {
    const { sql, params } = batchStatement(report, request, after, this.batchRows);
    const { rows } = await this.observed('report', () => this.client.query<Raw>(sql, params));
    return rows.map((raw) => report.rowOf(raw, request.now));
  }

  /**
   * The download as a byte stream, once its first batch has been read or
   * FIRST_BATCH_WAIT_MS has passed; a first batch that fails before then
   * rejects, so that the caller answers with a JSON error. After that a
   * failure destroys the stream, and the HTTP response is cut, not ended:
   * the client sees a transfer that did not complete, never a short file
   * that looks whole. Each batch is read only when the previous one has
   * been taken by the response (the stream's backpressure), so memory holds
   * about one batch whatever the window and however slow the reader.
   */
  async open<Row>(report: ReportDefinition<Row, unknown>, request: ReportRequest, wait: (ms: number) => Promise<void> = delay): Promise<Readable> {
    const first = this.batch(report, request, request.after);
    // Read below, when the wait wins; until then a failure must not be an unhandled rejection.
    first.catch(() => undefined);
    const early = await Promise.race([first, wait(FIRST_BATCH_WAIT_MS).then(() => undefined)]);
    const header = stringify([headerOf(report)], CSV_OPTIONS);
    const batchRows = this.batchRows;
    const next = (after: ReportPosition) => this.batch(report, request, after);
    async function* chunks(): AsyncGenerator<string> {
      // The header leaves with the first rows, or alone at once when they are slow to come.
      let rows: Row[];
      let out = header;
      if (early === undefined) {
        yield header;
        out = '';
        rows = await first;
      } else rows = early;
      for (;;) {
        const records = csvRecords(report, rows);
        if (out + records !== '') yield out + records;
        out = '';
        if (rows.length < batchRows) return;
        rows = await next(report.positionOf(rows[rows.length - 1] as Row));
      }
    }
    return Readable.from(chunks(), { objectMode: false, highWaterMark: 64 * 1024 });
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
