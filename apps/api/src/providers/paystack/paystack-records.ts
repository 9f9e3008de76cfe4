import { ProviderUnavailable } from '../../upstream/upstream-client';
import type { ListingOptions, ProviderRecord, ProviderRecords, ProviderSettlement, RecordObjectType, RecordOutcome } from '../ports/provider-records.port';
import type { PaystackApi } from './paystack-api';
import { isPaymentReference } from './paystack-gateway';
import { providerReferenceOf } from './paystack-payout-transfers';

const PATHS = { payin: '/transaction', payout: '/transfer', refund: '/refund' } as const;

/**
 * A day's records at Paystack, from its List calls over a time range
 * (https://paystack.com/docs/api/transaction/#list, /transfer/#list,
 * /refund/#list, /settlement/#list), every page read. What each status means
 * here is Paystack's documented meaning (the gateway's, the transfers' and
 * the refunds' own mappings), and docs/reconciliation.md tabulates it.
 */
export class PaystackRecords implements ProviderRecords {
  constructor(private readonly api: PaystackApi) {}

  async list(objectType: RecordObjectType, window: { from: Date; to: Date }, options: ListingOptions): Promise<ProviderRecord[]> {
    const items = await this.readAll(PATHS[objectType], window, options);
    return items.map((item) => recordOf(objectType, item));
  }

  async settlements(window: { from: Date; to: Date }, options: ListingOptions): Promise<ProviderSettlement[]> {
    return (await this.readAll('/settlement', window, options)).map(settlementOf);
  }

  /** Every item of the listing, once each (by id); rejects on any page it cannot read, and past `maxPages`. */
  private async readAll(path: '/transaction' | '/transfer' | '/refund' | '/settlement', window: { from: Date; to: Date }, options: ListingOptions): Promise<Record<string, unknown>[]> {
    const byId = new Map<string, Record<string, unknown>>();
    let cursor: string | null = null;
    for (let page = 1; page <= options.maxPages; page++) {
      const listed = await this.api.listPage({ path, ...window, perPage: options.pageSize, page, cursor }, { signal: options.signal, merchantId: null, timeoutMs: options.timeoutMs });
      // A record listed twice (pages shifting under a newer record) is one record.
      for (const item of listed.items) byId.set(String(item.id ?? item.reference ?? byId.size), item);
      if (listed.next !== undefined) {
        if (listed.next === null) return [...byId.values()];
        cursor = listed.next;
        continue;
      }
      // Without a page count or a cursor, only an empty page ends the listing: Paystack may give fewer a page than were asked for.
      if (listed.pageCount === null ? listed.items.length === 0 : page >= listed.pageCount) return [...byId.values()];
    }
    throw new ProviderUnavailable('paystack', `${path.slice(1)}_list_range`, 'error');
  }
}

/**
 * Paystack's statuses in our words. Transactions: `success` paid; `failed`,
 * `abandoned` and `reversed` not paid; anything else under way. Transfers:
 * `success` paid; `reversed` returned; `failed`, `abandoned`, `blocked`,
 * `rejected` not paid; anything else (`pending`, `otp`, `received`,
 * `queued`) under way. Refunds: `processed` paid; `failed` not paid;
 * `needs-attention` waits for an account; anything else under way.
 */
export const PAYSTACK_OUTCOMES: Readonly<Record<RecordObjectType, Readonly<Record<string, RecordOutcome>>>> = {
  payin: { success: 'paid', failed: 'not_paid', abandoned: 'not_paid', reversed: 'not_paid' },
  payout: { success: 'paid', reversed: 'reversed', failed: 'not_paid', abandoned: 'not_paid', blocked: 'not_paid', rejected: 'not_paid' },
  refund: { processed: 'paid', failed: 'not_paid', 'needs-attention': 'requires_action' },
};

function recordOf(objectType: RecordObjectType, item: Record<string, unknown>): ProviderRecord {
  const call = `${PATHS[objectType].slice(1)}_list_range`;
  const status = item.status;
  // A transaction is for `requested_amount`; `amount` also holds a fee passed on to the customer.
  const amount = objectType === 'payin' && item.requested_amount !== undefined && item.requested_amount !== null ? item.requested_amount : item.amount;
  const minor = Number.isSafeInteger(amount) ? BigInt(amount as number) : typeof amount === 'string' && /^[0-9]{1,15}$/.test(amount) ? BigInt(amount) : undefined;
  const createdAt = new Date(String(item.createdAt ?? item.created_at ?? ''));
  if (typeof status !== 'string' || minor === undefined || typeof item.currency !== 'string' || Number.isNaN(createdAt.getTime())) throw new ProviderUnavailable('paystack', call, 'error');
  const { providerReference, theirReference } = referencesOf(objectType, item);
  return { objectType, providerReference, theirReference, amountMinor: minor, currency: item.currency, outcome: PAYSTACK_OUTCOMES[objectType][status] ?? 'in_flight', status, createdAt };
}

/** Our reference as each record carries it: a transaction's own reference, a transfer's (in lower case), a refund's merchant_note (PaystackRefunds). */
function referencesOf(objectType: RecordObjectType, item: Record<string, unknown>): { providerReference: string | null; theirReference: string } {
  const reference = typeof item.reference === 'string' ? item.reference : null;
  if (objectType === 'payin') return { providerReference: reference !== null && isPaymentReference(reference) ? reference : null, theirReference: reference ?? String(item.id) };
  if (objectType === 'payout') return { providerReference: reference === null ? null : (providerReferenceOf(reference) ?? null), theirReference: reference ?? (typeof item.transfer_code === 'string' ? item.transfer_code : String(item.id)) };
  const note = typeof item.merchant_note === 'string' ? /^psr-[0-9a-f]{32}(?=$|:)/i.exec(item.merchant_note)?.[0] : undefined;
  return { providerReference: note === undefined ? null : `PSR-${note.slice(4).toLowerCase()}`, theirReference: String(item.id) };
}

function settlementOf(item: Record<string, unknown>): ProviderSettlement {
  const minor = (value: unknown) => (Number.isSafeInteger(value) ? BigInt(value as number) : 0n);
  if (typeof item.status !== 'string' || typeof item.currency !== 'string') throw new ProviderUnavailable('paystack', 'settlement_list_range', 'error');
  return {
    theirReference: String(item.id),
    status: item.status,
    currency: item.currency,
    totalMinor: minor(item.total_amount),
    feesMinor: minor(item.total_fees),
    processedMinor: minor(item.total_processed),
    settledOn: typeof item.settlement_date === 'string' ? item.settlement_date : null,
  };
}
