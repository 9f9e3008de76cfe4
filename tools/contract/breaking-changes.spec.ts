import { breakingChanges, type OpenApiDocument } from './breaking-changes';

/** A one-operation contract: POST /payment/api/things with a request and a response schema. */
function contract(changes: { request?: object; response?: object; responses?: object; parameters?: object[]; paths?: object; errorCodes?: string[] } = {}): OpenApiDocument {
  const request = { type: 'object', additionalProperties: false, required: ['amount'], properties: { amount: { type: 'number', maximum: 1000 }, note: { type: 'string', maxLength: 50 }, kind: { type: 'string', enum: ['a', 'b'] }, ref: { type: 'string', pattern: '^[a-z]+$' } }, ...changes.request };
  const response = { type: 'object', required: ['id', 'status', 'amount'], properties: { id: { type: 'string' }, status: { type: 'string', enum: ['PENDING', 'PAID'] }, amount: { type: 'number' }, note: { type: ['string', 'null'] } }, ...changes.response };
  return {
    paths: {
      '/payment/api/things': {
        post: {
          parameters: (changes.parameters as never) ?? [],
          requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/Request' } } } },
          responses: (changes.responses as never) ?? {
            '201': { content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing' } } } },
            '400': { content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
          },
        },
      },
      ...changes.paths,
    },
    components: {
      schemas: {
        Request: request,
        Thing: response,
        Error: { type: 'object', properties: { code: { $ref: '#/components/schemas/ErrorCode' } } },
        ErrorCode: { type: 'string', enum: changes.errorCodes ?? ['INVALID', 'NOT_FOUND'] },
      },
    },
  } as OpenApiDocument;
}

const base = contract();

/** The base contract with a status schema whose transitions are `moves`. */
function withTransitions(moves: Record<string, string[]>): OpenApiDocument {
  const document = contract();
  (document.components?.schemas as Record<string, unknown>).ThingStatus = { type: 'string', enum: Object.keys(moves), 'x-transitions': moves };
  return document;
}

describe('breakingChanges', () => {
  it.each<[string, { after: OpenApiDocument; want: string[] }]>([
    ['a removed operation', { after: { ...base, paths: {} }, want: ['POST /payment/api/things: the operation was removed.'] }],
    ['a removed response field', { after: contract({ response: { properties: { id: { type: 'string' }, status: { type: 'string', enum: ['PENDING', 'PAID'] }, amount: { type: 'number' } } } }), want: ['POST /payment/api/things 201: response field note was removed or renamed.'] }],
    [
      'a renamed response field',
      {
        after: contract({ response: { required: ['id', 'status', 'total'], properties: { id: { type: 'string' }, status: { type: 'string', enum: ['PENDING', 'PAID'] }, total: { type: 'number' }, note: { type: ['string', 'null'] } } } }),
        want: ['POST /payment/api/things 201: response field amount was removed or renamed.'],
      },
    ],
    ['a response field whose type widens', { after: contract({ response: { properties: { ...base.components!.schemas!.Thing!['properties' as never] as object, amount: { type: ['number', 'null'] } } } }), want: ['POST /payment/api/things 201: response field amount: type widened from "number" to ["number","null"].'] }],
    ['a response field no longer required', { after: contract({ response: { required: ['id', 'status'] } }), want: ['POST /payment/api/things 201: response field amount is no longer always present.'] }],
    ['a request field that becomes required', { after: contract({ request: { required: ['amount', 'note'] } }), want: ['POST /payment/api/things: request field note became required.'] }],
    ['a new required request field', { after: contract({ request: { required: ['amount', 'currency'], properties: { ...(base.components!.schemas!.Request as { properties: object }).properties, currency: { type: 'string' } } } }), want: ['POST /payment/api/things: request field currency is new and required.'] }],
    ['a narrowed request enum', { after: contract({ request: { properties: { ...(base.components!.schemas!.Request as { properties: object }).properties, kind: { type: 'string', enum: ['a'] } } } }), want: ['POST /payment/api/things: request field kind: enum narrowed; "b" no longer accepted.'] }],
    [
      'a changed request pattern',
      {
        after: contract({ request: { properties: { ...(base.components!.schemas!.Request as { properties: object }).properties, ref: { type: 'string', pattern: '^[a-z]{1,8}$' } } } }),
        want: ['POST /payment/api/things: request field ref: pattern changed from /^[a-z]+$/ to /^[a-z]{1,8}$/; values the old pattern accepted may be refused.'],
      },
    ],
    ['a tighter request maximum', { after: contract({ request: { properties: { ...(base.components!.schemas!.Request as { properties: object }).properties, amount: { type: 'number', maximum: 500 } } } }), want: ['POST /payment/api/things: request field amount: maximum tightened from 1000 to 500.'] }],
    ['a removed response enum value', { after: contract({ response: { properties: { ...base.components!.schemas!.Thing!['properties' as never] as object, status: { type: 'string', enum: ['PENDING'] } } } }), want: ['POST /payment/api/things 201: response field status: enum value "PAID" removed.'] }],
    ['a removed error code', { after: contract({ errorCodes: ['INVALID'] }), want: ['POST /payment/api/things 400: response field code: enum value "NOT_FOUND" removed.'] }],
    ['a status code no longer documented', { after: contract({ responses: { '200': { content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing' } } } }, '400': { content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } } } }), want: ['POST /payment/api/things: status 201 is no longer documented.'] }],
    ['a new required query parameter', { after: contract({ parameters: [{ name: 'mode', in: 'query', required: true, schema: { type: 'string' } }] }), want: ['POST /payment/api/things: query parameter mode is new and required.'] }],
  ])('flags %s', (_name, { after, want }) => {
    expect(breakingChanges(base, after)).toEqual(want);
  });

  it.each<[string, OpenApiDocument]>([
    ['no change', base],
    ['a new operation', contract({ paths: { '/payment/api/others': { get: { responses: { '200': { content: {} } } } } } })],
    ['a new optional request field', contract({ request: { properties: { ...(base.components!.schemas!.Request as { properties: object }).properties, tag: { type: 'string' } } } })],
    ['a new response field', contract({ response: { properties: { ...base.components!.schemas!.Thing!['properties' as never] as object, paidAt: { type: 'string' } } } })],
    ['a new error code', contract({ errorCodes: ['INVALID', 'NOT_FOUND', 'RATE_LIMITED'] })],
    ['a widened request enum', contract({ request: { properties: { ...(base.components!.schemas!.Request as { properties: object }).properties, kind: { type: 'string', enum: ['a', 'b', 'c'] } } } })],
    ['a looser request maximum', contract({ request: { properties: { ...(base.components!.schemas!.Request as { properties: object }).properties, amount: { type: 'number', maximum: 5000 } } } })],
    ['a new status code', contract({ responses: { '201': { content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing' } } } }, '400': { content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } }, '429': { content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } } } })],
  ])('lets %s pass', (_name, after) => {
    expect(breakingChanges(base, after)).toEqual([]);
  });

  describe('state machines (x-transitions)', () => {
    const before = withTransitions({ PENDING: ['PAID', 'FAILED'], PAID: [], FAILED: [] });
    it('reports a new move out of a state merchants know, such as a state that may now stay as it is', () => {
      expect(breakingChanges(before, withTransitions({ PENDING: ['PENDING', 'PAID', 'FAILED'], PAID: [], FAILED: [] }))).toEqual([
        'ThingStatus: PENDING may now move to PENDING (x-transitions), a move integrated merchants have not handled.',
      ]);
    });
    it('passes the same moves, in any order, and fewer moves', () => {
      expect(breakingChanges(before, withTransitions({ PENDING: ['FAILED', 'PAID'], PAID: [], FAILED: [] }))).toEqual([]);
      expect(breakingChanges(before, withTransitions({ PENDING: ['PAID'], PAID: [], FAILED: [] }))).toEqual([]);
    });
  });
});
