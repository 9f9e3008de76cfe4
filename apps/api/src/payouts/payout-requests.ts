import {
  SCHEMAS,
  type CreatePayoutBatchRequest,
  type CreatePayoutRequest,
  type PayoutFailureReason,
  type PayoutStatus,
  type RejectPayoutRequest,
  type SimulatePayoutRequest,
  type SubmitPayoutBatchRequest,
} from '@paysign/contracts';
import { IsDefined, IsIn, IsInt, IsNumber, IsOptional, IsPositive, IsString, Length, Matches, Max, MaxLength, Min } from 'class-validator';
import { encodeListingCursor, parseListingQuery, type ListingFilters } from '../http/listing-query';
import { AMOUNT_RULE, REFERENCE_PATTERN, REFERENCE_RULE } from '../http/request-rules';
import type { PayoutBatchListQuery } from './payout-batch-store';
import type { PayoutListQuery } from './payout-store';
import { PAYOUT_FAILURE_REASONS, PAYOUT_STATUSES } from './payout-states';

// Every enum, pattern and limit below is read from the contract (openapi/payment-api.yaml).
const FIELDS = SCHEMAS.CreatePayoutRequest.properties;
const ENQUIRY_ID_PATTERN = new RegExp(SCHEMAS.EnquiryId.pattern);
export const CREATE_PAYOUT_FIELDS = Object.keys(FIELDS) as ReadonlyArray<keyof CreatePayoutRequest>;
export const REJECT_PAYOUT_FIELDS = Object.keys(SCHEMAS.RejectPayoutRequest.properties) as ReadonlyArray<keyof RejectPayoutRequest>;
export const CREATE_PAYOUT_BATCH_FIELDS = Object.keys(SCHEMAS.CreatePayoutBatchRequest.properties) as ReadonlyArray<keyof CreatePayoutBatchRequest>;
export const SUBMIT_PAYOUT_BATCH_FIELDS = Object.keys(SCHEMAS.SubmitPayoutBatchRequest.properties) as ReadonlyArray<keyof SubmitPayoutBatchRequest>;
export const SIMULATE_PAYOUT_FIELDS = Object.keys(SCHEMAS.SimulatePayoutRequest.properties) as ReadonlyArray<keyof SimulatePayoutRequest>;
const OUTCOMES = SCHEMAS.SimulatePayoutRequest.properties.outcome.enum;

/** The create request as validated; optional fields also accept null, which means absent, as for payins. */
export class CreatePayoutDto implements CreatePayoutRequest {
  @Matches(REFERENCE_PATTERN, { message: REFERENCE_RULE })
  @IsString({ message: 'reference must be a string.' })
  @IsDefined({ message: 'reference is required.' })
  reference!: string;

  @Max(FIELDS.amount.maximum, { message: `amount must be at most ${FIELDS.amount.maximum}.` })
  @IsPositive({ message: 'amount must be greater than 0.' })
  @IsNumber({ allowNaN: false, allowInfinity: false }, { message: AMOUNT_RULE })
  @IsDefined({ message: 'amount is required.' })
  amount!: number;

  @IsIn(FIELDS.currency.enum, { message: `currency must be ${FIELDS.currency.enum.join(', ')}: payouts are in naira.` })
  @IsDefined({ message: 'currency is required.' })
  currency!: CreatePayoutRequest['currency'];

  @Matches(ENQUIRY_ID_PATTERN, { message: 'enquiryId must be the enquiryId of a successful account enquiry, such as enq_3q2w7RkY8x0cQm5nVbLz1s.' })
  @IsString({ message: 'enquiryId must be a string.' })
  @IsDefined({ message: 'enquiryId is required: enquire the account first.' })
  enquiryId!: string;

  @Matches(new RegExp(FIELDS.narration.pattern), { message: 'narration must hold a character other than white space.' })
  @Length(FIELDS.narration.minLength, FIELDS.narration.maxLength, { message: `narration must be ${FIELDS.narration.minLength} to ${FIELDS.narration.maxLength} characters, as NIP allows.` })
  @IsString({ message: 'narration must be a string.' })
  @IsDefined({ message: 'narration is required.' })
  narration!: string;

  @Matches(new RegExp(FIELDS.expectedAccountName.pattern), { message: 'expectedAccountName must hold a character other than white space.' })
  @Length(FIELDS.expectedAccountName.minLength, FIELDS.expectedAccountName.maxLength, {
    message: `expectedAccountName must be ${FIELDS.expectedAccountName.minLength} to ${FIELDS.expectedAccountName.maxLength} characters.`,
  })
  @IsString({ message: 'expectedAccountName must be a string.' })
  @IsOptional()
  expectedAccountName?: string;

  @MaxLength(FIELDS.notifyUrl.maxLength, { message: `notifyUrl must be at most ${FIELDS.notifyUrl.maxLength} characters.` })
  @IsString({ message: 'notifyUrl must be a string.' })
  @IsOptional()
  notifyUrl?: string;

