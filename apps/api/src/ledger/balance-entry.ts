import type { EntryType, LedgerObjectType, MerchantBalanceKind } from './ledger';

/** A page of a merchant's entries in one currency, and what it is filtered on. */
export interface EntriesQuery {
  merchantId: string;
  currency: string;
  limit: number;
  afterId?: bigint;
  aboveId?: bigint;
  kind?: MerchantBalanceKind;
  type?: EntryType;
  from?: Date;
  to?: Date;
}

export interface BalanceEntry {
  id: string;
  type: EntryType;
  balance: MerchantBalanceKind;
  amountMinor: bigint;
  currency: string;
  objectType: LedgerObjectType;
  reference: string;
  createdAt: Date;
}
