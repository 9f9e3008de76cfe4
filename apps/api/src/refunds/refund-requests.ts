import { SCHEMAS, type CreateRefundRequest, type RefundFailureReason, type RefundReason, type RefundStatus, type SetRefundAccountRequest, type SimulateRefundRequest } from '@paysign/contracts';
import { IsDefined, IsIn, IsNumber, IsOptional, IsPositive, IsString, Length, Matches, Max, MaxLength } from 'class-validator';
import { encodeListingCursor, parseListingQuery, type ListingFilters } from '../http/listing-query';
import { AMOUNT_RULE, REFERENCE_PATTERN, REFERENCE_RULE } from '../http/request-rules';
import type { RefundListQuery } from './refund-rows';

// Every enum, pattern and limit below is read from the contract (openapi/payment-api.yaml).
const FIELDS = SCHEMAS.CreateRefundRequest.properties;
const NOTE = SCHEMAS.DisplayNote;
const NOTE_PATTERN = new RegExp(NOTE.pattern);
const REASONS = SCHEMAS.RefundReason.enum;
const FAILURE_REASONS = SCHEMAS.RefundFailureReason.enum;
const STATUSES = SCHEMAS.RefundStatus.enum;
const OUTCOMES = SCHEMAS.SimulateRefundRequest.properties.outcome.enum;
export const CREATE_REFUND_FIELDS = Object.keys(FIELDS) as ReadonlyArray<keyof CreateRefundRequest>;
export const SET_REFUND_ACCOUNT_FIELDS = Object.keys(SCHEMAS.SetRefundAccountRequest.properties) as ReadonlyArray<keyof SetRefundAccountRequest>;
export const SIMULATE_REFUND_FIELDS = Object.keys(SCHEMAS.SimulateRefundRequest.properties) as ReadonlyArray<keyof SimulateRefundRequest>;

const noteRule = (field: string) => `${field} must be ${NOTE.minLength} to ${NOTE.maxLength} characters, holding a character other than white space.`;

/** The create request as validated; optional fields also accept null, which means absent, as for payins. */
export class CreateRefundDto implements CreateRefundRequest {
  @Matches(REFERENCE_PATTERN, { message: REFERENCE_RULE })
  @IsString({ message: 'reference must be a string.' })
  @IsDefined({ message: 'reference is required.' })
  reference!: string;

  @Matches(REFERENCE_PATTERN, { message: REFERENCE_RULE.replace(/^reference/, 'payinReference') })
  @IsString({ message: 'payinReference must be a string.' })
  @IsDefined({ message: 'payinReference is required: the reference of the successful payin to refund.' })
  payinReference!: string;

  @Max(FIELDS.amount.maximum, { message: `amount must be at most ${FIELDS.amount.maximum}.` })
  @IsPositive({ message: 'amount must be greater than 0; leave it out to refund everything not yet refunded.' })
  @IsNumber({ allowNaN: false, allowInfinity: false }, { message: AMOUNT_RULE })
  @IsOptional()
  amount?: number;

  @IsIn(REASONS, { message: `reason must be one of ${REASONS.join(', ')}.` })
  @IsOptional()
  reason?: RefundReason;

  @Matches(NOTE_PATTERN, { message: noteRule('merchantNote') })
  @Length(NOTE.minLength, NOTE.maxLength, { message: noteRule('merchantNote') })
  @IsString({ message: 'merchantNote must be a string.' })
  @IsOptional()
  merchantNote?: string;

  @Matches(NOTE_PATTERN, { message: noteRule('customerNote') })
  @Length(NOTE.minLength, NOTE.maxLength, { message: noteRule('customerNote') })
  @IsString({ message: 'customerNote must be a string.' })
  @IsOptional()
  customerNote?: string;

  @MaxLength(FIELDS.notifyUrl.maxLength, { message: `notifyUrl must be at most ${FIELDS.notifyUrl.maxLength} characters.` })
  @IsString({ message: 'notifyUrl must be a string.' })
  @IsOptional()
  notifyUrl?: string;
}

const ENQUIRY_ID_PATTERN = new RegExp(SCHEMAS.EnquiryId.pattern);

export class SetRefundAccountDto implements SetRefundAccountRequest {
  @Matches(ENQUIRY_ID_PATTERN, { message: "enquiryId must be the enquiryId of a successful account enquiry of the customer's account, such as enq_3q2w7RkY8x0cQm5nVbLz1s." })
  @IsString({ message: 'enquiryId must be a string.' })
  @IsDefined({ message: "enquiryId is required: enquire the customer's account first." })
  enquiryId!: string;
}

export class SimulateRefundDto implements SimulateRefundRequest {
  @IsIn(OUTCOMES, { message: `outcome must be one of ${OUTCOMES.join(', ')}.` })
  @IsDefined({ message: 'outcome is required.' })
  outcome!: SimulateRefundRequest['outcome'];

  @IsIn(FAILURE_REASONS, { message: `reason must be one of ${FAILURE_REASONS.join(', ')}.` })
  @IsOptional()
  reason?: RefundFailureReason;
}

/** A reason only means something for a failed outcome; with another it is refused rather than ignored. */
export function simulateRefundErrors(body: Record<string, unknown>) {
  if (body.reason === undefined || body.reason === null || body.outcome === 'failed') return [];
  return [{ field: 'reason', code: 'not_allowed', message: 'reason is allowed only with outcome failed.' }];
}

/** The refund listing's query string, read as the payin listing's is. */
export function parseRefundListQuery(merchantId: string, query: Record<string, unknown>): RefundListQuery {
  const { references, ...listing } = parseListingQuery(query, STATUSES, 'refunds', ['payinReference']);
  return { merchantId, ...listing, ...(references?.payinReference ? { payinReference: references.payinReference } : {}) };
}

export function encodeRefundCursor(last: { createdAt: Date; reference: string }, query: RefundListQuery): string {
  const filters: ListingFilters<RefundStatus> = { ...query, ...(query.payinReference ? { references: { payinReference: query.payinReference } } : {}) };
  return encodeListingCursor(last, filters, 'refunds');
}
