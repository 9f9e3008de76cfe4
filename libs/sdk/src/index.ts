export { PaymentClient } from './payment-client';
export type { PaymentClientOptions } from './client-options';
export type { ListPayinsParams } from './payment-client';
export { AutoPaginatingList, type Page } from './pagination';
export {
  PaymentError,
  AuthenticationError,
  ValidationError,
  NotFoundError,
  ConflictError,
  RateLimitError,
  UpstreamUnavailableError,
  AccountEnquiryError,
  ConnectionError,
  TimeoutError,
  ApiError,
  SigningError,
} from './errors';
export type { PaymentErrorCode, ClientErrorCode } from './errors';
export type {
  AccountEnquiryResult,
  Bank,
  CreatePayinRequest,
  Payin,
  PayinStatus,
  PayinChannel,
  PayinList,
  FailureReason,
  DeclineReason,
  SimulatePayinRequest,
  ErrorBody,
  FieldError,
  ErrorCode,
  Currency,
} from '@paysign/contracts';
export { sign, verify, canonicalBodyFromJson, canonicalBodyFromObject } from './signing';
export type { SignInput, SignResult, VerifyInput, VerifyResult } from '@paysign/signing';
export { SDK_VERSION } from './version';
