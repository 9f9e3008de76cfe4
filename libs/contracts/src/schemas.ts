// Friendly names for the contract's component schemas.
import type { components } from './generated/payment-api';

type Schemas = components['schemas'];

export type Bank = Schemas['Bank'];
export type AccountEnquiryRequest = Schemas['AccountEnquiryRequest'];
export type AccountEnquiryResult = Schemas['AccountEnquiryResult'];
export type AccountEnquiryFailure = Schemas['AccountEnquiryFailure'];
export type CreatePayinRequest = Schemas['CreatePayinRequest'];
export type Payin = Schemas['Payin'];
export type PayinStatus = Schemas['PayinStatus'];
export type PayinChannel = Schemas['PayinChannel'];
export type FailureReason = Schemas['FailureReason'];
export type DeclineReason = Schemas['DeclineReason'];
export type PayinList = Schemas['PayinList'];
export type SimulatePayinRequest = Schemas['SimulatePayinRequest'];
export type CheckoutSubmission = Schemas['CheckoutSubmission'];
export type PayinEvent = Schemas['PayinEvent'];
/** A payin event's `type`: the discriminator of PayinEvent. */
export type PayinEventType = Schemas['PayinEvent']['type'];
export type PayinSuccessfulEvent = Schemas['PayinSuccessfulEvent'];
export type PayinFailedEvent = Schemas['PayinFailedEvent'];
export type PayinAbandonedEvent = Schemas['PayinAbandonedEvent'];
export type PayinCancelledEvent = Schemas['PayinCancelledEvent'];
export type EventDeliveryLog = Schemas['EventDeliveryLog'];
export type EventDeliveryLogList = Schemas['EventDeliveryLogList'];
export type DeliveryAttempt = Schemas['DeliveryAttempt'];
export type Currency = Schemas['Currency'];
export type Balance = Schemas['Balance'];
export type Payout = Schemas['Payout'];
export type PayoutStatus = Schemas['PayoutStatus'];
export type PayoutList = Schemas['PayoutList'];
export type CreatePayoutRequest = Schemas['CreatePayoutRequest'];
export type SimulatePayoutRequest = Schemas['SimulatePayoutRequest'];
export type PayoutFailureReason = Schemas['PayoutFailureReason'];
export type PayoutEvent = Schemas['PayoutEvent'];
export type PayoutEventType = Schemas['PayoutEventType'];
export type WebhookEvent = Schemas['WebhookEvent'];
export type WebhookEventType = Schemas['WebhookEventType'];
export type NameMatch = Schemas['NameMatch'];
export type BalanceEntry = Schemas['BalanceEntry'];
export type BalanceEntryType = Schemas['BalanceEntryType'];
export type BalanceEntryList = Schemas['BalanceEntryList'];
export type Health = Schemas['Health'];
export type ErrorBody = Schemas['Error'];
export type ErrorCode = Schemas['ErrorCode'];
export type FieldError = Schemas['FieldError'];
export type SigningDebug = Schemas['SigningDebug'];
