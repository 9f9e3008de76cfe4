import { Controller, Get, Header, HttpCode, Post, Req, Res } from '@nestjs/common';
import type { DashboardComponents } from '@paysign/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ACCOUNT_NUMBER_PATTERN, BANK_CODE_PATTERN } from '../accounts/account-enquiry.dto';
import { AccountEnquiryService } from '../accounts/account-enquiry.service';
import { BANK_CATALOGUE_JSON } from '../banks/banks.controller';
import { findBank } from '../banks/bank-catalogue';
import { ApiException } from '../errors/api.exception';
import { FieldReader, jsonObject } from './dashboard-body';
import { DashboardRoute } from './dashboard-route.decorator';
import { sessionOf } from './dashboard-session.guard';
import { MemberEnquiryAllowance } from './member-enquiry-allowance';

type AccountEnquiry = DashboardComponents['schemas']['AccountEnquiry'];

/**
 * Banks and account enquiries (tag Accounts): what a member names before a
 * payout or a settlement account. The enquiry is the merchant API's own, so
 * its `enquiryId` binds a payout or an account alike.
 */
@Controller('dashboard/api')
export class AccountsController {
  constructor(
    private readonly enquiries: AccountEnquiryService,
    private readonly allowance: MemberEnquiryAllowance,
  ) {}

  @Get('banks')
  @Header('content-type', 'application/json; charset=utf-8')
  @DashboardRoute({ roles: ['owner', 'admin', 'developer', 'operations', 'approver', 'viewer'] })
  banks(): string {
    return BANK_CATALOGUE_JSON;
  }

  @Post('account-enquiries')
  @HttpCode(200)
  @DashboardRoute({ roles: ['owner', 'admin', 'operations'] })
  async enquire(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<AccountEnquiry> {
    const fields = new FieldReader(jsonObject(request), ['bankCode', 'accountNumber']);
    const bankCode = fields.string('bankCode', { pattern: BANK_CODE_PATTERN, max: 6, describe: 'a bank code of 3 to 6 digits from GET /banks' });
    const accountNumber = fields.string('accountNumber', { pattern: ACCOUNT_NUMBER_PATTERN, max: 10, describe: 'the 10 digits of a NUBAN account number' });
    if (bankCode !== '' && !findBank(bankCode)) fields.add([{ field: 'bankCode', code: 'unknown_bank', message: `bankCode ${bankCode} is not a supported bank; use a code from GET /banks.` }]);
    fields.done();
    const session = sessionOf(request);
    await this.allowance.take(session.memberId, reply);
    const found = await this.enquiries.enquire(session.merchantId, bankCode, accountNumber).catch((error: unknown) => {
      // The merchant API's enquiry failures carry `success: false`; the dashboard's errors are its plain Error body.
      if (error instanceof ApiException && error.extras.enquiryFailure) throw new ApiException(error.code, error.params, { ...error.extras, enquiryFailure: false });
      throw error;
    });
    return { accountName: found.accountName, bankCode, accountNumber, enquiryId: found.enquiryId, expiresAt: found.expiresAt };
  }
}
