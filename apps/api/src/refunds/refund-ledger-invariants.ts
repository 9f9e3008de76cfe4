import { LEDGER_SQL, type LedgerInvariant } from '../ledger/ledger-check';

/** What the ledger must hold of refunds: checked by `ledger:check` and by the tests, beside the ledger's own invariants. */
export const REFUND_LEDGER_INVARIANTS: readonly LedgerInvariant[] = [
  {
    invariant: 'every refund has the journals of its state, holding its amount',
    sql: `SELECT r.merchant_id, r.reference, r.status, coalesce(string_agg(j.type, ',' ORDER BY j.type), '') AS journals
          FROM refunds r LEFT JOIN ${LEDGER_SQL.journalsOf('refund')} j ON j.merchant_id = r.merchant_id AND j.object_id = r.reference
          GROUP BY r.merchant_id, r.reference, r.status, r.amount_minor
          HAVING coalesce(string_agg(j.type, ',' ORDER BY j.type), '') <> CASE r.status
                   WHEN 'SUCCESSFUL' THEN 'refund_debit,refund_hold' WHEN 'FAILED' THEN 'refund_hold,refund_release' WHEN 'CANCELLED' THEN 'refund_hold,refund_release'
                   ELSE 'refund_hold' END
              OR r.amount_minor <> (SELECT coalesce(sum(e.amount_minor), 0) FROM ${LEDGER_SQL.entries} e JOIN ${LEDGER_SQL.journalsOf('refund')} h ON h.id = e.journal_id
                   WHERE h.merchant_id = r.merchant_id AND h.object_id = r.reference AND h.type = 'refund_hold' AND e.kind = 'held')`,
  },
  {
    invariant: "each payin's successful and in-flight refunds are its refunded and refunding totals, and never more than it",
    sql: `SELECT p.merchant_id, p.reference, p.amount_minor::text AS amount_minor, p.refunded_minor::text AS refunded_minor, p.refunding_minor::text AS refunding_minor,
                 coalesce(r.successful, 0)::text AS successful_refunds_minor, coalesce(r.in_flight, 0)::text AS in_flight_refunds_minor
          FROM payins p LEFT JOIN (
            SELECT merchant_id, payin_reference,
                   sum(amount_minor) FILTER (WHERE status = 'SUCCESSFUL') AS successful,
                   sum(amount_minor) FILTER (WHERE status IN ('PENDING', 'PROCESSING', 'REQUIRES_ACTION')) AS in_flight
            FROM refunds GROUP BY merchant_id, payin_reference) r ON r.merchant_id = p.merchant_id AND r.payin_reference = p.reference
          WHERE p.refunded_minor <> coalesce(r.successful, 0) OR p.refunding_minor <> coalesce(r.in_flight, 0) OR p.refunded_minor + p.refunding_minor > p.amount_minor
             OR (p.status <> 'SUCCESSFUL' AND p.refunded_minor + p.refunding_minor > 0)`,
  },
];
