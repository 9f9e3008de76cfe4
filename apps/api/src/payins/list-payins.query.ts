import type { PayinStatus } from '@paysign/contracts';
import { encodeListingCursor, parseListingQuery, type ListingFilters } from '../http/listing-query';
import type { PayinListQuery } from './payin-repository.interface';
import { PAYIN_STATUSES } from './payin-states';

/**
 * Reads the listing's query string, strictly: unknown or repeated parameters
 * are refused, like unknown body fields, and every problem is reported at once.
 */
export function parseListQuery(merchantId: string, query: Record<string, unknown>): PayinListQuery {
  return { merchantId, ...parseListingQuery(query, PAYIN_STATUSES, 'payins') };
}

/** The position after a page's last payin, for the filters it was listed with. */
export function encodeCursor(last: { createdAt: Date; reference: string }, query: ListingFilters<PayinStatus>): string {
  return encodeListingCursor(last, query, 'payins');
}
