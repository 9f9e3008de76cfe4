export { PaymentClient } from './payment-client';
export type { PaymentClientOptions } from './client-options';
export type {
  CreateWebhookEndpointInput,
  ListBalanceEntriesParams,
  ListPayinsParams,
  ListPayoutBatchesParams,
  ListPayoutsParams,
  ListRefundsParams,
  UpdateWebhookEndpointInput,
  WebhookEventsInput,
} from './payment-client';
export type { ListSettlementEntriesParams, ListSettlementsParams } from './settlements';
export type { BatchItem, CreateBatchWithItemsInput, CreateBatchWithItemsResult } from './batch-builder';
export { AutoPaginatingList, type Page } from './pagination';
export { REPORT_NAMES, ReportExportError, type ExportReportInput, type ExportReportResult, type ReportName } from './report-export';
export {
  PaymentError,
  AuthenticationError,
  PermissionError,
  ValidationError,
  NotFoundError,
  ConflictError,
  RateLimitError,
  ServiceUnavailableError,
  AccountEnquiryError,
  ConnectionError,
  TimeoutError,
  ApiError,
  SigningError,
  WebhookVerificationError,
} from './errors';
export { verifyWebhook, DEFAULT_WEBHOOK_TOLERANCE_SECONDS } from './webhooks';
export type { VerifyWebhookOptions, WebhookHeaders } from './webhooks';
export type { PaymentErrorCode, ClientErrorCode, WebhookVerificationErrorCode } from './errors';
// The contract's merchant-facing types, listed once in libs/contracts/src/merchant-types.ts.
export type * from '@paysign/contracts/merchant-types';
export { SDK_VERSION } from './version';
