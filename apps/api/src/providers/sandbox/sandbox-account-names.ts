import type { AccountNameLookup, AccountNameProvider } from '../ports/account-names.port';
import { SANDBOX_ACCOUNTS } from './sandbox-accounts';

/** The embedded default: answers from the documented sandbox accounts. */
export class SandboxAccountNameProvider implements AccountNameProvider {
  readonly name = 'sandbox';
  private readonly accounts = new Map(SANDBOX_ACCOUNTS.map((a) => [`${a.bankCode}:${a.accountNumber}`, a.behaviour]));

  async lookup({ bankCode, accountNumber, signal }: { bankCode: string; accountNumber: string; merchantId: string | null; signal: AbortSignal }): Promise<AccountNameLookup> {
    const behaviour = this.accounts.get(`${bankCode}:${accountNumber}`) ?? { outcome: 'not-found' as const };
    if (behaviour.outcome !== 'timeout') return behaviour;
    // Like a bank that never answers: wait until the caller gives up.
    return new Promise((_, reject) => {
      if (signal.aborted) reject(signal.reason);
      signal.addEventListener('abort', () => reject(signal.reason), { once: true });
    });
  }
}
