import { DASHBOARD_SCHEMAS, type DashboardComponents } from '@paysign/contracts';
import type { StoredPayout } from '../payouts/payout-rows';
import type { ScheduleInput } from '../settlements/settlements.service';
import { settlementToContract } from '../settlements/settlement-view';
import { FieldReader } from './dashboard-body';

type Schemas = DashboardComponents['schemas'];

// Every enum, pattern and limit below is read from the dashboard's contract (openapi/dashboard-api.yaml).
const INTERVALS = DASHBOARD_SCHEMAS.SettlementInterval.enum;
const WEEKDAYS = DASHBOARD_SCHEMAS.Weekday.enum;
const MINIMUM = DASHBOARD_SCHEMAS.SetSettlementScheduleRequest.properties.minimumAmount;
const ENQUIRY_ID = new RegExp(DASHBOARD_SCHEMAS.SetSettlementAccountRequest.properties.enquiryId.pattern);
const REFERENCE = new RegExp(DASHBOARD_SCHEMAS.CreateSettlementRequest.properties.reference.pattern);

/** `PUT /settlement-schedule`'s body: a weekday with `weekly` only, and required with it. */
export function readSchedule(body: Record<string, unknown>): ScheduleInput {
  const fields = new FieldReader(body, ['interval', 'minimumAmount', 'weekday']);
  const interval = fields.oneOf('interval', INTERVALS);
  const minimumMinor = fields.integer('minimumAmount', { min: MINIMUM.minimum, max: MINIMUM.maximum, describe: `the least available balance a run settles, in kobo: a whole number from ${MINIMUM.minimum} to ${MINIMUM.maximum}, such as 500000 for NGN 5,000` });
  let weekday: Schemas['Weekday'] | undefined;
  if (interval === 'weekly') weekday = fields.oneOf('weekday', WEEKDAYS);
  else if (body.weekday !== undefined) fields.add([{ field: 'weekday', code: 'not_allowed', message: 'weekday is allowed only with interval weekly.' }]);
  fields.done();
  return { interval, minimumMinor: BigInt(minimumMinor), ...(weekday ? { weekday } : {}) };
}

/** `PUT /settlement-account`'s body: the enquiry that found the account. */
export function readAccountRequest(body: Record<string, unknown>): string {
  const fields = new FieldReader(body, ['enquiryId']);
  const enquiryId = fields.string('enquiryId', { pattern: ENQUIRY_ID, max: 64, describe: 'the enquiryId of an account enquiry of your own bank account (POST /account-enquiries), such as enq_3q2w7RkY8x0cQm5nVbLz1s' });
  fields.done();
  return enquiryId;
}

/** `POST /settlements`'s body. */
export function readSettleNow(body: Record<string, unknown>): { reference: string; currency: 'NGN' } {
  const fields = new FieldReader(body, ['reference', 'currency']);
  const reference = fields.string('reference', { pattern: REFERENCE, max: 64, describe: 'your reference for this request, 1 to 64 letters, digits, dots, underscores or hyphens: the same again answers the settlement it made' });
  const currency = fields.oneOf('currency', DASHBOARD_SCHEMAS.CreateSettlementRequest.properties.currency.enum);
  fields.done();
  return { reference, currency };
}

/** A settlement as the dashboard shows it: the signed API's view of its transfer, in kobo, without what only integrations use. */
export function dashboardSettlementOf(transfer: StoredPayout): Schemas['Settlement'] {
  const { merchantId: _merchant, provider: _provider, version: _version, ...shown } = settlementToContract(transfer);
  return { ...shown, amount: Number(transfer.amountMinor), currency: shown.currency as Schemas['Currency'] };
}
