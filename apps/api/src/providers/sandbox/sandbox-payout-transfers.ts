import { randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import type { PayoutFailureReason } from '@paysign/contracts';
import type { AccountNameLookup, AccountNameProvider } from '../ports/account-names.port';
import { sandboxPayoutAccount } from './sandbox-payout-accounts';
import type { SqlClient } from '../../db/sql-client';
import { sqlNow, type StoreClock } from '../../db/store-clock';
import type { PayoutTransfers, SendAnswer, Transfer, TransferStatus } from '../ports/payout-transfers.port';

interface TransferRow {
  outcome: 'successful' | 'failed' | 'pending';
  failure_reason: PayoutFailureReason;
  bank_code: string;
  account_number: string;
  status_checks: number;
  reversed: boolean;
}

/**
 * The sandbox's payout provider: it pays no one, but keeps its books in the
 * payin database as a provider would (sandbox_payout_transfers), so that a
 * restart, a second instance or a test sees what it was asked to do. Its
 * documented accounts (sandbox-payout-accounts.ts, docs/sandbox.md)
 * fail, stay pending, lose their answer, are reversed or renamed; any other
 * account is paid `delayMs` after it is sent.
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
    return answerOf(recorded);
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
    const behaviour = sandboxPayoutAccount(row.bank_code, row.account_number)?.behaviour;
    if (behaviour?.kind === 'pending-then-successful') return row.status_checks >= behaviour.statusChecks ? { outcome: 'successful' } : { outcome: 'pending' };
    if (behaviour?.kind === 'stays-pending') return { outcome: 'pending' };
    if (behaviour?.kind === 'reversed-after' && new Date(row.now).getTime() >= new Date(row.received_at).getTime() + behaviour.seconds * 1000) {
      return { outcome: 'reversed', reason: 'reversed_by_beneficiary_bank' };
    }
    return answerOf(row);
  }
}

function answerOf(row: Pick<TransferRow, 'outcome' | 'failure_reason'>): SendAnswer {
  if (row.outcome === 'failed') return { outcome: 'failed', reason: row.failure_reason };
  return { outcome: row.outcome };
}
