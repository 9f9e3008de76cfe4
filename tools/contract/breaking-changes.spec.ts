import { breakingChanges, type OpenApiDocument } from './breaking-changes';

const json = (schema: object) => ({ content: { 'application/json': { schema } } });
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/**
 * A small contract: POST /payment/api/things (a request and a response), GET
 * /payment/api/things/{id}/events (an event log whose payloads are a `oneOf`
 * of events), and the webhook thing.paid, whose payload a merchant receives.
 */
function contract(): OpenApiDocument {
  const event = (type: string) => ({ type: 'object', additionalProperties: false, required: ['type', 'timestamp', 'data'], properties: { type: { type: 'string', const: type }, timestamp: { type: 'string', format: 'date-time' }, data: ref('ThingSummary') } });
  return {
    paths: {
      '/payment/api/things': {
        post: {
          parameters: [],
          requestBody: { required: true, ...json(ref('Request')) },
          responses: { '201': json(ref('Thing')), '400': json(ref('Error')) },
        },
      },
      '/payment/api/things/{id}/events': {
        get: {
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
          responses: { '200': json(ref('EventLog')) },
        },
      },
    },
    webhooks: {
      'thing.paid': {
        post: {
          parameters: [{ name: 'webhook-id', in: 'header', required: true, schema: { type: 'string' } }],
          requestBody: { required: true, ...json(ref('ThingPaidEvent')) },
          responses: { '200': { description: 'Received.' }, '410': { description: 'Gone.' } },
        },
      },
    },
    components: {
      schemas: {
        Request: {
          type: 'object',
          additionalProperties: false,
          required: ['amount'],
          properties: {
            amount: { type: 'number', maximum: 1000 },
            note: { type: 'string', maxLength: 50 },
            kind: { type: 'string', enum: ['a', 'b'] },
            ref: { type: 'string', pattern: '^[a-z]+$' },
            destination: { oneOf: [ref('BankDestination'), ref('WalletDestination')] },
            tags: { type: 'array', items: { type: 'string', maxLength: 20 } },
          },
        },
        BankDestination: { type: 'object', required: ['bankCode'], properties: { bankCode: { type: 'string' } } },
        WalletDestination: { type: 'object', required: ['wallet'], properties: { wallet: { type: 'string' } } },
        Thing: {
          type: 'object',
          required: ['id', 'status', 'amount'],
          properties: { id: { type: 'string' }, status: { type: 'string', enum: ['PENDING', 'PAID'] }, amount: { type: 'number' }, note: { type: ['string', 'null'] }, metadata: { type: 'object', additionalProperties: ref('MetadataValue') } },
        },
        MetadataValue: { type: 'object', required: ['value'], properties: { value: { type: 'string' } } },
        ThingSummary: { type: 'object', required: ['id', 'narration'], properties: { id: { type: 'string' }, narration: { type: 'string' } } },
        ThingPaidEvent: event('thing.paid'),
        ThingFailedEvent: event('thing.failed'),
        ThingEvent: { oneOf: [ref('ThingPaidEvent'), ref('ThingFailedEvent')] },
        EventLog: { type: 'object', required: ['data'], properties: { data: { type: 'array', items: { type: 'object', required: ['id', 'payload'], properties: { id: { type: 'string' }, payload: ref('ThingEvent') } } } } },
        Error: { type: 'object', required: ['code'], properties: { code: ref('ErrorCode') } },
        ErrorCode: { type: 'string', enum: ['INVALID', 'NOT_FOUND'] },
      },
    },
  } as OpenApiDocument;
}

type Schemas = Record<string, { properties: Record<string, object>; required?: string[]; [key: string]: unknown }>;
type Mutable = OpenApiDocument & { paths: Record<string, Record<string, { parameters: object[]; responses: Record<string, object> }>>; webhooks: Record<string, Record<string, { parameters: object[]; responses: Record<string, object> }>> };

/** The base contract after `edit`, which changes a fresh copy in place. */
function changed(edit: (schemas: Schemas, document: Mutable) => void): OpenApiDocument {
  const document = contract() as Mutable;
  edit(document.components!.schemas as Schemas, document);
  return document;
}

/** The base contract with a status schema whose transitions are `moves`. */
function withTransitions(moves: Record<string, string[]>): OpenApiDocument {
  return changed((schemas) => {
    (schemas as Record<string, unknown>).ThingStatus = { type: 'string', enum: Object.keys(moves), 'x-transitions': moves };
  });
}

const base = contract();
const EVENTS = 'GET /payment/api/things/{id}/events 200 response: EventLog.data[].payload';

