import { LEDGER_SQL, type LedgerInvariant } from '../ledger/ledger-check';

/** What the ledger must hold of settlements, beside their transfers' (the payouts' invariant covers each transfer's journals): checked by `ledger:check` and the tests. */
export const SETTLEMENT_LEDGER_INVARIANTS: readonly LedgerInvariant[] = [
  {
    invariant: 'every settlement covered entries of available that sum to its amount, and its transfer is for that amount',
    sql: `SELECT s.merchant_id, s.id, s.amount_minor
          FROM settlements s LEFT JOIN payouts t ON t.merchant_id = s.merchant_id AND t.reference = s.id AND t.purpose = 'settlement'
          WHERE t.reference IS NULL OR t.amount_minor <> s.amount_minor
             OR s.amount_minor <> (SELECT coalesce(sum(e.amount_minor), 0) FROM ${LEDGER_SQL.merchantEntries} e
                                   WHERE e.merchant_id = s.merchant_id AND e.currency = s.currency AND e.kind = 'available' AND e.id > s.covers_after_entry_id AND e.id < s.hold_entry_id)`,
  },
];
