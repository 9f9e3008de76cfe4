export { ContractValidator } from './contract-validator';
export type { ResponseToValidate } from './contract-validator';
