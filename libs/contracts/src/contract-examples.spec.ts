import { ContractValidator } from './testing';

const validator = new ContractValidator();
const examples = validator.examples();

describe('the contract', () => {
  it('gives an example for every operation', () => {
    expect(examples.length).toBeGreaterThanOrEqual(12);
  });

  it.each(examples.map((e) => [e.name, e] as const))('%s conforms to its schema', (_name, example) => {
    expect(validator.validateAt(example.schemaPointer, example.value)).toEqual([]);
  });

  it('rejects a body that breaks its schema', () => {
    const violations = validator.validateResponse({
      method: 'GET',
      path: '/payment/merchant-api/banks',
      status: 200,
      body: [{ name: 'Access Bank', code: 'ACCESS', logo: null, category: 'commercial' }],
    });
    expect(violations).toEqual(['/0/code must match pattern "^[0-9]{3,6}$"']);
  });

  it('knows concrete paths with parameters', () => {
    expect(validator.validateResponse({ method: 'GET', path: '/payment/api/payins/order-1', status: 418, body: {} })).toEqual([
      'GET /payment/api/payins/{reference} does not document status 418',
    ]);
  });
});
