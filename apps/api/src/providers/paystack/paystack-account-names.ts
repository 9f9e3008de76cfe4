import type { AccountNameLookup, AccountNameProvider } from '../ports/account-names.port';
import { ProviderUnavailable } from '../../upstream/upstream-client';
import type { PaystackApi } from './paystack-api';
import { paystackBankCode } from './paystack-banks';

/**
 * Account enquiry through Paystack's Resolve Account Number
 * (https://paystack.com/docs/api/verification/#resolve-account). Its 422
 * "Could not resolve account name" is an account the bank does not have; a
 * bank Paystack does not list, any other refusal, a 5xx or an open circuit
 * (the bank's own, or the enquiries') is a bank we cannot reach now; a timeout is a timeout. Paystack reports no
 * dormant accounts, so none is ever answered dormant.
 */
export class PaystackAccountNameProvider implements AccountNameProvider {
  readonly name = 'paystack';
  constructor(private readonly api: PaystackApi) {}

  async lookup({ bankCode, accountNumber, merchantId, signal }: { bankCode: string; accountNumber: string; merchantId: string | null; signal: AbortSignal }): Promise<AccountNameLookup> {
    const code = paystackBankCode(bankCode);
    if (code === undefined) return { outcome: 'bank-unavailable' };
    try {
      const resolved = await this.api.resolveAccount(accountNumber, code, { signal, merchantId });
      if (resolved.found) return { outcome: 'found', accountName: resolved.accountName };
      return resolved.status === 422 || resolved.status === 404 ? { outcome: 'not-found' } : { outcome: 'bank-unavailable' };
    } catch (error) {
      if (!(error instanceof ProviderUnavailable)) throw error;
      return error.outcome === 'timeout' ? { outcome: 'timeout' } : { outcome: 'bank-unavailable' };
    }
  }
}
