import { SCHEMAS, type Currency } from '@paysign/contracts';
import { encodeCursor, FOREIGN_CURSOR, StrictQuery } from '../http/strict-query';

const CURRENCIES: readonly Currency[] = SCHEMAS.Currency.enum;
/** An entry id: a positive bigint, as PostgreSQL's identity gives them. */
const ENTRY_ID = /^[1-9][0-9]{0,18}$/;
const MAX_BIGINT = 9_223_372_036_854_775_807n;

export interface EntriesQuery {
  currency: Currency;
  limit: number;
  afterId?: bigint;
}

/** `GET /balance`: `currency`, NGN when absent. */
export function parseBalanceQuery(query: Record<string, unknown>): { currency: Currency } {
  const reader = new StrictQuery(query, ['currency']);
  const currency = reader.oneOf('currency', CURRENCIES, 'NGN');
  reader.done();
  return { currency };
}

/** `GET /balance/entries`: `currency`, and a page of `limit` after the entry the `cursor` names. */
export function parseEntriesQuery(query: Record<string, unknown>): EntriesQuery {
  const reader = new StrictQuery(query, ['currency', 'limit', 'cursor']);
  const currency = reader.oneOf('currency', CURRENCIES, 'NGN');
  const limit = reader.limit();
  const afterId = reader.cursor((fields) => afterEntry(fields, currency));
  reader.done();
  return { currency, limit, ...(afterId === undefined ? {} : { afterId }) };
}

/** The position after a page's last entry, for the currency it was listed in. */
export function encodeEntriesCursor(lastId: string, currency: Currency): string {
  return encodeCursor([lastId, currency]);
}

function afterEntry(fields: unknown[], currency: Currency): bigint | string {
  const [id, issuedFor] = fields;
  if (fields.length !== 2 || typeof id !== 'string' || !ENTRY_ID.test(id) || BigInt(id) > MAX_BIGINT) return FOREIGN_CURSOR;
  if (issuedFor !== currency) return 'cursor was issued for another currency; send the same currency as the page it came from.';
  return BigInt(id);
}
