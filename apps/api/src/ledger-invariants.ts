import type { SqlQueryable } from './db/sql-client';
import { BALANCE_INVARIANTS, checkInvariants, SETTLEMENT_INVARIANTS, type LedgerInvariant, type LedgerProblem } from './ledger/ledger-check';
import { PAYIN_LEDGER_INVARIANTS } from './payins/payin-ledger-invariants';
import { PAYOUT_LEDGER_INVARIANTS } from './payouts/payout-ledger-invariants';
import { RECONCILIATION_LEDGER_INVARIANTS } from './reconciliation/reconciliation-ledger-invariants';
import { REFUND_LEDGER_INVARIANTS } from './refunds/refund-ledger-invariants';
import { SETTLEMENT_LEDGER_INVARIANTS } from './settlements/settlement-ledger-invariants';

/** Every invariant of the ledger, the ledger's own and each product's, in the order `ledger:check` reports them: a payin's credit before its settlement. */
export const LEDGER_INVARIANTS: readonly LedgerInvariant[] = [...BALANCE_INVARIANTS, ...PAYIN_LEDGER_INVARIANTS, ...SETTLEMENT_INVARIANTS, ...PAYOUT_LEDGER_INVARIANTS, ...REFUND_LEDGER_INVARIANTS, ...SETTLEMENT_LEDGER_INVARIANTS, ...RECONCILIATION_LEDGER_INVARIANTS];

/** Every broken invariant of the ledger in the database behind `client`; none when it holds. Read by `ledger:check` and by the tests after every step they take. */
export function checkLedger(client: SqlQueryable): Promise<LedgerProblem[]> {
  return checkInvariants(client, LEDGER_INVARIANTS);
}
