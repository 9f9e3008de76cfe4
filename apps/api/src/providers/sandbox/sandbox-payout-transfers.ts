import { randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import type { PayoutFailureReason } from '@paysign/contracts';
import type { AccountNameLookup, AccountNameProvider } from '../ports/account-names.port';
import { sandboxPayoutAccount } from './sandbox-payout-accounts';
import type { SqlClient } from '../../db/sql-client';
import { sqlNow, type StoreClock } from '../../db/store-clock';
import type { PayoutTransfers, SendAnswer, Transfer, TransferStatus } from '../ports/payout-transfers.port';

interface TransferRow {
  outcome: BooksOutcome;
  failure_reason: PayoutFailureReason;
  bank_code: string;
  account_number: string;
  status_checks: number;
  reversed: boolean;
}

/** A transfer's outcome in the sandbox provider's books. */
type BooksOutcome = 'successful' | 'failed' | 'pending' | 'reversed';

/** An outcome the sandbox's simulation answers for the provider with: a transfer made, failed, or returned after it was made. */
export type SimulatedTransferOutcome = { outcome: 'successful' } | { outcome: 'failed'; reason: PayoutFailureReason } | { outcome: 'reversed'; reason: PayoutFailureReason };

/**
 * The sandbox's payout provider: it pays no one, but keeps its books in the
 * payin database as a provider would (sandbox_payout_transfers), so that a
 * restart, a second instance or a test sees what it was asked to do. Its
 * documented accounts (sandbox-payout-accounts.ts, docs/sandbox.md)
 * fail, stay pending, lose their answer, are reversed or renamed; any other
 * account is paid `delayMs` after it is sent.
 *
 * Its books are the only word on a transfer: a simulated outcome is written
 * there (`recordSimulatedOutcome`) before the payout moves, and a documented
 * account's later answer (paid at its second check, reversed after a minute)
 * is written there when it is first given, so that a send, a status check
 * and a simulation never tell two stories of one transfer.
 */
export class SandboxPayoutTransfers implements PayoutTransfers {
  constructor(
    private readonly client: SqlClient,
    private readonly storeClock: StoreClock,
    private readonly names: AccountNameProvider,
    private readonly delayMs: number,
  ) {}

  /** `PSX-` and 32 hex digits, as the sandbox has always minted them. */
  newReference(): string {
    return `PSX-${randomUUID().replaceAll('-', '')}`;
  }

  async accountName(account: { bankCode: string; accountNumber: string; merchantId: string }, signal: AbortSignal): Promise<AccountNameLookup> {
    const documented = sandboxPayoutAccount(account.bankCode, account.accountNumber);
    if (documented?.behaviour.kind === 'renamed') return { outcome: 'found', accountName: documented.behaviour.nameAtDispatch };
    return this.names.lookup({ bankCode: account.bankCode, accountNumber: account.accountNumber, merchantId: account.merchantId, signal });
  }

  async send(transfer: Transfer, signal: AbortSignal): Promise<SendAnswer> {
    const behaviour = sandboxPayoutAccount(transfer.bankCode, transfer.accountNumber)?.behaviour;
    const answer: SendAnswer =
      behaviour?.kind === 'fails'
        ? { outcome: 'failed', reason: behaviour.reason }
        : behaviour?.kind === 'pending-then-successful' || behaviour?.kind === 'stays-pending'
          ? { outcome: 'pending' }
          : behaviour?.kind === 'tier-one' && transfer.amountMinor > behaviour.maxMinor
            ? { outcome: 'failed', reason: 'transfer_limit_exceeded' }
            : { outcome: 'successful' };
    const params: unknown[] = [transfer.providerReference, transfer.bankCode, transfer.accountNumber, transfer.amountMinor.toString(), answer.outcome, answer.outcome === 'failed' ? answer.reason : null];
    const now = sqlNow(this.storeClock, params);
    // A resend of a reference already received moves no money again: it is counted, and answered with the transfer's state.
    const { rows } = await this.client.query<TransferRow>(
      `INSERT INTO sandbox_payout_transfers (provider_reference, bank_code, account_number, amount_minor, outcome, failure_reason, received_at) VALUES ($1, $2, $3, $4, $5, $6, ${now})
       ON CONFLICT (provider_reference) DO UPDATE SET sends = sandbox_payout_transfers.sends + 1
       RETURNING outcome, failure_reason, bank_code, account_number, status_checks, false AS reversed`,
      params,
    );
    const recorded = rows[0] as TransferRow;
    // The transfer is made; its answer never arrives, and the service's timeout ends the wait.
    if (behaviour?.kind === 'answer-lost') await delay(2_147_483_647, undefined, { signal });
    if (recorded.outcome === 'successful' && behaviour === undefined && this.delayMs > 0) await delay(this.delayMs, undefined, { signal });
    const books = answerOf(recorded);
    // A resend of a transfer already returned never reached the beneficiary this time either: a failure.
    return books.outcome === 'reversed' ? { outcome: 'failed', reason: books.reason } : books;
  }

  async status({ providerReference }: { providerReference: string }): Promise<TransferStatus> {
    const params: unknown[] = [providerReference];
    const now = sqlNow(this.storeClock, params);
    const { rows } = await this.client.query<TransferRow & { received_at: Date | string }>(
      `UPDATE sandbox_payout_transfers SET status_checks = status_checks + 1 WHERE provider_reference = $1
       RETURNING outcome, failure_reason, bank_code, account_number, status_checks, received_at, ${now} AS now`,
      params,
    );
    const row = rows[0] as (TransferRow & { received_at: Date | string; now: Date | string }) | undefined;
    if (!row) return { outcome: 'not_found' };
    const later = laterAnswerOf(row);
    if (later === undefined) return answerOf(row);
    if (later.outcome === 'pending') return later;
    // The account's later answer is written to the books when first given, unless a simulation wrote another outcome meanwhile: the books answer then.
    const written = await this.client.query<TransferRow>(
      `UPDATE sandbox_payout_transfers SET outcome = $2, failure_reason = $3 WHERE provider_reference = $1 AND outcome = $4
       RETURNING outcome, failure_reason`,
      [providerReference, later.outcome, 'reason' in later ? later.reason : null, row.outcome],
    );
    if (written.rows[0]) return later;
    const held = await this.client.query<TransferRow>('SELECT outcome, failure_reason FROM sandbox_payout_transfers WHERE provider_reference = $1', [providerReference]);
    return answerOf(held.rows[0] as TransferRow);
  }

  /**
   * Writes a simulated outcome in the books, as the provider's own word on
   * the transfer: a transfer it never received is recorded with it (and a
   * later send of the reference is answered with it); a pending one takes
   * it; a made one may only be returned (`reversed`). Resolves `recorded`,
   * or, when the books hold another outcome already, that outcome: the
   * transfer was made otherwise, and the simulation must not say it was not.
   */
  async recordSimulatedOutcome(
    transfer: { providerReference: string; bankCode: string; accountNumber: string; amountMinor: bigint },
    simulated: SimulatedTransferOutcome,
  ): Promise<{ recorded: true } | { recorded: false; books: TransferStatus }> {
    const reason = simulated.outcome === 'successful' ? null : simulated.reason;
    const params: unknown[] = [transfer.providerReference, transfer.bankCode, transfer.accountNumber, transfer.amountMinor.toString(), simulated.outcome, reason];
    const now = sqlNow(this.storeClock, params);
    // `sends` stays 0 for a transfer the simulation answered before any send: a send of it later is counted, and answered from the books.
    const { rows } = await this.client.query<TransferRow>(
      `INSERT INTO sandbox_payout_transfers AS books (provider_reference, bank_code, account_number, amount_minor, outcome, failure_reason, received_at, sends)
       VALUES ($1, $2, $3, $4, $5, $6, ${now}, 0)
       ON CONFLICT (provider_reference) DO UPDATE SET outcome = EXCLUDED.outcome, failure_reason = EXCLUDED.failure_reason
         WHERE books.outcome = 'pending'
            OR (books.outcome = 'successful' AND EXCLUDED.outcome = 'reversed')
            OR (books.outcome = EXCLUDED.outcome AND books.failure_reason IS NOT DISTINCT FROM EXCLUDED.failure_reason)
       RETURNING outcome`,
      params,
    );
    if (rows[0]) return { recorded: true };
    const held = await this.client.query<TransferRow>('SELECT outcome, failure_reason FROM sandbox_payout_transfers WHERE provider_reference = $1', [transfer.providerReference]);
    return { recorded: false, books: answerOf(held.rows[0] as TransferRow) };
  }
}

/**
 * What a documented account answers at a status check beyond what was
 * written at send: paid at its nth check, pending for ever, reversed a
 * while after it was paid. Undefined when the books' own outcome is the answer.
 */
function laterAnswerOf(row: TransferRow & { received_at: Date | string; now: Date | string }): TransferStatus | undefined {
  const behaviour = sandboxPayoutAccount(row.bank_code, row.account_number)?.behaviour;
  if (row.outcome === 'pending' && behaviour?.kind === 'pending-then-successful') return row.status_checks >= behaviour.statusChecks ? { outcome: 'successful' } : { outcome: 'pending' };
  if (row.outcome === 'pending' && behaviour?.kind === 'stays-pending') return { outcome: 'pending' };
  if (row.outcome === 'successful' && behaviour?.kind === 'reversed-after' && new Date(row.now).getTime() >= new Date(row.received_at).getTime() + behaviour.seconds * 1000) {
    return { outcome: 'reversed', reason: 'reversed_by_beneficiary_bank' };
  }
  return undefined;
}

function answerOf(row: Pick<TransferRow, 'outcome' | 'failure_reason'>): SendAnswer | { outcome: 'reversed'; reason: PayoutFailureReason } {
  if (row.outcome === 'failed' || row.outcome === 'reversed') return { outcome: row.outcome, reason: row.failure_reason };
  return { outcome: row.outcome };
}
