// Test support: validate real responses against the contract file. Not for runtime code.
export { ContractValidator } from './contract-validator';
export type { ResponseToValidate, WebhookToValidate } from './contract-validator';
export { describeViolation } from './contract-violation';
export { CONTRACT_PATH, DASHBOARD_CONTRACT_PATH } from './contract-path';
