import { createHash } from 'node:crypto';
import type { PayinChannel } from '@paysign/contracts';
import { SCHEMAS } from '@paysign/contracts';
import type { PayinListQuery, PayinMatch } from '../payins/payin-repository.interface';
import { PAYIN_STATUSES } from '../payins/payin-states';
import { isStorableInstant, parseDateTime } from '../http/rfc3339';
import { REFERENCE_PATTERN } from '../http/request-rules';
import { encodeCursor, StrictQuery } from '../http/strict-query';

const PARAMETERS = ['q', 'status', 'channel', 'from', 'to', 'after', 'limit'] as const;
const CHANNELS = SCHEMAS.PayinChannel.enum as readonly PayinChannel[];
/** Naira with up to 2 decimals, no sign, separators or currency: an amount the payins page searches for. */
const NAIRA = /^(0|[1-9][0-9]{0,8})(?:\.([0-9]{1,2}))?$/;
/** An email as the payins page searches for one: something@somewhere, no spaces or control characters (PostgreSQL refuses NUL in text). */
const EMAIL = /^[^\s@\p{Cc}]{1,64}@[^\s@\p{Cc}]{1,189}$/u;
/** A cursor that is not one of this page's, said of `after`. */
const FOREIGN_AFTER = 'after is not one this page issued; pass the nextCursor of the previous page unchanged, or start again without after.';
const Q_MAX = 254;

/**
 * Reads the payins page's query string strictly, every problem at once:
 * `q` (one search box, read by its form, see matchOf), `status` (as the
 * payin reads now), `channel`, `from` (inclusive), `to` (exclusive),
 * `after` (a cursor this page issued for the same filters) and `limit`.
 */
export function parsePayinSearch(merchantId: string, query: Record<string, unknown>): PayinListQuery {
  const reader = new StrictQuery(query, PARAMETERS);
  const search: PayinListQuery = { merchantId, limit: 0 };
  const q = reader.single('q');
  if (q !== undefined) {
    const match = matchOf(q);
    if (match) search.matching = match;
    else reader.refuse('q', 'format', `q must be a payin reference (1 to 64 of A-Z a-z 0-9 . _ -), a customer's email, or an amount in naira such as 1500 or 1500.50, at most ${Q_MAX} characters.`);
  }
  const status = reader.oneOf('status', PAYIN_STATUSES);
  if (status !== undefined) search.status = status;
  const channel = reader.oneOf('channel', CHANNELS);
  if (channel !== undefined) search.gateway = channel;
  for (const [name, field] of [['from', 'createdFrom'], ['to', 'createdTo']] as const) {
    const raw = reader.single(name);
    if (raw === undefined) continue;
    const instant = parseDateTime(raw);
    if (instant) search[field] = instant;
    else reader.refuse(name, 'format', `${name} must be an RFC 3339 date-time with a time zone that exists in the calendar, such as 2026-11-01T00:00:00Z; encode + as %2B.`);
  }
  if (search.createdFrom && search.createdTo && search.createdFrom >= search.createdTo) reader.refuse('to', 'range', 'to must be later than from.');
  search.limit = reader.limit();
  const after = reader.cursor((fields) => positionAfter(fields, filtersKey(query)), { parameter: 'after', foreign: FOREIGN_AFTER });
  reader.done();
  return after ? { ...search, after } : search;
}

/** The `after` of the page following one whose last payin is `last`, for the filters of `query`. */
export function encodeSearchCursor(last: { createdAt: Date; reference: string }, query: Record<string, unknown>): string {
  return encodeCursor([last.createdAt.getTime(), last.reference, filtersKey(query)]);
}

/**
 * What the search box asks for, by its form: an email (it has an @), an
 * amount in naira, matched in kobo, and the same text as a reference (1500
 * may be either), or a reference alone. Undefined when it is none of them.
 */
export function matchOf(q: string): PayinMatch | undefined {
  if (q.length === 0 || q.length > Q_MAX) return undefined;
  if (q.includes('@')) return EMAIL.test(q) ? { email: q } : undefined;
  const naira = NAIRA.exec(q);
  const reference = REFERENCE_PATTERN.test(q) ? { reference: q } : undefined;
  if (!naira) return reference;
  const amountMinor = BigInt(naira[1] as string) * 100n + BigInt((naira[2] ?? '0').padEnd(2, '0'));
  return amountMinor > 0n ? { ...reference, amountMinor } : reference;
}

function positionAfter(fields: unknown[], key: string): { createdAt: Date; reference: string } | string {
  const [at, reference, issuedFor] = fields;
  if (fields.length !== 3 || !Number.isSafeInteger(at) || !isStorableInstant(at as number) || typeof reference !== 'string' || !REFERENCE_PATTERN.test(reference)) return FOREIGN_AFTER;
  if (issuedFor !== key) return 'after was issued for other filters; send the same q, status, channel, from and to as the page it came from, or start again without after.';
  return { createdAt: new Date(at as number), reference };
}

/** The filters a cursor holds for, as they were sent: a cursor is never applied under others. */
function filtersKey(query: Record<string, unknown>): string {
  const parts = ['dashboard-payins', ...(['q', 'status', 'channel', 'from', 'to'] as const).map((name) => (typeof query[name] === 'string' ? query[name] : ''))];
  return createHash('sha256').update(parts.join('\n')).digest('base64url').slice(0, 11);
}
