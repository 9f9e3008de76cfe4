import type { SqlQueryable } from '../db/sql-client';
import type { LedgerObjectType } from './ledger';

/** One broken invariant, with the rows that break it. */
export interface LedgerProblem {
  invariant: string;
  rows: Record<string, unknown>[];
}

/** At most this many rows are named per invariant: enough to start from, however broken the ledger is. */
const ROWS_PER_PROBLEM = 20;

/** One invariant: a query for the rows that break it; none is an invariant that holds. */
export interface LedgerInvariant {
  invariant: string;
  sql: string;
}

/**
 * What a product's invariant may read of the ledger, as SQL: the ledger's
 * tables are its own, and a product names them only through these.
 */
export const LEDGER_SQL = {
  /** Every journal of one kind of object, but operators' corrections, which no state of the object accounts for: `id`, `merchant_id`, `object_id`, `type`. */
  journalsOf: (objectType: LedgerObjectType): string => `(SELECT id, merchant_id, object_id, type FROM ledger_journals WHERE object_type = '${objectType}' AND type <> 'correction')`,
  /** Every operator's correction (Ledger.postCorrection): `id`, `merchant_id`, `object_type`, `object_id`. */
  corrections: "(SELECT id, merchant_id, object_type, object_id FROM ledger_journals WHERE type = 'correction')",
  /** Every journal of a payout row, a merchant's payout's or a settlement's (its `purpose`), but corrections: `id`, `merchant_id`, `object_type`, `object_id`, `type`. */
  journalsOfPayouts: "(SELECT id, merchant_id, object_type, object_id, type FROM ledger_journals WHERE object_type IN ('payout', 'settlement') AND type <> 'correction')",
  /** Every entry of a merchant's balance: `id`, `merchant_id`, `currency`, `kind`, `amount_minor`. */
  merchantEntries: '(SELECT id, merchant_id, currency, kind, amount_minor FROM ledger_entries WHERE merchant_id IS NOT NULL)',
  /** Every entry: `journal_id`, `account_id`, `kind`, `amount_minor`. */
  entries: '(SELECT journal_id, account_id, kind, amount_minor FROM ledger_entries)',
} as const;

/**
 * The ledger's own invariants, on its books alone. Each product adds its own
 * (that every object has the journals of its state), and the service checks
 * them all together (ledger-invariants.ts at the root of src).
 */
export const BALANCE_INVARIANTS: readonly LedgerInvariant[] = [
  {
    invariant: 'each journal sums to zero',
    sql: `SELECT j.id::text AS journal, j.type, j.object_type, j.object_id, coalesce(sum(e.amount_minor), 0)::text AS sum_minor, count(e.id)::int AS entries
          FROM ledger_journals j LEFT JOIN ledger_entries e ON e.journal_id = j.id
          GROUP BY j.id HAVING coalesce(sum(e.amount_minor), 0) <> 0 OR count(e.id) < 2`,
  },
  {
    invariant: "each merchant balance equals the sum of its entries",
    sql: `SELECT a.id AS account, a.balance_minor::text AS balance_minor, coalesce(sum(e.amount_minor), 0)::text AS entries_minor
          FROM ledger_accounts a LEFT JOIN ledger_entries e ON e.account_id = a.id
          WHERE a.merchant_id IS NOT NULL GROUP BY a.id HAVING a.balance_minor <> coalesce(sum(e.amount_minor), 0)`,
  },
  {
    invariant: 'no merchant balance is below zero',
    sql: `SELECT id AS account, balance_minor::text AS balance_minor FROM ledger_accounts WHERE balance_minor < 0`,
  },
];

/** The ledger's settlement of credits: its own journals, whatever product credited them. */
export const SETTLEMENT_INVARIANTS: readonly LedgerInvariant[] = [
  {
    invariant: "every payin credit with a net amount is settled once, or due to be",
    sql: `SELECT j.merchant_id, j.object_id AS reference, s.id::text AS settlement_journal, d.due_at
          FROM ledger_journals j
          JOIN ledger_entries e ON e.journal_id = j.id AND e.kind = 'pending'
          LEFT JOIN ledger_journals s ON s.merchant_id = j.merchant_id AND s.object_type = j.object_type AND s.object_id = j.object_id AND s.type = 'settlement'
          LEFT JOIN ledger_settlements_due d ON d.merchant_id = j.merchant_id AND d.object_type = j.object_type AND d.object_id = j.object_id
          WHERE j.type = 'payin_credit'
          GROUP BY j.id, s.id, d.due_at
          HAVING sum(e.amount_minor) > 0 AND ((s.id IS NULL) = (d.due_at IS NULL))`,
  },
];

/** Every broken one of `invariants` in the database behind `client`; none when the ledger holds. */
export async function checkInvariants(client: SqlQueryable, invariants: readonly LedgerInvariant[]): Promise<LedgerProblem[]> {
  const problems: LedgerProblem[] = [];
  for (const { invariant, sql } of invariants) {
    const { rows } = await client.query<Record<string, unknown>>(`${sql} LIMIT ${ROWS_PER_PROBLEM}`);
    if (rows.length > 0) problems.push({ invariant, rows });
  }
  return problems;
}

/**
 * How many rows break each of `invariants` in the database behind `client`, 0
 * for one that holds: what the scheduled check reports. Each is one read-only
 * statement, which costs what `checkInvariants`'s does on a ledger that holds
 * (the same scans, to the end, to find no row).
 */
export async function countBroken(client: SqlQueryable, invariants: readonly LedgerInvariant[]): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const { invariant, sql } of invariants) {
    const { rows } = await client.query<{ count: string }>(`SELECT count(*)::text AS count FROM (${sql}) AS broken`);
    counts[invariant] = Number(rows[0]?.count ?? 0);
  }
  return counts;
}
