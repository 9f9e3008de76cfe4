import { IsDefined, IsString, Matches } from 'class-validator';

export class AccountEnquiryDto {
  @Matches(/^[0-9]{3,6}$/, { message: 'bankCode must be a code from GET /payment/merchant-api/banks, such as "058".' })
  @IsString({ message: 'bankCode must be a string, such as "058".' })
  @IsDefined({ message: 'bankCode is required.' })
  bankCode!: string;

  @Matches(/^[0-9]{10}$/, { message: 'accountNumber must be exactly 10 digits.' })
  @IsString({ message: 'accountNumber must be a string of 10 digits, such as "0123456785"; send it quoted to keep leading zeros.' })
  @IsDefined({ message: 'accountNumber is required.' })
  accountNumber!: string;
}

export const ACCOUNT_ENQUIRY_FIELDS = ['bankCode', 'accountNumber'] as const;
