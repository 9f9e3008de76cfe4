export type { paths, components, operations, webhooks } from './generated/payment-api';
export { SCHEMAS } from './generated/schemas';
export type {
  Bank,
  AccountEnquiryRequest,
  AccountEnquiryResult,
  AccountEnquiryFailure,
  CreatePayinRequest,
  Payin,
  PayinStatus,
  PayinChannel,
  FailureReason,
  DeclineReason,
  PayinList,
  SimulatePayinRequest,
  CheckoutSubmission,
  PayinEvent,
  PayinEventType,
  PayinSuccessfulEvent,
  PayinFailedEvent,
  PayinAbandonedEvent,
  PayinCancelledEvent,
  EventDeliveryLog,
  EventDeliveryLogList,
  DeliveryAttempt,
  Currency,
  Health,
  ErrorBody,
  ErrorCode,
  FieldError,
  SigningDebug,
} from './schemas';
export { ERROR_REGISTRY, ERROR_SUMMARIES, errorMessage, errorDefinition, errorTraitsOfStatus } from './errors/error-registry';
export type { ErrorDefinition, ErrorType, ErrorMessageParams, ErrorCodeOfType, SigningWordedCode } from './errors/error-registry';
