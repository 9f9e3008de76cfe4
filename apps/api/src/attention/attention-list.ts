import { toDate, type SqlClient } from '../db/sql-client';
import { amountOf } from '../money/money';

/** The kinds of object that can need an operator's attention. */
export const ATTENTION_KINDS = ['payin', 'payout', 'refund'] as const;
export type AttentionKind = (typeof ATTENTION_KINDS)[number];

/** An object flagged `needsAttention`, as the operator's list shows it. */
export interface AttentionItem {
  kind: AttentionKind;
  merchantId: string;
  reference: string;
  status: string;
  /** In major units, as the contract's amounts. */
  amount: number;
  currency: string;
  provider: string | null;
  providerReference: string | null;
  createdAt: string;
}

interface AttentionRow {
  kind: AttentionKind;
  merchant_id: string;
  reference: string;
  status: string;
  amount_minor: string;
  currency: string;
  provider: string | null;
  provider_reference: string | null;
  created_at: Date | string;
}

/**
 * The objects flagged `needsAttention` across payins, payouts and refunds,
 * oldest first: what the provider has not settled and the service will not
 * guess (an unknown outcome past its checks, a provider retired, an amount
 * that disagrees, a payment for a payin already final).
 */
export async function listNeedingAttention(client: SqlClient, filter: { kind?: AttentionKind; merchantId?: string; limit: number }): Promise<AttentionItem[]> {
  const params: unknown[] = [filter.limit];
  const merchant = filter.merchantId === undefined ? '' : ` AND merchant_id = $${params.push(filter.merchantId)}`;
  const of = (kind: AttentionKind, table: string) =>
    `SELECT '${kind}' AS kind, merchant_id, reference, status, amount_minor::text AS amount_minor, currency, provider, provider_reference, created_at FROM ${table} WHERE needs_attention${merchant}`;
  const parts = [of('payin', 'payins'), of('payout', 'payouts'), of('refund', 'refunds')].filter((_part, i) => filter.kind === undefined || ATTENTION_KINDS[i] === filter.kind);
  const { rows } = await client.query<AttentionRow>(`SELECT * FROM (${parts.join(' UNION ALL ')}) flagged ORDER BY created_at, kind, reference LIMIT $1`, params);
  return rows.map((row) => ({
    kind: row.kind,
    merchantId: row.merchant_id,
    reference: row.reference,
    status: row.status,
    amount: amountOf({ minor: BigInt(row.amount_minor), currency: row.currency }),
    currency: row.currency,
    provider: row.provider,
    providerReference: row.provider_reference,
    createdAt: toDate(row.created_at).toISOString(),
  }));
}
