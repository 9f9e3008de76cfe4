import type { SqlQueryable } from '../db/sql-client';
import { accountId, type MerchantBalanceKind } from './ledger';

/**
 * What a sweep of a whole balance covered: the entries of the balance up to
 * its own, which sum to what it took. Read by the settlements, which take a
 * merchant's whole `available` at once.
 */

/** The id of the newest entry of the merchant's balance, on `tx`; 0 when it has none. Under the balance's lock (Ledger.lockAvailable), no entry of it can come before this one later. */
export async function newestEntryOf(tx: SqlQueryable, balance: { merchantId: string; currency: string; kind: MerchantBalanceKind }): Promise<bigint> {
  const { rows } = await tx.query<{ id: string | null }>('SELECT max(id)::text AS id FROM ledger_entries WHERE account_id = $1', [accountId(balance)]);
  return BigInt(rows[0]?.id ?? 0);
}

/** Every merchant's balance of one kind, for a query that selects merchants by it: `merchant_id`, `currency`, `balance_minor`. */
export const balancesOfKind = (kind: MerchantBalanceKind): string => `(SELECT merchant_id, currency, balance_minor FROM ledger_accounts WHERE merchant_id IS NOT NULL AND kind = '${kind}')`;
