// Test support: validate real responses against the contract file. Not for runtime code.
export { ContractValidator } from './contract-validator';
export type { ResponseToValidate } from './contract-validator';
export { CONTRACT_PATH } from './contract-path';
