import type { SqlQueryable } from '../db/sql-client';

/** One broken invariant, with the rows that break it. */
export interface LedgerProblem {
  invariant: string;
  rows: Record<string, unknown>[];
}

/** At most this many rows are named per invariant: enough to start from, however broken the ledger is. */
const ROWS_PER_PROBLEM = 20;

/**
 * The ledger's invariants, each a query for the rows that break it; an
 * empty answer for every one is a ledger that holds. Read by `ledger:check`
 * and by the tests after every step they take.
 */
const INVARIANTS: readonly { invariant: string; sql: string }[] = [
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
  {
    invariant: 'every successful payin is credited, with its fee, and nothing else is',
    sql: `SELECT p.merchant_id, p.reference, p.status, p.amount_minor::text AS amount_minor, p.fee_minor::text AS fee_minor, j.id::text AS credit_journal
          FROM payins p LEFT JOIN ledger_journals j ON j.merchant_id = p.merchant_id AND j.object_type = 'payin' AND j.object_id = p.reference AND j.type = 'payin_credit'
          WHERE (p.status = 'SUCCESSFUL') <> (j.id IS NOT NULL)
             OR (j.id IS NOT NULL AND (p.fee_minor IS NULL OR p.amount_minor - p.fee_minor <> (SELECT coalesce(sum(e.amount_minor), 0) FROM ledger_entries e WHERE e.journal_id = j.id AND e.kind = 'pending')))`,
  },
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
  {
    invariant: 'every payout has the journals of its state, for its amount and fee',
    sql: `SELECT p.merchant_id, p.reference, p.status, coalesce(string_agg(j.type, ',' ORDER BY j.type), '') AS journals
          FROM payouts p LEFT JOIN ledger_journals j ON j.merchant_id = p.merchant_id AND j.object_type = 'payout' AND j.object_id = p.reference
          GROUP BY p.merchant_id, p.reference, p.status, p.amount_minor, p.fee_minor
          HAVING coalesce(string_agg(j.type, ',' ORDER BY j.type), '') <> CASE p.status
                   WHEN 'PENDING_APPROVAL' THEN 'payout_hold' WHEN 'BATCHED' THEN 'payout_hold' WHEN 'QUEUED' THEN 'payout_hold' WHEN 'PROCESSING' THEN 'payout_hold'
                   WHEN 'SUCCESSFUL' THEN 'payout_debit,payout_hold' WHEN 'REVERSED' THEN 'payout_debit,payout_hold,payout_reversal'
                   ELSE 'payout_hold,payout_release' END
              OR p.amount_minor + p.fee_minor <> (SELECT coalesce(sum(e.amount_minor), 0) FROM ledger_entries e JOIN ledger_journals h ON h.id = e.journal_id
                   WHERE h.merchant_id = p.merchant_id AND h.object_type = 'payout' AND h.object_id = p.reference AND h.type = 'payout_hold' AND e.kind = 'held')`,
  },
];

/** Every broken invariant of the ledger in the database behind `client`; none when it holds. */
export async function checkLedger(client: SqlQueryable): Promise<LedgerProblem[]> {
  const problems: LedgerProblem[] = [];
  for (const { invariant, sql } of INVARIANTS) {
    const { rows } = await client.query<Record<string, unknown>>(`${sql} LIMIT ${ROWS_PER_PROBLEM}`);
    if (rows.length > 0) problems.push({ invariant, rows });
  }
  return problems;
}

/** The invariants checked, in order, for the report. */
export const LEDGER_INVARIANTS = INVARIANTS.map(({ invariant }) => invariant);
