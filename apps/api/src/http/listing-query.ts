import { createHash } from 'node:crypto';
import { isStorableInstant, parseDateTime } from './rfc3339';
import { REFERENCE_PATTERN, REFERENCE_RULE } from './request-rules';
import { encodeCursor, FOREIGN_CURSOR, StrictQuery } from './strict-query';

/** What a listing of objects by status and creation time filters on. */
export interface ListingFilters<S extends string> {
  status?: S;
  createdFrom?: Date;
  createdTo?: Date;
  /** Filters on another object's reference, such as the payouts of one batch, by parameter name. */
  references?: Readonly<Record<string, string>>;
}

/** A page request of such a listing: its filters, its size, and the position after which it starts. */
export type ListingQuery<S extends string> = ListingFilters<S> & { limit: number; after?: { createdAt: Date; reference: string } };

/** What a listing calls its window and cursor parameters: the merchant API's names, or the dashboard's `from`, `to` and `after`. */
export interface ListingParameterNames {
  createdFrom: string;
  createdTo: string;
  cursor: string;
}

const MERCHANT_API_NAMES: ListingParameterNames = { createdFrom: 'createdFrom', createdTo: 'createdTo', cursor: 'cursor' };
/** The dashboard API's names (openapi/dashboard-api.yaml). */
export const DASHBOARD_LISTING_NAMES: ListingParameterNames = { createdFrom: 'from', createdTo: 'to', cursor: 'after' };

/**
 * Reads the query string of a listing of objects newest first (payins,
 * payouts): `status`, `createdFrom` (inclusive), `createdTo` (exclusive),
 * `limit` and `cursor`, strictly, every problem at once. `scope` names the
 * listing, so that a cursor of one is refused by another.
 */
export function parseListingQuery<S extends string>(query: Record<string, unknown>, statuses: readonly S[], scope: string, referenceFilters: readonly string[] = [], names: ListingParameterNames = MERCHANT_API_NAMES): ListingQuery<S> {
  const reader = new StrictQuery(query, ['status', names.createdFrom, names.createdTo, 'limit', names.cursor, ...referenceFilters]);
  const filters: ListingFilters<S> = {};
  for (const name of referenceFilters) {
    const raw = reader.single(name);
    if (raw === undefined) continue;
    if (REFERENCE_PATTERN.test(raw)) filters.references = { ...filters.references, [name]: raw };
    else reader.refuse(name, 'pattern', `${name} ${REFERENCE_RULE.replace(/^reference /, '')}`);
  }
  const status = reader.oneOf('status', statuses);
  if (status !== undefined) filters.status = status;
  for (const filter of ['createdFrom', 'createdTo'] as const) {
    const name = names[filter];
    const raw = reader.single(name);
    if (raw === undefined) continue;
    const instant = parseDateTime(raw);
    if (instant) filters[filter] = instant;
    else reader.refuse(name, 'format', `${name} must be an RFC 3339 date-time with a time zone that exists in the calendar, such as 2026-11-01T00:00:00Z; encode + as %2B.`);
  }
  if (filters.createdFrom && filters.createdTo && filters.createdFrom >= filters.createdTo) reader.refuse(names.createdTo, 'range', `${names.createdTo} must be later than ${names.createdFrom}.`);
  const limit = reader.limit();
  const after = reader.cursor((fields) => positionAfter(fields, filtersKey(filters, scope), names), { parameter: names.cursor, foreign: foreignCursor(names) });
  reader.done();
  return { ...filters, limit, ...(after ? { after } : {}) };
}

/**
 * The position after a page's last object. Opaque to merchants; it names the
 * listing and the filters it was issued for, so that it is never applied to another.
 */
export function encodeListingCursor<S extends string>(last: { createdAt: Date; reference: string }, filters: ListingFilters<S>, scope: string): string {
  return encodeCursor([last.createdAt.getTime(), last.reference, filtersKey(filters, scope)]);
}

const foreignCursor = (names: ListingParameterNames): string => FOREIGN_CURSOR.replace(/^cursor/, names.cursor);

function positionAfter(fields: unknown[], key: string, names: ListingParameterNames): { createdAt: Date; reference: string } | string {
  if (fields.length !== 3) return foreignCursor(names);
  const [at, reference, issuedFor] = fields;
  // An instant the stores can hold: a cursor naming another is not one of ours, and must not reach the store.
  if (!Number.isSafeInteger(at) || !isStorableInstant(at as number) || typeof reference !== 'string' || !REFERENCE_PATTERN.test(reference) || typeof issuedFor !== 'string') return foreignCursor(names);
  if (issuedFor !== key) return `${names.cursor} was issued for other filters; send the same status, ${names.createdFrom} and ${names.createdTo} as the page it came from.`;
  return { createdAt: new Date(at as number), reference };
}

function filtersKey<S extends string>(filters: ListingFilters<S>, scope: string): string {
  // Payin cursors were issued before listings had a scope; theirs stays the empty one, so that cursors already given out keep working.
  const parts = [...(scope === 'payins' ? [] : [scope]), filters.status ?? '', filters.createdFrom?.toISOString() ?? '', filters.createdTo?.toISOString() ?? ''];
  // Only when given, so that cursors issued before reference filters existed keep working.
  for (const [name, value] of Object.entries(filters.references ?? {}).sort()) parts.push(`${name}=${value}`);
  return createHash('sha256').update(parts.join('\n')).digest('base64url').slice(0, 11);
}

/**
 * One page of a listing from the rows of a query asked for one more than
 * the page: whether that one exists is `hasMore`, without a count query, and
 * the cursor names the page's last row.
 */
export function pageOf<Row, Item>(rows: readonly Row[], limit: number, toItem: (row: Row) => Item, cursorAfter: (last: Row) => string): { data: Item[]; hasMore: boolean; nextCursor: string | null } {
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  const hasMore = rows.length > limit;
  return { data: page.map(toItem), hasMore, nextCursor: hasMore && last !== undefined ? cursorAfter(last) : null };
}
