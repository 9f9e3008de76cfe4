import { createHash } from 'node:crypto';
import { SCHEMAS, type FieldError, type PayinStatus } from '@paysign/contracts';
import { validationFailed } from '../errors/api.exception';
import { isStorableInstant, parseDateTime } from '../http/rfc3339';
import type { PayinListQuery } from './payin-repository.interface';
import { PAYIN_STATUSES, isPayinStatus } from './payin-states';
import { REFERENCE_PATTERN } from './create-payin.dto';

const PARAMETERS = ['status', 'createdFrom', 'createdTo', 'limit', 'cursor'] as const;
const LIMIT = { min: SCHEMAS.PageLimit.minimum, max: SCHEMAS.PageLimit.maximum, default: SCHEMAS.PageLimit.default };
const CURSOR_PATTERN = new RegExp(SCHEMAS.Cursor.pattern);

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
  const errors: FieldError[] = [];
  const single = (name: string): string | undefined => {
    const value = query[name];
    if (value === undefined) return undefined;
    if (typeof value !== 'string') {
      errors.push({ field: name, code: 'repeated', message: `${name} must be given at most once.` });
      return undefined;
    }
    return value;
  };
  for (const name of Object.keys(query)) {
    if (!(PARAMETERS as readonly string[]).includes(name)) errors.push({ field: name, code: 'unknown', message: `${name} is not a parameter of this operation; allowed parameters are ${PARAMETERS.join(', ')}.` });
  }

  const filters: Filters = {};
  const status = single('status');
  if (status !== undefined) {
    if (isPayinStatus(status)) filters.status = status;
    else errors.push({ field: 'status', code: 'enum', message: `status must be one of ${PAYIN_STATUSES.join(', ')}.` });
  }
  for (const name of ['createdFrom', 'createdTo'] as const) {
    const raw = single(name);
    if (raw === undefined) continue;
    const instant = parseDateTime(raw);
    if (instant) filters[name] = instant;
    else errors.push({ field: name, code: 'format', message: `${name} must be an RFC 3339 date-time with a time zone that exists in the calendar, such as 2026-11-01T00:00:00Z; encode + as %2B.` });
  }
  if (filters.createdFrom && filters.createdTo && filters.createdFrom >= filters.createdTo) {
    errors.push({ field: 'createdTo', code: 'range', message: 'createdTo must be later than createdFrom.' });
  }
  let limit: number = LIMIT.default;
  const rawLimit = single('limit');
  if (rawLimit !== undefined) {
    if (/^[0-9]{1,3}$/.test(rawLimit) && Number(rawLimit) >= LIMIT.min && Number(rawLimit) <= LIMIT.max) limit = Number(rawLimit);
    else errors.push({ field: 'limit', code: 'range', message: `limit must be a whole number from ${LIMIT.min} to ${LIMIT.max}.` });
  }
  const rawCursor = single('cursor');
  const after = rawCursor === undefined ? undefined : decodeCursor(rawCursor, filters);
  if (typeof after === 'string') errors.push({ field: 'cursor', code: 'invalid', message: after });

  if (errors.length > 0) throw validationFailed(errors);
  return { merchantId, ...filters, limit, ...(after && typeof after !== 'string' ? { after } : {}) };
}

/**
 * The position after a page's last payin. Opaque to merchants; it names the
 * filters it was issued for, so that it is never applied to another listing.
 */
export function encodeCursor(last: { createdAt: Date; reference: string }, query: Filters): string {
  return Buffer.from(JSON.stringify([last.createdAt.getTime(), last.reference, filtersKey(query)])).toString('base64url');
}

function decodeCursor(raw: string, filters: Filters): { createdAt: Date; reference: string } | string {
  const invalid = 'cursor is not one this service issued; pass the nextCursor of the previous page unchanged.';
  if (raw.length > SCHEMAS.Cursor.maxLength || !CURSOR_PATTERN.test(raw)) return invalid;
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
  } catch {
    return invalid;
  }
  if (!Array.isArray(decoded) || decoded.length !== 3) return invalid;
  const [at, reference, key] = decoded as unknown[];
  // An instant the stores can hold: a cursor naming another is not one of ours, and must not reach the store.
  if (!Number.isSafeInteger(at) || !isStorableInstant(at as number) || typeof reference !== 'string' || !REFERENCE_PATTERN.test(reference) || typeof key !== 'string') return invalid;
  if (key !== filtersKey(filters)) return 'cursor was issued for other filters; send the same status, createdFrom and createdTo as the page it came from.';
  return { createdAt: new Date(at as number), reference };
}

function filtersKey(filters: Filters): string {
  const parts = [filters.status ?? '', filters.createdFrom?.toISOString() ?? '', filters.createdTo?.toISOString() ?? ''];
  return createHash('sha256').update(parts.join('\n')).digest('base64url').slice(0, 11);
}
