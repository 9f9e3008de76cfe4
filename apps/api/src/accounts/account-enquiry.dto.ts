import { SCHEMAS, type AccountEnquiryRequest } from '@paysign/contracts';
import { IsDefined, IsString, Matches } from 'class-validator';

// The patterns are read from the contract (openapi/payment-api.yaml).
const FIELDS = SCHEMAS.AccountEnquiryRequest.properties;

export const BANK_CODE_PATTERN = new RegExp(FIELDS.bankCode.pattern);
export const ACCOUNT_NUMBER_PATTERN = new RegExp(FIELDS.accountNumber.pattern);
/** The fields an enquiry may have; any other is refused. */
export const ACCOUNT_ENQUIRY_FIELDS = Object.keys(FIELDS) as ReadonlyArray<keyof AccountEnquiryRequest>;

export class AccountEnquiryDto implements AccountEnquiryRequest {
  @Matches(BANK_CODE_PATTERN, { message: 'bankCode must be a code from GET /payment/merchant-api/banks, such as "058".' })
  @IsString({ message: 'bankCode must be a string, such as "058".' })
  @IsDefined({ message: 'bankCode is required.' })
  bankCode!: string;

  @Matches(new RegExp(FIELDS.accountNumber.pattern), { message: 'accountNumber must be exactly 10 digits.' })
  @IsString({ message: 'accountNumber must be a string of 10 digits, such as "0123456785"; send it quoted to keep leading zeros.' })
  @IsDefined({ message: 'accountNumber is required.' })
  accountNumber!: string;
}
