import { SCHEMAS, type CreateSettlementRequest, type SetSettlementAccountRequest, type SetSettlementScheduleRequest, type SettlementInterval, type SettlementStatus, type Weekday } from '@paysign/contracts';
import { IsDefined, IsIn, IsNumber, IsString, Matches, Max, Min, ValidateIf } from 'class-validator';
import { encodeListingCursor, parseListingQuery } from '../http/listing-query';
import { encodeCursor, FOREIGN_CURSOR, StrictQuery } from '../http/strict-query';
import { validationFailed } from '../errors/api.exception';
import { REFERENCE_PATTERN, REFERENCE_RULE } from '../http/request-rules';
import type { SettlementListQuery } from './settlement-store';

// Every enum, pattern and limit below is read from the contract (openapi/payment-api.yaml).
const SCHEDULE = SCHEMAS.SetSettlementScheduleRequest.properties;
const INTERVALS = SCHEMAS.SettlementInterval.enum;
const WEEKDAYS = SCHEMAS.Weekday.enum;
const STATUSES = SCHEMAS.SettlementStatus.enum;
const SETTLING = SCHEMAS.CreateSettlementRequest.properties.currency.enum;
const ENQUIRY_ID_PATTERN = new RegExp(SCHEMAS.EnquiryId.pattern);
const SETTLEMENT_ID_PATTERN = new RegExp(SCHEMAS.SettlementId.pattern);
export const SET_SETTLEMENT_ACCOUNT_FIELDS = Object.keys(SCHEMAS.SetSettlementAccountRequest.properties) as ReadonlyArray<keyof SetSettlementAccountRequest>;
export const SET_SETTLEMENT_SCHEDULE_FIELDS = Object.keys(SCHEDULE) as ReadonlyArray<keyof SetSettlementScheduleRequest>;
export const CREATE_SETTLEMENT_FIELDS = Object.keys(SCHEMAS.CreateSettlementRequest.properties) as ReadonlyArray<keyof CreateSettlementRequest>;

export class SetSettlementAccountDto implements SetSettlementAccountRequest {
  @Matches(ENQUIRY_ID_PATTERN, { message: 'enquiryId must be the enquiryId of a successful account enquiry of your own bank account, such as enq_3q2w7RkY8x0cQm5nVbLz1s.' })
  @IsString({ message: 'enquiryId must be a string.' })
  @IsDefined({ message: 'enquiryId is required: enquire your own bank account first (POST /payment/merchant-api/account/inquiry).' })
  enquiryId!: string;
}

export class SetSettlementScheduleDto implements SetSettlementScheduleRequest {
  @IsIn(INTERVALS, { message: `interval must be one of ${INTERVALS.join(', ')}.` })
  @IsDefined({ message: `interval is required: one of ${INTERVALS.join(', ')}.` })
  interval!: SettlementInterval;

  @Max(SCHEDULE.minimumAmount.maximum, { message: `minimumAmount must be at most ${SCHEDULE.minimumAmount.maximum}.` })
  @Min(SCHEDULE.minimumAmount.minimum, { message: 'minimumAmount must be 0 or more.' })
  @IsNumber({ allowNaN: false, allowInfinity: false }, { message: 'minimumAmount must be a number in major units, in plain decimal notation with at most 2 decimal places, such as 5000.' })
  @IsDefined({ message: 'minimumAmount is required: the least available balance a run settles, in major units (0 for any).' })
  minimumAmount!: number;

  @IsIn(WEEKDAYS, { message: `weekday must be one of ${WEEKDAYS.join(', ')}.` })
  @IsDefined({ message: 'weekday is required with interval weekly: the day of the week the run settles.' })
  @ValidateIf((dto: SetSettlementScheduleDto) => dto.interval === 'weekly' || (dto.weekday !== undefined && dto.weekday !== null))
  weekday?: Weekday;
}

/** A weekday means something only for a weekly schedule; with another it is refused rather than ignored. */
export function scheduleErrors(body: Record<string, unknown>) {
  if (body.weekday === undefined || body.weekday === null || body.interval === 'weekly') return [];
  return [{ field: 'weekday', code: 'not_allowed', message: 'weekday is allowed only with interval weekly.' }];
}

export class CreateSettlementDto implements CreateSettlementRequest {
  @Matches(REFERENCE_PATTERN, { message: REFERENCE_RULE })
  @IsString({ message: 'reference must be a string.' })
  @IsDefined({ message: 'reference is required: your reference for this settlement request, which makes a retry safe.' })
  reference!: string;

  @IsIn(SETTLING, { message: `currency must be ${SETTLING.join(' or ')}: only naira settles to a bank account here.` })
  @IsDefined({ message: 'currency is required: NGN.' })
  currency!: CreateSettlementRequest['currency'];
}

/** A settlement id in the path, outside its grammar: a 400 naming it, not a lookup that cannot match. */
export function checkedSettlementId(id: string): string {
  if (!SETTLEMENT_ID_PATTERN.test(id)) throw validationFailed([{ field: 'id', code: 'pattern', message: 'id must be a settlement id: stl_ and 22 letters and digits, as the settlement listing gives it.' }]);
  return id;
}

/** The settlement listing's query string, read as the payout listing's is. */
export function parseSettlementListQuery(merchantId: string, query: Record<string, unknown>): SettlementListQuery {
  return { merchantId, ...parseListingQuery<SettlementStatus>(query, STATUSES, 'settlements') };
}

export function encodeSettlementCursor(last: { createdAt: Date; reference: string }, query: SettlementListQuery): string {
  return encodeListingCursor(last, query, 'settlements');
}

const ENTRY_ID = /^[1-9][0-9]{0,18}$/;
const MAX_BIGINT = 9_223_372_036_854_775_807n;

/** `GET /settlements/{id}/entries`: a page of `limit` after the entry the `cursor` names, which only this settlement's listing takes. */
export function parseSettlementEntriesQuery(id: string, query: Record<string, unknown>): { limit: number; afterId?: bigint } {
  const reader = new StrictQuery(query, ['limit', 'cursor']);
  const limit = reader.limit();
  const afterId = reader.cursor((fields) => {
    const [entryId, issuedFor] = fields;
    if (fields.length !== 2 || typeof entryId !== 'string' || !ENTRY_ID.test(entryId) || BigInt(entryId) > MAX_BIGINT || issuedFor !== id) return FOREIGN_CURSOR;
    return BigInt(entryId);
  });
  reader.done();
  return { limit, ...(afterId === undefined ? {} : { afterId }) };
}

export const encodeSettlementEntriesCursor = (lastId: string, id: string): string => encodeCursor([lastId, id]);
