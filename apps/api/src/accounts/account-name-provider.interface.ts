/** Injection token of the AccountNameProvider. */
export const AccountNameProvider = Symbol('AccountNameProvider');

export type AccountNameLookup =
  | { outcome: 'found'; accountName: string }
  | { outcome: 'not-found' }
  | { outcome: 'dormant' }
  | { outcome: 'bank-unavailable' }
  /** The provider did not answer in time: nothing is known of the account. */
  | { outcome: 'timeout' };

/** Resolves an account holder's name at the beneficiary's bank. */
export interface AccountNameProvider {
  /** Which provider this is: the enquiry cache keeps each provider's names apart, so the sandbox's fixed names never answer for a real provider sharing its Redis. */
  readonly name: string;
  /** Must stop work and reject when `signal` aborts (the service's enquiry timeout). */
  lookup(query: { bankCode: string; accountNumber: string; signal: AbortSignal }): Promise<AccountNameLookup>;
}
