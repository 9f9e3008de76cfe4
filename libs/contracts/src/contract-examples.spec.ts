import { ContractValidator } from './testing';

type Json = Record<string, unknown>;
const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
const validator = new ContractValidator();
const examples = validator.examples();

describe('the contract', () => {
  it('gives an example for every request body and every JSON response of every operation', () => {
    const document = validator.document as unknown as {
      paths: Record<string, Record<string, { requestBody?: { content?: Json }; responses: Record<string, { $ref?: string; content?: Json }> }>>;
      components: { responses: Record<string, { content?: Json }> };
    };
    // JSON only: the checkout's HTML pages and its form have no schema to give an example of.
    const isJson = (content: Json | undefined) => content?.['application/json'] !== undefined;
    const wanted = Object.entries(document.paths).flatMap(([template, operations]) =>
      Object.entries(operations)
        .filter(([method]) => HTTP_METHODS.includes(method))
        .flatMap(([method, operation]) => {
          const label = `${method.toUpperCase()} ${template}`;
          const responses = Object.entries(operation.responses)
            .filter(([, r]) => isJson(r.$ref ? document.components.responses[r.$ref.split('/').pop() as string]?.content : r.content))
            .map(([status]) => `${label} ${status}`);
          return isJson(operation.requestBody?.content) ? [`${label} request`, ...responses] : responses;
        }),
    );
    const given = new Set(examples.map((e) => e.name.replace(/ example ".*"$/, '')));
    expect(wanted.filter((label) => !given.has(label))).toEqual([]);
    expect(wanted).toContain('POST /payment/api/payins request');
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
    expect(violations).toEqual(['/0/code must match pattern "^[0-9]{3,6}$" (at #/components/schemas/Bank/properties/code/pattern)']);
  });

  it('knows concrete paths with parameters', () => {
    expect(validator.validateResponse({ method: 'GET', path: '/payment/api/payins/order-1', status: 418, body: {} })).toEqual([
      'GET /payment/api/payins/{reference} does not document status 418',
    ]);
  });
});