describe('breakingChanges', () => {
  it.each<[string, { after: OpenApiDocument; want: string[] }]>([
    ['a removed operation', { after: changed((_, d) => delete d.paths['/payment/api/things']), want: ['POST /payment/api/things: the operation was removed.'] }],
    ['a removed webhook', { after: changed((_, d) => delete d.webhooks['thing.paid']), want: ['webhook thing.paid: the webhook was removed; merchants no longer receive it.'] }],
    ['a removed response field', { after: changed((s) => delete s.Thing!.properties.note), want: ['POST /payment/api/things 201 response: Thing: field note of Thing was removed or renamed.'] }],
    [
      'a renamed response field',
      {
        after: changed((s) => {
          s.Thing!.properties = { ...s.Thing!.properties, total: { type: 'number' } };
          delete s.Thing!.properties.amount;
          s.Thing!.required = ['id', 'status', 'total'];
        }),
        want: ['POST /payment/api/things 201 response: Thing: field amount of Thing was removed or renamed.'],
      },
    ],
    [
      'a webhook payload field renamed, reported for the webhook and for the event log that holds its payloads',
      {
        after: changed((s) => {
          s.ThingPaidEvent!.properties = { type: s.ThingPaidEvent!.properties.type!, occurredAt: { type: 'string' }, data: s.ThingPaidEvent!.properties.data! };
          s.ThingPaidEvent!.required = ['type', 'occurredAt', 'data'];
        }),
        want: [
          `${EVENTS}.oneOf[ThingPaidEvent]: field timestamp of ThingPaidEvent was removed or renamed.`,
          'webhook thing.paid payload: ThingPaidEvent: field timestamp of ThingPaidEvent was removed or renamed.',
        ],
      },
    ],
    [
      'a field removed inside a oneOf branch, through an array and a $ref',
      {
        after: changed((s) => delete s.ThingSummary!.properties.narration),
        want: [
          `${EVENTS}.oneOf[ThingPaidEvent].data: field narration of ThingSummary was removed or renamed.`,
          `${EVENTS}.oneOf[ThingFailedEvent].data: field narration of ThingSummary was removed or renamed.`,
          'webhook thing.paid payload: ThingPaidEvent.data: field narration of ThingSummary was removed or renamed.',
        ],
      },
    ],
    ['a field removed inside a map value', { after: changed((s) => delete s.MetadataValue!.properties.value), want: ['POST /payment/api/things 201 response: Thing.metadata{}: field value of MetadataValue was removed or renamed.'] }],
    ['a response field whose type widens', { after: changed((s) => (s.Thing!.properties.amount = { type: ['number', 'null'] })), want: ['POST /payment/api/things 201 response: Thing.amount: type widened from "number" to ["number","null"].'] }],
    ['a response oneOf that gains null', { after: changed((s) => {
          const data = s.EventLog!.properties.data as { items: object };
          data.items = { oneOf: [data.items, { type: 'null' }] };
        }), want: ['GET /payment/api/things/{id}/events 200 response: EventLog.data[]: oneOf branch null adds the type "null", which was never sent before.'] }],
    ['a response constant changed', { after: changed((s) => (s.ThingPaidEvent!.properties.type = { type: 'string', const: 'thing.settled' })), want: [
      `${EVENTS}.oneOf[ThingPaidEvent].type: constant "thing.paid" changed to "thing.settled".`,
      'webhook thing.paid payload: ThingPaidEvent.type: constant "thing.paid" changed to "thing.settled".',
    ] }],
    ['a response field no longer required', { after: changed((s) => (s.Thing!.required = ['id', 'status'])), want: ['POST /payment/api/things 201 response: Thing: field amount of Thing is no longer always present.'] }],
    ['a webhook header no longer sent', { after: changed((_, d) => (d.webhooks['thing.paid']!.post!.parameters = [])), want: ['webhook thing.paid header parameter webhook-id: is no longer sent.'] }],
    ['a webhook answer no longer understood', { after: changed((_, d) => delete d.webhooks['thing.paid']!.post!.responses['410']), want: ['webhook thing.paid: status 410 is no longer documented.'] }],
    ['a request field that becomes required', { after: changed((s) => (s.Request!.required = ['amount', 'note'])), want: ['POST /payment/api/things request body: Request: field note of Request became required.'] }],
    [
      'a new required request field',
      {
        after: changed((s) => {
          s.Request!.properties.currency = { type: 'string' };
          s.Request!.required = ['amount', 'currency'];
        }),
        want: ['POST /payment/api/things request body: Request: field currency of Request is new and required.'],
      },
    ],
    ['a new required request field inside a oneOf branch', { after: changed((s) => (s.BankDestination!.required = ['bankCode', 'accountNumber'])), want: ['POST /payment/api/things request body: Request.destination.oneOf[BankDestination]: field accountNumber of BankDestination is new and required.'] }],
    ['a request oneOf branch removed', { after: changed((s) => (s.Request!.properties.destination = { oneOf: [ref('BankDestination')] })), want: ['POST /payment/api/things request body: Request.destination: oneOf branch WalletDestination was removed; merchants that send it are refused.'] }],
    ['a narrowed request enum', { after: changed((s) => (s.Request!.properties.kind = { type: 'string', enum: ['a'] })), want: ['POST /payment/api/things request body: Request.kind: enum narrowed; "b" no longer accepted.'] }],
    ['a changed request pattern', { after: changed((s) => (s.Request!.properties.ref = { type: 'string', pattern: '^[a-z]{1,8}$' })), want: ['POST /payment/api/things request body: Request.ref: pattern changed from /^[a-z]+$/ to /^[a-z]{1,8}$/; values the old pattern accepted may be refused.'] }],
    ['a tighter request maximum', { after: changed((s) => (s.Request!.properties.amount = { type: 'number', maximum: 500 })), want: ['POST /payment/api/things request body: Request.amount: maximum tightened from 1000 to 500.'] }],
    ['a tighter length inside request array items', { after: changed((s) => (s.Request!.properties.tags = { type: 'array', items: { type: 'string', maxLength: 10 } })), want: ['POST /payment/api/things request body: Request.tags[]: maxLength tightened from 20 to 10.'] }],
    ['a request field removed where unknown fields are refused', { after: changed((s) => delete s.Request!.properties.note), want: ['POST /payment/api/things request body: Request: field note of Request was removed; merchants that send it are refused.'] }],
    ['a status code no longer documented', { after: changed((_, d) => delete d.paths['/payment/api/things']!.post!.responses['201']), want: ['POST /payment/api/things: status 201 is no longer documented.'] }],
    ['a new required query parameter', { after: changed((_, d) => d.paths['/payment/api/things']!.post!.parameters.push({ name: 'mode', in: 'query', required: true, schema: { type: 'string' } })), want: ['POST /payment/api/things query parameter mode: is new and required.'] }],
  ])('flags %s', (_name, { after, want }) => {
    expect(breakingChanges(base, after)).toEqual(want);
  });

  it.each<[string, OpenApiDocument]>([
    ['no change', contract()],
    ['a new operation', changed((_, d) => (d.paths['/payment/api/others'] = { get: { parameters: [], responses: { '200': json(ref('Thing')) } } }))],
    ['a new webhook', changed((_, d) => (d.webhooks['thing.failed'] = { post: { parameters: [], responses: { '200': {} } } }))],
    ['a new optional request field', changed((s) => (s.Request!.properties.tag = { type: 'string' }))],
    ['a new optional request field inside a oneOf branch', changed((s) => (s.WalletDestination!.properties.label = { type: 'string' }))],
    ['a new request oneOf branch', changed((s) => (s.Request!.properties.destination = { oneOf: [ref('BankDestination'), ref('WalletDestination'), { type: 'object', properties: { card: { type: 'string' } } }] }))],
    ['a new response field', changed((s) => (s.Thing!.properties.paidAt = { type: 'string' }))],
    ['a new webhook payload field', changed((s) => (s.ThingSummary!.properties.paidAt = { type: 'string' }))],
    ['a new required response field', changed((s) => (s.ThingSummary!.required = ['id', 'narration', 'paidAt']))],
    ['a new event in a response oneOf', changed((s) => (s.ThingEvent!.oneOf = [ref('ThingPaidEvent'), ref('ThingFailedEvent'), ref('ThingPaidEvent')]))],
    ['a new error code (an added response enum value)', changed((s) => (s.ErrorCode!.enum = ['INVALID', 'NOT_FOUND', 'RATE_LIMITED']))],
    ['a removed error code (a removed response enum value)', changed((s) => (s.ErrorCode!.enum = ['INVALID']))],
    ['a removed response status value', changed((s) => (s.Thing!.properties.status = { type: 'string', enum: ['PENDING'] }))],
    ['a widened request enum', changed((s) => (s.Request!.properties.kind = { type: 'string', enum: ['a', 'b', 'c'] }))],
    ['a looser request maximum', changed((s) => (s.Request!.properties.amount = { type: 'number', maximum: 5000 }))],
    ['a response schema wrapped in an allOf', changed((_, d) => (d.paths['/payment/api/things']!.post!.responses['201'] = json({ allOf: [ref('Thing')] })))],
    ['a new status code', changed((_, d) => (d.paths['/payment/api/things']!.post!.responses['429'] = json(ref('Error'))))],
    ['a new webhook header', changed((_, d) => d.webhooks['thing.paid']!.post!.parameters.push({ name: 'webhook-attempt', in: 'header', required: true, schema: { type: 'string' } }))],
  ])('lets %s pass', (_name, after) => {
    expect(breakingChanges(base, after)).toEqual([]);
  });

  it('compares a recursive schema once per path', () => {
    const recursive = (edit: (thing: Schemas[string]) => void = () => {}) =>
      changed((s) => {
        s.Thing!.properties.parent = ref('Thing');
        edit(s.Thing!);
      });
    expect(breakingChanges(recursive(), recursive())).toEqual([]);
    expect(breakingChanges(recursive(), recursive((thing) => delete thing.properties.note))).toEqual(['POST /payment/api/things 201 response: Thing: field note of Thing was removed or renamed.']);
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
