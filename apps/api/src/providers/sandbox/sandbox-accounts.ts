import { makeNuban } from '../../banks/nuban';
import { SANDBOX_PAYOUT_ACCOUNTS } from './sandbox-payout-accounts';

export type SandboxBehaviour = { outcome: 'found'; accountName: string } | { outcome: 'not-found' } | { outcome: 'dormant' } | { outcome: 'bank-unavailable' } | { outcome: 'timeout' };

export interface SandboxAccount {
  bankCode: string;
  accountNumber: string;
  behaviour: SandboxBehaviour;
}

/**
 * The sandbox provider's documented accounts (docs/sandbox.md lists them; a
 * test keeps the two in step). NUBAN numbers are made with the check-digit
 * algorithm, so they pass the NUBAN check and reach the provider. Any other
 * valid number resolves as ACCOUNT_NOT_FOUND.
 */
export const SANDBOX_ACCOUNTS: readonly SandboxAccount[] = [
  found('058', makeNuban('058', '012345678'), 'ADAEZE NWOSU'),
  found('044', makeNuban('044', '000111222'), 'CHINEDU OKAFOR'),
  found('057', makeNuban('057', '100000001'), 'BOLANLE ADEYEMI'),
  found('033', makeNuban('033', '204060801'), 'MUSA IBRAHIM'),
  found('50211', makeNuban('50211', '200000001'), 'NGOZI EZE'),
  found('999992', '8031234567', 'FUNMILAYO ALABI'),
  { bankCode: '058', accountNumber: makeNuban('058', '000000001'), behaviour: { outcome: 'not-found' } },
  { bankCode: '058', accountNumber: makeNuban('058', '000000002'), behaviour: { outcome: 'dormant' } },
  { bankCode: '058', accountNumber: makeNuban('058', '000000003'), behaviour: { outcome: 'bank-unavailable' } },
  { bankCode: '058', accountNumber: makeNuban('058', '000000004'), behaviour: { outcome: 'timeout' } },
  // Found by an enquiry like any account; what a payout to each does is the sandbox payout provider's.
  ...SANDBOX_PAYOUT_ACCOUNTS.map(({ bankCode, accountNumber, accountName }) => found(bankCode, accountNumber, accountName)),
];

function found(bankCode: string, accountNumber: string, accountName: string): SandboxAccount {
  return { bankCode, accountNumber, behaviour: { outcome: 'found', accountName } };
}
