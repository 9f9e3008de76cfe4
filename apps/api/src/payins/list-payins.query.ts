import { createHash } from 'node:crypto';
import type { PayinStatus } from '@paysign/contracts';
import { isStorableInstant, parseDateTime } from '../http/rfc3339';
import { encodeCursor as encodeCursorFields, FOREIGN_CURSOR, StrictQuery } from '../http/strict-query';
import type { PayinListQuery } from './payin-repository.interface';
import { PAYIN_STATUSES } from './payin-states';
import { REFERENCE_PATTERN } from './create-payin.dto';

const PARAMETERS = ['status', 'createdFrom', 'createdTo', 'limit', 'cursor'] as const;

interface Filters {
  status?: PayinStatus;
  createdFrom?: Date;
  createdTo?: Date;
}

/**
 * Reads the listing's query string, strictly: unknown or repeated parameters
 * are refused, like unknown body fields, and every problem is reported at once.
 */
export function parseListQuery(merchantId: string, query: Record<string, unknown>): PayinListQuery {
  const reader = new StrictQuery(query, PARAMETERS);
  const filters: Filters = {};
  const status = reader.oneOf('status', PAYIN_STATUSES);
  if (status !== undefined) filters.status = status;
  for (const name of ['createdFrom', 'createdTo'] as const) {
    const raw = reader.single(name);
    if (raw === undefined) continue;
    const instant = parseDateTime(raw);
    if (instant) filters[name] = instant;
    else reader.refuse(name, 'format', `${name} must be an RFC 3339 date-time with a time zone that exists in the calendar, such as 2026-11-01T00:00:00Z; encode + as %2B.`);
  }
  if (filters.createdFrom && filters.createdTo && filters.createdFrom >= filters.createdTo) {
    reader.refuse('createdTo', 'range', 'createdTo must be later than createdFrom.');
  }
  const limit = reader.limit();
  const after = reader.cursor((fields) => afterPayin(fields, filters));
  reader.done();
  return { merchantId, ...filters, limit, ...(after ? { after } : {}) };
}

/**
 * The position after a page's last payin. Opaque to merchants; it names the
 * filters it was issued for, so that it is never applied to another listing.
 */
export function encodeCursor(last: { createdAt: Date; reference: string }, query: Filters): string {
  return encodeCursorFields([last.createdAt.getTime(), last.reference, filtersKey(query)]);
}

function afterPayin(fields: unknown[], filters: Filters): { createdAt: Date; reference: string } | string {
  if (fields.length !== 3) return FOREIGN_CURSOR;
  const [at, reference, key] = fields;
  // An instant the stores can hold: a cursor naming another is not one of ours, and must not reach the store.
  if (!Number.isSafeInteger(at) || !isStorableInstant(at as number) || typeof reference !== 'string' || !REFERENCE_PATTERN.test(reference) || typeof key !== 'string') return FOREIGN_CURSOR;
  if (key !== filtersKey(filters)) return 'cursor was issued for other filters; send the same status, createdFrom and createdTo as the page it came from.';
  return { createdAt: new Date(at as number), reference };
}

function filtersKey(filters: Filters): string {
  const parts = [filters.status ?? '', filters.createdFrom?.toISOString() ?? '', filters.createdTo?.toISOString() ?? ''];
  return createHash('sha256').update(parts.join('\n')).digest('base64url').slice(0, 11);
}
