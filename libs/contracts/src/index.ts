export type { paths, components, operations, webhooks } from './generated/payment-api';
export { SCHEMAS } from './generated/schemas';
// The dashboard's own API (openapi/dashboard-api.yaml), called by apps/dashboard with a session.
export type { paths as DashboardPaths, components as DashboardComponents, operations as DashboardOperations } from './generated/dashboard-api';
export { DASHBOARD_SCHEMAS } from './generated/dashboard-schemas';
// The types a merchant's code uses are listed once, in merchant-types.ts; the rest are the service's own.
export type * from './merchant-types';
export type { AccountEnquiryRequest, AccountEnquiryFailure, CheckoutSubmission, Health, SigningDebug } from './schemas';
export { ERROR_REGISTRY, ERROR_SUMMARIES, errorMessage, errorDefinition, errorTraitsOfStatus } from './errors/error-registry';
export type { ErrorDefinition, ErrorType, ErrorMessageParams, ErrorCodeOfType, SigningWordedCode } from './errors/error-registry';
export { matchName, nameWords, sameName } from './name-match';
// A payroll from a spreadsheet, read alike by the CLI and the dashboard.
export { parseCsv } from './csv';
export { AMOUNT_IN_MAJOR_UNITS, BATCH_FILE_COLUMNS, BATCH_FILE_REQUIRED_COLUMNS, BatchFileError, batchRowProblem, duplicateReferences, readBatchFile } from './batch-file';
export type { BatchFileRow } from './batch-file';
