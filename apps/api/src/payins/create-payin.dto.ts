import { SCHEMAS, type CreatePayinRequest, type PayinChannel } from '@paysign/contracts';
import { IsDefined, IsEmail, IsIn, IsNumber, IsOptional, IsPositive, IsString, Length, Matches, Max, MaxLength } from 'class-validator';
import { AMOUNT_RULE, REFERENCE_PATTERN, REFERENCE_RULE } from '../http/request-rules';
import { PAYIN_CHANNELS } from './payin-states';

// Every enum, pattern and limit below is read from the contract (openapi/payment-api.yaml).
const FIELDS = SCHEMAS.CreatePayinRequest.properties;

export const CURRENCIES = SCHEMAS.Currency.enum;
export const MAX_AMOUNT = FIELDS.amount.maximum;
/** The fields a create request may have; any other is refused. */
export const CREATE_PAYIN_FIELDS = Object.keys(FIELDS) as ReadonlyArray<keyof CreatePayinRequest>;

/**
 * The create request as validated. Optional fields also accept null, which
 * means absent: the canonical body omits null fields, so both sign the same.
 * notifyUrl and redirectUrl are read, and replaced by their normalised form,
 * by normaliseMerchantUrl: one rule for what a merchant URL may be.
 */
export class CreatePayinDto implements CreatePayinRequest {
  @Max(MAX_AMOUNT, { message: `amount must be at most ${MAX_AMOUNT}.` })
  @IsPositive({ message: 'amount must be greater than 0.' })
  @IsNumber({ allowNaN: false, allowInfinity: false }, { message: AMOUNT_RULE })
  @IsDefined({ message: 'amount is required.' })
  amount!: number;

  @IsIn(CURRENCIES, { message: `currency must be one of ${CURRENCIES.join(', ')}.` })
  @IsDefined({ message: 'currency is required.' })
  currency!: CreatePayinRequest['currency'];

  @MaxLength(FIELDS.customerEmail.maxLength, { message: `customerEmail must be at most ${FIELDS.customerEmail.maxLength} characters.` })
  @IsEmail({}, { message: 'customerEmail must be a valid email address.' })
  @IsDefined({ message: 'customerEmail is required.' })
  customerEmail!: string;

  @Matches(new RegExp(FIELDS.customerName.pattern), { message: 'customerName must hold a character other than white space.' })
  @Length(FIELDS.customerName.minLength, FIELDS.customerName.maxLength, {
    message: `customerName must be ${FIELDS.customerName.minLength} to ${FIELDS.customerName.maxLength} characters.`,
  })
  @IsString({ message: 'customerName must be a string.' })
  @IsOptional()
  customerName?: string;

  @IsIn(PAYIN_CHANNELS, { message: `gateway must be one of ${PAYIN_CHANNELS.join(', ')}; leave it out to offer every channel.` })
  @IsOptional()
  gateway?: PayinChannel;

  @Matches(new RegExp(FIELDS.narration.pattern), { message: 'narration must hold a character other than white space.' })
  @MaxLength(FIELDS.narration.maxLength, { message: `narration must be at most ${FIELDS.narration.maxLength} characters.` })
  @IsString({ message: 'narration must be a string.' })
  @IsOptional()
  narration?: string;

  @MaxLength(FIELDS.notifyUrl.maxLength, { message: `notifyUrl must be at most ${FIELDS.notifyUrl.maxLength} characters.` })
  @IsString({ message: 'notifyUrl must be a string.' })
  @IsOptional()
  notifyUrl?: string;

  @MaxLength(FIELDS.redirectUrl.maxLength, { message: `redirectUrl must be at most ${FIELDS.redirectUrl.maxLength} characters.` })
  @IsString({ message: 'redirectUrl must be a string.' })
  @IsOptional()
  redirectUrl?: string;

  @Matches(REFERENCE_PATTERN, { message: REFERENCE_RULE })
  @IsString({ message: 'reference must be a string.' })
  @IsDefined({ message: 'reference is required.' })
  reference!: string;
}
