import type { SqlQueryable } from '../db/sql-client';
import { merchantAccount, platformAccount, type Ledger, type LedgerObjectType } from './ledger';

/** An operator's correction: `amountMinor` into the merchant's `available` (negative: out of it). */
export interface Correction {
  merchantId: string;
  currency: string;
  objectType: LedgerObjectType;
  objectId: string;
  amountMinor: bigint;
}

/**
 * Posts an operator's correction of a discrepancy no state machine settles
 * (docs/reconciliation.md) on `tx`: a `correction` journal between the
 * merchant's `available` and the money the provider holds for us
 * (`provider_settlement`), never an edit of an entry. One per object (the
 * journal's UNIQUE): resolves the journal's id, or undefined when the
 * object has one already. A debit beyond `available` throws
 * InsufficientBalanceError. The caller keeps its reason and actor, which
 * ledger:check holds it to.
 */
export async function postCorrection(ledger: Ledger, tx: SqlQueryable, correction: Correction, at: Date): Promise<string | undefined> {
  const { merchantId, currency, amountMinor } = correction;
  const posted = await ledger.post(
    tx,
    {
      type: 'correction',
      merchantId,
      currency,
      objectType: correction.objectType,
      objectId: correction.objectId,
      lines: [
        { account: merchantAccount(merchantId, currency, 'available'), type: 'correction', amountMinor },
        { account: platformAccount(currency, 'provider_settlement'), type: 'correction', amountMinor: -amountMinor },
      ],
    },
    at,
  );
  if (!posted) return undefined;
  const { rows } = await tx.query<{ id: string }>("SELECT id::text AS id FROM ledger_journals WHERE merchant_id = $1 AND object_type = $2 AND object_id = $3 AND type = 'correction'", [merchantId, correction.objectType, correction.objectId]);
  return rows[0]?.id;
}
