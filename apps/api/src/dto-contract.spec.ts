// Each DTO validates exactly the fields of its request schema in
// openapi/payment-api.yaml: a field added to the contract that a DTO misses
// (and so would accept unvalidated) fails here.
import * as fs from 'node:fs';
import { CONTRACT_PATH } from '@paysign/contracts/testing';
import { getMetadataStorage } from 'class-validator';
import { parse } from 'yaml';
import { AccountEnquiryDto } from './accounts/account-enquiry.dto';
import { CreatePayinDto } from './payins/create-payin.dto';

const contract = parse(fs.readFileSync(CONTRACT_PATH, 'utf8')) as { components: { schemas: Record<string, { properties: Record<string, unknown>; required?: string[] }> } };

const validatedFields = (dto: new () => object) => [...new Set(getMetadataStorage().getTargetValidationMetadatas(dto, '', true, false).map((m) => m.propertyName))].sort();
const requiredFields = (dto: new () => object) =>
  [...new Set(getMetadataStorage().getTargetValidationMetadatas(dto, '', true, false).filter((m) => m.name === 'isDefined' || m.type === 'isDefined').map((m) => m.propertyName))].sort();

describe.each<[string, new () => object]>([
  ['CreatePayinRequest', CreatePayinDto],
  ['AccountEnquiryRequest', AccountEnquiryDto],
])('the DTO of %s', (schemaName, dto) => {
  const schema = contract.components.schemas[schemaName];

  it('validates every field of the contract, and no other', () => {
    expect(validatedFields(dto)).toEqual(Object.keys(schema?.properties ?? {}).sort());
  });

  it('requires the fields the contract requires', () => {
    expect(requiredFields(dto)).toEqual([...(schema?.required ?? [])].sort());
  });
});
