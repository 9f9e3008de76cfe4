import { LEDGER_SQL, type LedgerInvariant } from '../ledger/ledger-check';

/** What the ledger must hold of operators' corrections: checked by `ledger:check` and the scheduled check, beside the ledger's own. */
export const RECONCILIATION_LEDGER_INVARIANTS: readonly LedgerInvariant[] = [
  {
    invariant: "every correction journal is a resolved discrepancy's, with its reason and who resolved it",
    sql: `SELECT c.id::text AS journal, c.merchant_id, c.object_type, c.object_id
          FROM ${LEDGER_SQL.corrections} c
          WHERE NOT EXISTS (SELECT 1 FROM reconciliation_discrepancies d
                            WHERE d.correction_journal_id = c.id AND d.status = 'resolved' AND d.resolution = 'corrected' AND d.resolution_reason <> '' AND d.resolved_by <> '')`,
  },
];
