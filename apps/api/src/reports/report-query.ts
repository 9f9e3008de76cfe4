import { isStorableInstant, parseDateTime } from '../http/rfc3339';
import { REFERENCE_PATTERN, REFERENCE_RULE } from '../http/request-rules';
import { encodeCursor, StrictQuery } from '../http/strict-query';
import type { AnyReport, ReportPosition, ReportRequest } from '../db/report-definition';

/** A bigint key: a positive identity, as PostgreSQL's give them. */
const BIGINT_KEY = /^[1-9][0-9]{0,18}$/;
const MAX_BIGINT = 9_223_372_036_854_775_807n;

/** What a report says of an `after` it did not write. */
const FOREIGN_AFTER = "after is not a cursor of this report; pass the last cursor cell of the rows you have, unchanged, to continue after that row.";

/**
 * Reads a report's query string strictly, as the listings read theirs:
 * `from` and `to` (RFC 3339, required, `to` exclusive; no longest window,
 * since the report streams), the report's own filters, and `after`, the
 * cursor of the last row a client has. Every problem is answered at once, as one 400.
 */
export function parseReportQuery(report: AnyReport, merchantId: string, query: Record<string, unknown>, now: Date): ReportRequest {
  const reader = new StrictQuery(query, ['from', 'to', ...report.filters.map((filter) => filter.parameter), 'after']);
  const window: { from?: Date; to?: Date } = {};
  for (const name of ['from', 'to'] as const) {
    const raw = reader.single(name);
    if (raw === undefined) {
      reader.refuse(name, 'required', `${name} is required: an RFC 3339 date-time with a time zone, such as 2026-11-01T00:00:00Z${name === 'to' ? ' (exclusive)' : ''}.`);
      continue;
    }
    const instant = parseDateTime(raw);
    if (instant) window[name] = instant;
    else reader.refuse(name, 'format', `${name} must be an RFC 3339 date-time with a time zone that exists in the calendar, such as 2026-11-01T00:00:00Z; encode + as %2B.`);
  }
  if (window.from && window.to && window.from >= window.to) reader.refuse('to', 'range', 'to must be later than from.');
  const filters: Record<string, string> = {};
  for (const filter of report.filters) {
    if (filter.values) {
      const value = reader.oneOf(filter.parameter, filter.values);
      if (value !== undefined) filters[filter.parameter] = value;
      continue;
    }
    const raw = reader.single(filter.parameter);
    if (raw === undefined) continue;
    if (REFERENCE_PATTERN.test(raw)) filters[filter.parameter] = raw;
    else reader.refuse(filter.parameter, 'pattern', `${filter.parameter} ${REFERENCE_RULE.replace(/^reference /, '')}`);
  }
  const after = reader.cursor((fields) => positionOf(fields, report), { parameter: 'after', foreign: FOREIGN_AFTER });
  reader.done();
  return { merchantId, from: window.from as Date, to: window.to as Date, filters, now, ...(after ? { after } : {}) };
}

/**
 * The cursor cell of a row: where it is in the report's order, opaque to
 * merchants. It names no filter, since a position means the same under any
 * filters: resuming with other filters gives the rows after it that match them.
 */
export function encodeReportCursor(position: ReportPosition): string {
  return encodeCursor([position.createdAt.getTime(), position.key]);
}

function positionOf(fields: unknown[], report: AnyReport): ReportPosition | string {
  const [at, key] = fields;
  if (fields.length !== 2 || !Number.isSafeInteger(at) || !isStorableInstant(at as number) || typeof key !== 'string') return FOREIGN_AFTER;
  const valid = report.key.type === 'bigint' ? BIGINT_KEY.test(key) && BigInt(key) <= MAX_BIGINT : REFERENCE_PATTERN.test(key);
  return valid ? { createdAt: new Date(at as number), key } : FOREIGN_AFTER;
}
