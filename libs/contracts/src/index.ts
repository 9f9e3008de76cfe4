export type { paths, components, operations } from './generated/payment-api';
export type {
  Bank,
  AccountEnquiryRequest,
  AccountEnquiryResult,
  AccountEnquiryFailure,
  CreatePayinRequest,
  Payin,
  PayinStatus,
  Currency,
  Health,
  ErrorBody,
  ErrorCode,
  FieldError,
  SigningDebug,
} from './schemas';
export { CONTRACT_PATH } from './contract-path';
