import { Inject, Injectable, Logger } from '@nestjs/common';
import type { AccountEnquiryFailure, AccountEnquiryResult, ErrorMessageParams } from '@paysign/contracts';
import type { AppConfig } from '../config/app-config';
import { AppConfigToken } from '../config/app-config.token';
import { ApiException } from '../errors/api.exception';
import { AccountNameProvider } from '../providers/ports/account-names.port';
import { EnquiryCache } from './enquiry-cache';
import { EnquiryRecords } from './enquiry-records';
import { checkNuban } from '../banks/nuban';

export const ENQUIRY_SUCCESS_CODE = '00000000';

@Injectable()
export class AccountEnquiryService {
  private readonly logger = new Logger(AccountEnquiryService.name);

  constructor(
    @Inject(AccountNameProvider) private readonly provider: AccountNameProvider,
    @Inject(EnquiryCache) private readonly cache: EnquiryCache,
    @Inject(AppConfigToken) private readonly config: AppConfig,
    private readonly records: EnquiryRecords,
  ) {}

  /**
   * Resolves the account holder's name, and keeps the enquiry for the
   * merchant: its `enquiryId` is what a payout to the account names. Every
   * failure is an ApiException with `success: false`.
   */
  async enquire(merchantId: string, bankCode: string, accountNumber: string): Promise<AccountEnquiryResult> {
    const accountName = await this.accountName(merchantId, bankCode, accountNumber);
    const { enquiryId, expiresAt } = await this.records.record({ merchantId, bankCode, accountNumber, accountName });
    return { success: true, code: ENQUIRY_SUCCESS_CODE, accountName, message: 'Success', enquiryId, expiresAt: expiresAt.toISOString() };
  }

  /** The name behind the account, from the cache or the provider. */
  private async accountName(merchantId: string, bankCode: string, accountNumber: string): Promise<string> {
    if (checkNuban(bankCode, accountNumber) === 'invalid') throw failure('NUBAN_CHECK_FAILED', { bankCode, accountNumber });
    const cacheKey = `${this.provider.name}:${bankCode}:${accountNumber}`;
    // ENQUIRY_CACHE_TTL_SECONDS=0 turns the cache off: nothing is read from it either, not even what another deployment on the same Redis wrote.
    const cacheOn = this.config.enquiryCacheTtlSeconds > 0;
    const cached = cacheOn ? await this.cache.get(cacheKey).catch(() => undefined) : undefined;
    if (cached !== undefined) return cached;

    const lookup = await this.lookup(merchantId, bankCode, accountNumber);
    switch (lookup.outcome) {
      case 'found':
        if (cacheOn) {
          await this.cache.set(cacheKey, lookup.accountName, this.config.enquiryCacheTtlSeconds * 1000).catch((error: Error) => {
            this.logger.warn(`enquiry cache write failed: ${error.message}`);
          });
        }
        return lookup.accountName;
      case 'not-found':
        throw failure('ACCOUNT_NOT_FOUND', { bankCode, accountNumber });
      case 'dormant':
        throw failure('ACCOUNT_DORMANT', { bankCode, accountNumber });
      case 'bank-unavailable':
        throw failure('BANK_UNAVAILABLE', { bankCode });
      case 'timeout':
        throw failure('UPSTREAM_TIMEOUT', { bankCode, timeoutMs: this.config.enquiryTimeoutMs });
    }
  }

  private async lookup(merchantId: string, bankCode: string, accountNumber: string) {
    const signal = AbortSignal.timeout(this.config.enquiryTimeoutMs);
    try {
      return await this.provider.lookup({ bankCode, accountNumber, merchantId, signal });
    } catch (error) {
      if (signal.aborted) throw failure('UPSTREAM_TIMEOUT', { bankCode, timeoutMs: this.config.enquiryTimeoutMs });
      this.logger.error(`account name provider failed: ${(error as Error).message}`);
      throw failure('BANK_UNAVAILABLE', { bankCode });
    }
  }
}

/** The enquiry failures the contract answers with `success: false`. */
function failure<C extends AccountEnquiryFailure['code']>(code: C, params: ErrorMessageParams<C>): ApiException {
  return new ApiException(code, params, { enquiryFailure: true });
}
