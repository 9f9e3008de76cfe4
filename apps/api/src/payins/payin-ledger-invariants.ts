import { LEDGER_SQL, type LedgerInvariant } from '../ledger/ledger-check';

/** What the ledger must hold of payins: checked by `ledger:check` and by the tests, beside the ledger's own invariants. */
export const PAYIN_LEDGER_INVARIANTS: readonly LedgerInvariant[] = [
  {
    invariant: 'every successful payin is credited, with its fee, and nothing else is',
    sql: `SELECT p.merchant_id, p.reference, p.status, p.amount_minor::text AS amount_minor, p.fee_minor::text AS fee_minor, j.id::text AS credit_journal
          FROM payins p LEFT JOIN ${LEDGER_SQL.journalsOf('payin')} j ON j.merchant_id = p.merchant_id AND j.object_id = p.reference AND j.type = 'payin_credit'
          WHERE (p.status = 'SUCCESSFUL') <> (j.id IS NOT NULL)
             OR (j.id IS NOT NULL AND (p.fee_minor IS NULL OR p.amount_minor - p.fee_minor <> (SELECT coalesce(sum(e.amount_minor), 0) FROM ${LEDGER_SQL.entries} e WHERE e.journal_id = j.id AND e.kind = 'pending')))`,
  },
];
