import { IsDefined, IsEmail, IsIn, IsNumber, IsOptional, IsPositive, IsString, IsUrl, Length, Matches, Max, MaxLength } from 'class-validator';

export const CURRENCIES = ['NGN', 'USD', 'GBP', 'EUR', 'GHS', 'KES', 'ZAR'] as const;
export const MAX_AMOUNT = 1_000_000_000;
export const REFERENCE_PATTERN = /^[A-Za-z0-9._-]{1,64}$/;

const URL_OPTIONS = { protocols: ['http', 'https'], require_protocol: true, require_tld: false, allow_underscores: true };

export class CreatePayinDto {
  @Max(MAX_AMOUNT, { message: `amount must be at most ${MAX_AMOUNT}.` })
  @IsPositive({ message: 'amount must be greater than 0.' })
  @IsNumber({ allowNaN: false, allowInfinity: false, maxDecimalPlaces: 2 }, { message: 'amount must be a number in major units with at most 2 decimal places, such as 1000.50.' })
  @IsDefined({ message: 'amount is required.' })
  amount!: number;

  @IsIn(CURRENCIES, { message: `currency must be one of ${CURRENCIES.join(', ')}.` })
  @IsDefined({ message: 'currency is required.' })
  currency!: (typeof CURRENCIES)[number];

  @MaxLength(254, { message: 'customerEmail must be at most 254 characters.' })
  @IsEmail({}, { message: 'customerEmail must be a valid email address.' })
  @IsDefined({ message: 'customerEmail is required.' })
  customerEmail!: string;

  @Length(1, 100, { message: 'customerName must be 1 to 100 characters.' })
  @IsString({ message: 'customerName must be a string.' })
  @IsOptional()
  customerName?: string | null;

  @Matches(/^[a-z0-9_-]{1,32}$/, { message: 'gateway must be 1 to 32 characters from [a-z0-9_-], such as card or bank_transfer.' })
  @IsString({ message: 'gateway must be a string.' })
  @IsOptional()
  gateway?: string | null;

  @MaxLength(255, { message: 'narration must be at most 255 characters.' })
  @IsString({ message: 'narration must be a string.' })
  @IsOptional()
  narration?: string | null;

  @MaxLength(2048, { message: 'notifyUrl must be at most 2048 characters.' })
  @IsUrl(URL_OPTIONS, { message: 'notifyUrl must be an absolute https URL.' })
  @IsOptional()
  notifyUrl?: string | null;

  @MaxLength(2048, { message: 'redirectUrl must be at most 2048 characters.' })
  @IsUrl(URL_OPTIONS, { message: 'redirectUrl must be an absolute https URL.' })
  @IsOptional()
  redirectUrl?: string | null;

  @Matches(REFERENCE_PATTERN, { message: 'reference must be 1 to 64 characters from [A-Za-z0-9._-].' })
  @IsString({ message: 'reference must be a string.' })
  @IsDefined({ message: 'reference is required.' })
  reference!: string;
}

export const CREATE_PAYIN_FIELDS = ['amount', 'currency', 'customerEmail', 'customerName', 'gateway', 'narration', 'notifyUrl', 'redirectUrl', 'reference'] as const;