  @Matches(REFERENCE_PATTERN, { message: REFERENCE_RULE.replace(/^reference/, 'batchReference') })
  @IsString({ message: 'batchReference must be a string.' })
  @IsOptional()
  batchReference?: string;
}

const REJECT = SCHEMAS.RejectPayoutRequest.properties;

export class RejectPayoutDto implements RejectPayoutRequest {
  @Matches(new RegExp(REJECT.reason.pattern), { message: 'reason must hold a character other than white space.' })
  @Length(REJECT.reason.minLength, REJECT.reason.maxLength, { message: `reason must be ${REJECT.reason.minLength} to ${REJECT.reason.maxLength} characters.` })
  @IsString({ message: 'reason must be a string.' })
  @IsOptional()
  reason?: string;
}

const BATCH = SCHEMAS.CreatePayoutBatchRequest.properties;

export class CreatePayoutBatchDto implements CreatePayoutBatchRequest {
  @Matches(REFERENCE_PATTERN, { message: REFERENCE_RULE })
  @IsString({ message: 'reference must be a string.' })
  @IsDefined({ message: 'reference is required.' })
  reference!: string;

  @Matches(new RegExp(BATCH.title.pattern), { message: 'title must hold a character other than white space.' })
  @Length(BATCH.title.minLength, BATCH.title.maxLength, { message: `title must be ${BATCH.title.minLength} to ${BATCH.title.maxLength} characters, such as November payroll.` })
  @IsString({ message: 'title must be a string.' })
  @IsDefined({ message: 'title is required.' })
  title!: string;
}

const SUBMIT = SCHEMAS.SubmitPayoutBatchRequest.properties;

export class SubmitPayoutBatchDto implements SubmitPayoutBatchRequest {
  @Max(SUBMIT.expectedCount.maximum, { message: `expectedCount must be at most ${SUBMIT.expectedCount.maximum}.` })
  @Min(SUBMIT.expectedCount.minimum, { message: `expectedCount must be at least ${SUBMIT.expectedCount.minimum}: a batch is submitted with the payouts you added.` })
  @IsInt({ message: 'expectedCount must be a whole number: how many payouts you added to the batch.' })
  @IsDefined({ message: 'expectedCount is required: how many payouts you added to the batch.' })
  expectedCount!: number;

  @Max(SUBMIT.expectedTotal.maximum, { message: `expectedTotal must be at most ${SUBMIT.expectedTotal.maximum}.` })
  @IsPositive({ message: 'expectedTotal must be greater than 0.' })
  @IsNumber({ allowNaN: false, allowInfinity: false }, { message: AMOUNT_RULE.replace(/^amount/, 'expectedTotal') })
  @IsDefined({ message: 'expectedTotal is required: the sum of the amounts of the payouts you added, in naira.' })
  expectedTotal!: number;
}

export class SimulatePayoutDto implements SimulatePayoutRequest {
  @IsIn(OUTCOMES, { message: `outcome must be one of ${OUTCOMES.join(', ')}.` })
  @IsDefined({ message: 'outcome is required.' })
  outcome!: SimulatePayoutRequest['outcome'];

  @IsIn(PAYOUT_FAILURE_REASONS, { message: `reason must be one of ${PAYOUT_FAILURE_REASONS.join(', ')}.` })
  @IsOptional()
  reason?: PayoutFailureReason;
}

/** A reason only means something for a failed or reversed outcome; with `successful` it is refused rather than ignored. */
export function simulatePayoutErrors(body: Record<string, unknown>) {
  if (body.reason === undefined || body.reason === null || body.outcome !== 'successful') return [];
  return [{ field: 'reason', code: 'not_allowed', message: 'reason is allowed only with outcome failed or reversed.' }];
}

/** The payout listing's query string, read as the payin listing's is. */
export function parsePayoutListQuery(merchantId: string, query: Record<string, unknown>): PayoutListQuery {
  const { references, ...listing } = parseListingQuery(query, PAYOUT_STATUSES, 'payouts', ['batchReference']);
  return { merchantId, ...listing, ...(references?.batchReference ? { batchReference: references.batchReference } : {}) };
}

export function encodePayoutCursor(last: { createdAt: Date; reference: string }, query: PayoutListQuery): string {
  const filters: ListingFilters<PayoutStatus> = { ...query, ...(query.batchReference ? { references: { batchReference: query.batchReference } } : {}) };
  return encodeListingCursor(last, filters, 'payouts');
}

const BATCH_STATUSES = SCHEMAS.PayoutBatchStatus.enum;

/** The batch listing's query string, read as the payout listing's is. */
export function parsePayoutBatchListQuery(merchantId: string, query: Record<string, unknown>): PayoutBatchListQuery {
  return { merchantId, ...parseListingQuery(query, BATCH_STATUSES, 'payout-batches') };
}

export function encodePayoutBatchCursor(last: { createdAt: Date; reference: string }, query: PayoutBatchListQuery): string {
  return encodeListingCursor(last, query, 'payout-batches');
}
