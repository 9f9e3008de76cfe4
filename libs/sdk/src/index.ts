export { PaymentClient } from './payment-client';
export type { PaymentClientOptions } from './client-options';
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
export type { AccountEnquiryResult, Bank, CreatePayinRequest, Payin, ErrorBody, FieldError, ErrorCode, Currency } from '@paysign/contracts';
export { sign, verify, canonicalBodyFromJson, canonicalBodyFromObject } from './signing';
export type { SignInput, SignResult, VerifyInput, VerifyResult } from '@paysign/signing';
export { SDK_VERSION } from './version';
