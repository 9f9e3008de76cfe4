/** Injection token of the account-name adapter enquiries use (ACCOUNT_NAME_PROVIDER). */
export const AccountNameProvider = Symbol('AccountNameProvider');

export type AccountNameLookup =
  | { outcome: 'found'; accountName: string }
  | { outcome: 'not-found' }
  | { outcome: 'dormant' }
  | { outcome: 'bank-unavailable' }
  /** The provider did not answer in time: nothing is known of the account. */
  | { outcome: 'timeout' };

/**
 * The account names port: resolves an account holder's name at the
 * beneficiary's bank. What an adapter must guarantee: `not-found` and
 * `dormant` are the bank's word on the account; anything the adapter could
 * not learn (no answer, a bank it cannot reach) is `bank-unavailable` or
 * `timeout`, never `not-found`, since a payout fails on `not-found`.
 */
export interface AccountNameProvider {
  /** Which provider this is: the enquiry cache keeps each provider's names apart, so the sandbox's fixed names never answer for a real provider sharing its Redis. */
  readonly name: string;
  /**
   * Must stop work and reject when `signal` aborts (the service's enquiry timeout).
   * `merchantId`: the merchant the enquiry is for (null: the service's own), so that one merchant's failures are told from a failing provider.
   */
  lookup(query: { bankCode: string; accountNumber: string; merchantId: string | null; signal: AbortSignal }): Promise<AccountNameLookup>;
}
