import { SCHEMAS, type Currency } from '@paysign/contracts';
import { parseDateTime } from '../http/rfc3339';
import { StrictQuery } from '../http/strict-query';
import type { EntriesQuery } from '../ledger/balance-entry';
import type { EntryType, MerchantBalanceKind } from '../ledger/ledger';

// Every enum below is read from the contracts: currencies and entry types as the signed API's, the balances as the dashboard's.
const CURRENCIES: readonly Currency[] = SCHEMAS.Currency.enum;
const ENTRY_TYPES = SCHEMAS.BalanceEntryType.enum as readonly EntryType[];
const BALANCES: readonly MerchantBalanceKind[] = ['available', 'pending', 'held'];
/** An entry id: a positive bigint, as PostgreSQL's identity gives them. */
const ENTRY_ID = /^[1-9][0-9]{0,18}$/;
const MAX_BIGINT = 9_223_372_036_854_775_807n;

/**
 * `GET /balance/entries` of the dashboard: `currency` (NGN when absent),
 * `balance`, `type`, `from` (inclusive), `to` (exclusive), and a page of
 * `limit` after the entry `after`. Entry ids only grow, so `after` is the
 * last id of the page before, whatever the filters.
 */
export function parseDashboardEntriesQuery(merchantId: string, query: Record<string, unknown>): EntriesQuery {
  const reader = new StrictQuery(query, ['currency', 'balance', 'type', 'from', 'to', 'after', 'limit']);
  const currency = reader.oneOf('currency', CURRENCIES, 'NGN');
  const kind = reader.oneOf('balance', BALANCES);
  const type = reader.oneOf('type', ENTRY_TYPES);
  const [from, to] = (['from', 'to'] as const).map((name) => {
    const raw = reader.single(name);
    if (raw === undefined) return undefined;
    const instant = parseDateTime(raw);
    if (instant) return instant;
    reader.refuse(name, 'format', `${name} must be an RFC 3339 date-time with a time zone, such as 2026-11-01T00:00:00Z; encode + as %2B.`);
    return undefined;
  });
  if (from && to && from >= to) reader.refuse('to', 'range', 'to must be later than from.');
  const rawAfter = reader.single('after');
  let afterId: bigint | undefined;
  if (rawAfter !== undefined) {
    if (ENTRY_ID.test(rawAfter) && BigInt(rawAfter) <= MAX_BIGINT) afterId = BigInt(rawAfter);
    else reader.refuse('after', 'pattern', 'after must be the nextCursor of the page before, unchanged.');
  }
  const limit = reader.limit();
  reader.done();
  return { merchantId, currency, limit, ...(kind && { kind }), ...(type && { type }), ...(from && { from }), ...(to && { to }), ...(afterId !== undefined && { afterId }) };
}
