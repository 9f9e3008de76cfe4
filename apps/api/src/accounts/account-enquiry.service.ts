import { Inject, Injectable, Logger } from '@nestjs/common';
import type { AccountEnquiryResult } from '@paysign/contracts';
import type { AppConfig } from '../config/app-config';
import { AppConfigToken } from '../config/clock';
import { ApiException } from '../errors/api.exception';
import { AccountNameProvider } from './account-name-provider.interface';
import { EnquiryCache } from './enquiry-cache';
import { checkNuban } from './nuban';

export const ENQUIRY_SUCCESS_CODE = '00000000';

@Injectable()
export class AccountEnquiryService {
  private readonly logger = new Logger(AccountEnquiryService.name);

  constructor(
    @Inject(AccountNameProvider) private readonly provider: AccountNameProvider,
    @Inject(EnquiryCache) private readonly cache: EnquiryCache,
    @Inject(AppConfigToken) private readonly config: AppConfig,
  ) {}

  /** Resolves the account holder's name; every failure is an ApiException with `success: false`. */
  async enquire(bankCode: string, accountNumber: string): Promise<AccountEnquiryResult> {
    if (checkNuban(bankCode, accountNumber) === 'invalid') {
      throw failure('NUBAN_CHECK_FAILED', `${accountNumber} is not a valid NUBAN for bank ${bankCode}: its check digit is wrong. Check the number with the beneficiary; the bank was not asked.`);
    }
    const cacheKey = `${bankCode}:${accountNumber}`;
    const cached = await this.cache.get(cacheKey).catch(() => undefined);
    if (cached !== undefined) return success(cached);

    const lookup = await this.lookup(bankCode, accountNumber);
    switch (lookup.outcome) {
      case 'found':
        if (this.config.enquiryCacheTtlSeconds > 0) {
          await this.cache.set(cacheKey, lookup.accountName, this.config.enquiryCacheTtlSeconds * 1000).catch((error: Error) => {
            this.logger.warn(`enquiry cache write failed: ${error.message}`);
          });
        }
        return success(lookup.accountName);
      case 'not-found':
        throw failure('ACCOUNT_NOT_FOUND', `No account ${accountNumber} exists at bank ${bankCode}. Check the account number with the beneficiary.`);
      case 'dormant':
        throw failure('ACCOUNT_DORMANT', `Account ${accountNumber} at bank ${bankCode} is dormant and cannot receive payouts. Ask the beneficiary for another account.`);
      case 'bank-unavailable':
        throw failure('BANK_UNAVAILABLE', `Bank ${bankCode} is not answering enquiries right now. Retry later with backoff.`);
    }
  }

  private async lookup(bankCode: string, accountNumber: string) {
    const signal = AbortSignal.timeout(this.config.enquiryTimeoutMs);
    try {
      return await this.provider.lookup({ bankCode, accountNumber, signal });
    } catch (error) {
      if (signal.aborted) throw failure('UPSTREAM_TIMEOUT', `Bank ${bankCode} did not answer within ${this.config.enquiryTimeoutMs} ms. Retry later with backoff.`);
      this.logger.error(`account name provider failed: ${(error as Error).message}`);
      throw failure('BANK_UNAVAILABLE', `Bank ${bankCode} could not be reached. Retry later with backoff.`);
    }
  }
}

function success(accountName: string): AccountEnquiryResult {
  return { success: true, code: ENQUIRY_SUCCESS_CODE, accountName, message: 'Success' };
}

function failure(code: 'NUBAN_CHECK_FAILED' | 'ACCOUNT_NOT_FOUND' | 'ACCOUNT_DORMANT' | 'BANK_UNAVAILABLE' | 'UPSTREAM_TIMEOUT', message: string): ApiException {
  return new ApiException(code, message, { enquiryFailure: true });
}
