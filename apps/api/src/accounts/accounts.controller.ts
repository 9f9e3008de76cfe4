import { Controller, HttpCode, Post, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { AccountEnquiryResult } from '@paysign/contracts';
import { VerifiedBody } from '../http/verified-body.decorator';
import { validateBody } from '../http/validate-body';
import { findBank } from '../banks/bank-catalogue';
import { EnquiryRateLimit } from '../rate-limit/key-rate-limiter';
import { ACCOUNT_ENQUIRY_FIELDS, AccountEnquiryDto, BANK_CODE_PATTERN } from './account-enquiry.dto';
import { AccountEnquiryService } from './account-enquiry.service';

@Controller('merchant-api/account')
export class AccountsController {
  constructor(private readonly enquiries: AccountEnquiryService) {}

  @Post('inquiry')
  @EnquiryRateLimit()
  @HttpCode(200)
  async enquire(@VerifiedBody() body: Record<string, unknown>, @Req() request: FastifyRequest): Promise<AccountEnquiryResult> {
    const unknownBank =
      typeof body.bankCode === 'string' && BANK_CODE_PATTERN.test(body.bankCode) && !findBank(body.bankCode)
        ? [{ field: 'bankCode', code: 'unknown_bank', message: `bankCode ${body.bankCode} is not a supported bank; use a code from GET /payment/merchant-api/banks.` }]
        : [];
    const { bankCode, accountNumber } = validateBody(AccountEnquiryDto, ACCOUNT_ENQUIRY_FIELDS, body, unknownBank);
    const merchant = request.merchant as NonNullable<FastifyRequest['merchant']>;
    return this.enquiries.enquire(merchant.merchantId, bankCode, accountNumber);
  }
}
