import { SCHEMAS } from '@paysign/contracts';
import { toDate } from './sql-client';

/**
 * What a column's cells are, which says how they are written (reports/csv-cells.ts
 * and docs/reports.md): `text` a merchant's or customer's words, `code` one
 * of our closed sets of values, `amount` minor units, `time` an instant.
 */
export type CellKind = 'text' | 'code' | 'amount' | 'time';

/** A value of a cell, before it is written: text for `text` and `code`, minor units for `amount`, an instant for `time`. */
export type CellValue = string | bigint | Date | null;

/** One column of a report: its header, the kind of its cells, and its value in a row. */
export interface ReportColumn<Row> {
  header: string;
  kind: CellKind;
  value(row: Row): CellValue;
}

/** A filter of a report: a query parameter, the values it takes, and the SQL condition of one. */
export interface ReportFilter {
  parameter: string;
  /** The values it takes; a filter without them takes a reference. */
  values?: readonly string[];
  /** The condition for `value`, its parameters pushed onto `params`; `now` is the instant the report was asked for. */
  condition(value: string, params: unknown[], now: Date): string;
}

/**
 * A report: rows of one table of the merchant's, created in a window, oldest
 * first, streamed as CSV. A feature declares its own (payins/payins.report.ts)
 * beside its table; adding one is declaring it, listing it in REPORTS
 * (reports/reports.ts), and giving its path, header and example to the
 * contract and docs/reports.md; reports/reports.controller.ts serves every one.
 *
 * Rows are read in keyset batches ordered by `created_at` then `key`, which
 * must be unique per merchant: `ORDER BY created_at, key LIMIT n`, then
 * `WHERE (created_at, key) > (last row's)`. Each batch is one short statement
 * on an index of (merchant_id, created_at, key), in either direction.
 */
/** Any report, its row types erased: what the catalogue and the controller hold (methods are bivariant, so every report is one). */
export type AnyReport = ReportDefinition<unknown, unknown>;

export interface ReportDefinition<Row, Raw> {
  /** Its name; its path is /payment/api/reports/{name}.csv. */
  name: string;
  /** The table, with a `merchant_id`, a `created_at` and the key. */
  table: string;
  /** A condition every row of the report meets, when the table holds more than its rows (the payouts table, a settlement's transfer). */
  scope?: string;
  /** What orders rows of one instant: a reference (text) or an identity (bigint). */
  key: { column: string; type: 'reference' | 'bigint' };
  /** The select list, which must include the key (as text) and created_at. */
  select: string;
  /** The filters beside from and to, in the order the contract lists them. */
  filters: readonly ReportFilter[];
  /** The columns, in order; the last, `cursor`, is added to every report (reports/report-csv.ts). */
  columns: readonly ReportColumn<Row>[];
  /** A row as read, as the columns take it; `now` is the instant the report was asked for (a payin past its expiry reads ABANDONED). */
  rowOf(raw: Raw, now: Date): Row;
  /** Where a row is in the order: its creation and its key, as text. */
  positionOf(row: Row): ReportPosition;
}

/** A row's place in a report's order. */
export interface ReportPosition {
  createdAt: Date;
  key: string;
}

/** What one download asks for: the merchant, the window (`to` exclusive), the filters given, and where to resume. */
export interface ReportRequest {
  merchantId: string;
  from: Date;
  to: Date;
  filters: Readonly<Record<string, string>>;
  after?: ReportPosition;
  /** The instant the report was asked for. */
  now: Date;
}

/** The statement of one batch: up to `limit` rows after `after`, in the report's order. */
export function batchStatement(report: AnyReport, request: ReportRequest, after: ReportPosition | undefined, limit: number): { sql: string; params: unknown[] } {
  const params: unknown[] = [request.merchantId, request.from.toISOString(), request.to.toISOString()];
  const key = report.key.column;
  const where = ['merchant_id = $1', 'created_at >= $2::timestamptz', 'created_at < $3::timestamptz', ...(report.scope ? [report.scope] : [])];
  for (const filter of report.filters) {
    const value = request.filters[filter.parameter];
    if (value !== undefined) where.push(filter.condition(value, params, request.now));
  }
  if (after) {
    const at = `$${params.push(after.createdAt.toISOString())}::timestamptz`;
    const last = `$${params.push(after.key)}${report.key.type === 'bigint' ? '::bigint' : ''}`;
    // The plain bound lets the planner start the index scan there; the row comparison is the exact position.
    where.push(`created_at >= ${at}`, `(created_at, ${key}) > (${at}, ${last})`);
  }
  const sql = `SELECT ${report.select} FROM ${report.table} WHERE ${where.join(' AND ')} ORDER BY created_at, ${key} LIMIT $${params.push(limit)}`;
  return { sql, params };
}

/** A timestamptz as the driver gives it. */
export type Timestamp = Date | string;
/** A nullable timestamptz as a Date. */
export const instantOrNull = (value: Timestamp | null): Date | null => (value === null ? null : toDate(value));
/** A bigint column read as text, as minor units. */
export const minorOrNull = (value: string | number | bigint | null): bigint | null => (value === null ? null : BigInt(value));

/** A filter on one of the report's closed set of values, such as a status or a currency. */
export function oneOfFilter(parameter: string, column: string, values: readonly string[]): ReportFilter {
  return { parameter, values, condition: (value, params) => `${column} = $${params.push(value)}` };
}

/** A filter on another object's reference, such as the payin of a refund. */
export function referenceFilter(parameter: string, column: string): ReportFilter {
  return { parameter, condition: (value, params) => `${column} = $${params.push(value)}` };
}

/** The currency filter every report of money has. */
export const CURRENCY_FILTER = oneOfFilter('currency', 'currency', SCHEMAS.Currency.enum);
