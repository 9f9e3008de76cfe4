import type { PayoutFailureReason } from '@paysign/contracts';
import { makeNuban } from '../../banks/nuban';

/** What the sandbox provider does with a transfer to one of its documented accounts. */
export type SandboxPayoutBehaviour =
  | { kind: 'fails'; reason: PayoutFailureReason }
  | { kind: 'pending-then-successful'; statusChecks: number }
  | { kind: 'stays-pending' }
  | { kind: 'answer-lost' }
  | { kind: 'reversed-after'; seconds: number }
  | { kind: 'renamed'; nameAtDispatch: string }
  | { kind: 'tier-one'; maxMinor: bigint };

export interface SandboxPayoutAccount {
  bankCode: string;
  accountNumber: string;
  /** The name an enquiry answers. */
  accountName: string;
  behaviour: SandboxPayoutBehaviour;
}

const account = (serial: string, accountName: string, behaviour: SandboxPayoutBehaviour): SandboxPayoutAccount => ({ bankCode: '058', accountNumber: makeNuban('058', serial), accountName, behaviour });

/**
 * The sandbox payout provider's documented accounts (docs/sandbox.md lists
 * them; a test keeps the two in step). Every other account an enquiry finds
 * is paid successfully, SANDBOX_PAYOUT_DELAY_MS (2 s) after it is sent.
 */
export const SANDBOX_PAYOUT_ACCOUNTS: readonly SandboxPayoutAccount[] = [
  account('300000001', 'KEMI BALOGUN', { kind: 'fails', reason: 'account_not_found' }),
  account('300000002', 'TUNDE BAKARE', { kind: 'fails', reason: 'account_dormant' }),
  account('300000003', 'FATIMA BELLO', { kind: 'fails', reason: 'beneficiary_bank_unavailable' }),
  account('300000004', 'EMEKA OBI', { kind: 'fails', reason: 'do_not_honor' }),
  account('300000005', 'HAUWA SANI', { kind: 'fails', reason: 'suspected_fraud' }),
  account('300000006', 'SEGUN ALAO', { kind: 'fails', reason: 'provider_error' }),
  account('300000007', 'AMAKA EZE', { kind: 'pending-then-successful', statusChecks: 2 }),
  account('300000008', 'IBRAHIM MUSA', { kind: 'answer-lost' }),
  account('300000009', 'YETUNDE ADE', { kind: 'reversed-after', seconds: 60 }),
  account('300000010', 'TEMI OLADIPO', { kind: 'renamed', nameAtDispatch: 'TEMI OLADIPO-WILLIAMS' }),
  account('300000011', 'UCHE NNAMDI', { kind: 'tier-one', maxMinor: 5_000_000n }),
  account('300000012', 'BISI COLE', { kind: 'stays-pending' }),
];

export function sandboxPayoutAccount(bankCode: string, accountNumber: string): SandboxPayoutAccount | undefined {
  return SANDBOX_PAYOUT_ACCOUNTS.find((candidate) => candidate.bankCode === bankCode && candidate.accountNumber === accountNumber);
}
