import { LEDGER_SQL, type LedgerInvariant } from '../ledger/ledger-check';

/** What the ledger must hold of payouts: checked by `ledger:check` and by the tests, beside the ledger's own invariants. */
export const PAYOUT_LEDGER_INVARIANTS: readonly LedgerInvariant[] = [
  {
    invariant: 'every payout has the journals of its state, for its amount and fee',
    sql: `SELECT p.merchant_id, p.reference, p.status, coalesce(string_agg(j.type, ',' ORDER BY j.type), '') AS journals
          FROM payouts p LEFT JOIN ${LEDGER_SQL.journalsOfPayouts} j ON j.merchant_id = p.merchant_id AND j.object_type = p.purpose AND j.object_id = p.reference
          GROUP BY p.merchant_id, p.reference, p.status, p.amount_minor, p.fee_minor
          HAVING coalesce(string_agg(j.type, ',' ORDER BY j.type), '') <> CASE p.status
                   WHEN 'PENDING_APPROVAL' THEN 'payout_hold' WHEN 'BATCHED' THEN 'payout_hold' WHEN 'QUEUED' THEN 'payout_hold' WHEN 'PROCESSING' THEN 'payout_hold'
                   WHEN 'SUCCESSFUL' THEN 'payout_debit,payout_hold' WHEN 'REVERSED' THEN 'payout_debit,payout_hold,payout_reversal'
                   ELSE 'payout_hold,payout_release' END
              OR p.amount_minor + p.fee_minor <> (SELECT coalesce(sum(e.amount_minor), 0) FROM ${LEDGER_SQL.entries} e JOIN ${LEDGER_SQL.journalsOfPayouts} h ON h.id = e.journal_id
                   WHERE h.merchant_id = p.merchant_id AND h.object_type = p.purpose AND h.object_id = p.reference AND h.type = 'payout_hold' AND e.kind = 'held')`,
  },
];
