// client.webhookEndpoints with the service's answers scripted through the
// injected fetch, so no server is needed: each answer is the contract's own
// example for that operation and status, and each request is checked as the
// service would check it (method, path, body bytes, signature).
import { ContractValidator } from '@paysign/contracts/testing';
import { verify } from '@paysign/signing';
import { PaymentClient } from './payment-client';

const NOW_MS = 1_767_225_600_000;
const CREDENTIAL = { apiKey: 'pk_test_endpoints', secretKey: 'sk_test_endpoints_0123456789', merchantId: 'MCH-W', tenantId: 'TEN-W' };
const ID = 'we_bpZ5q4pxq_SRi6SMaHaZ9g';
const ENDPOINTS = '/payment/api/webhook-endpoints';

const contract = new ContractValidator();

/** The contract's example of an answer, by the operation, status and name the contract gives it. */
function example(label: string): { status: number; body: unknown } {
  const found = contract.examples().find((e) => e.name === label);
  if (!found) throw new Error(`the contract has no example ${label}`);
  return { status: Number(label.split(' ')[2]), body: found.value };
}

const answer = ({ status, body }: { status: number; body: unknown }) => Response.json(body, { status, headers: { 'x-request-id': 'req-1' } });

interface Sent {
  method: string;
  path: string;
  body: string;
  signed: boolean;
}

/** A client whose fetch answers from a script and records each request, checking its signature with the credential's secret. */
function scriptedClient(answers: Array<Response | Error>) {
  const sent: Sent[] = [];
  const client = new PaymentClient({
    baseUrl: 'http://service.test',
    ...CREDENTIAL,
    clock: () => NOW_MS,
    nonce: () => `nonce-${sent.length + 1}`,
    retryDelayMs: 1,
    fetch: async (request) => {
      const url = new URL(request.url);
      const path = `${url.pathname}${url.search}`;
      const body = await request.text();
      const headers = Object.fromEntries(request.headers);
      const signed = verify({ method: request.method, path, headers, body: body === '' ? undefined : body, now: NOW_MS / 1000, secretFor: () => CREDENTIAL.secretKey }).ok;
      sent.push({ method: request.method, path, body, signed });
      const next = answers.shift();
      if (next === undefined) throw new Error('the script has no more answers');
      if (next instanceof Error) throw next;
      return next;
    },
  });
  return { client, sent };
}

describe('client.webhookEndpoints', () => {
  it.each<[string, { call: (client: PaymentClient) => Promise<unknown>; answer: string; sent: Omit<Sent, 'signed'>; schema?: string; want?: (answerBody: unknown) => unknown }]>([
    [
      'create sends the event types as the contract\'s comma-separated list, and answers the endpoint with its secret',
      {
        call: (client) => client.webhookEndpoints.create({ url: 'https://merchant.example.com/hooks/paysign', enabledEvents: ['payin.successful', 'refund.successful', 'refund.failed'], description: 'Order fulfilment' }),
        answer: `POST ${ENDPOINTS} 201 example "created"`,
        sent: { method: 'POST', path: ENDPOINTS, body: '{"url":"https://merchant.example.com/hooks/paysign","enabledEvents":"payin.successful,refund.successful,refund.failed","description":"Order fulfilment"}' },
        schema: 'CreateWebhookEndpointRequest',
      },
    ],
    [
      'create sends * for every event type, and enabled as given',
      {
        call: (client) => client.webhookEndpoints.create({ url: 'https://merchant.example.com/hooks/all', enabledEvents: '*', enabled: false }),
        answer: `POST ${ENDPOINTS} 201 example "created"`,
        sent: { method: 'POST', path: ENDPOINTS, body: '{"url":"https://merchant.example.com/hooks/all","enabledEvents":"*","enabled":false}' },
        schema: 'CreateWebhookEndpointRequest',
      },
    ],
    [
      'list answers the endpoints, oldest first',
      {
        call: (client) => client.webhookEndpoints.list(),
        answer: `GET ${ENDPOINTS} 200 example "two"`,
        sent: { method: 'GET', path: ENDPOINTS, body: '' },
        want: (body) => (body as { data: unknown[] }).data,
      },
    ],
    [
      'get reads one by its id',
      {
        call: (client) => client.webhookEndpoints.get(ID),
        answer: `GET ${ENDPOINTS}/{id} 200 example "enabled"`,
        sent: { method: 'GET', path: `${ENDPOINTS}/${ID}`, body: '' },
      },
    ],
    [
      'update sends only the fields given',
      {
        call: (client) => client.webhookEndpoints.update(ID, { enabled: false, description: 'Paused while the receiver moves' }),
        answer: `PATCH ${ENDPOINTS}/{id} 200 example "disabled"`,
        sent: { method: 'PATCH', path: `${ENDPOINTS}/${ID}`, body: '{"enabled":false,"description":"Paused while the receiver moves"}' },
        schema: 'UpdateWebhookEndpointRequest',
      },
    ],
    [
      'update takes the list an endpoint answers, ["*"] included',
      {
        call: (client) => client.webhookEndpoints.update(ID, { enabledEvents: ['*'] }),
        answer: `PATCH ${ENDPOINTS}/{id} 200 example "disabled"`,
        sent: { method: 'PATCH', path: `${ENDPOINTS}/${ID}`, body: '{"enabledEvents":"*"}' },
        schema: 'UpdateWebhookEndpointRequest',
      },
    ],
    [
      'delete sends no body',
      {
        call: (client) => client.webhookEndpoints.delete(ID),
        answer: `DELETE ${ENDPOINTS}/{id} 200 example "deleted"`,
        sent: { method: 'DELETE', path: `${ENDPOINTS}/${ID}`, body: '' },
      },
    ],
    [
      'rollSecret sends how long the previous secret keeps signing, and answers the new secret',
      {
        call: (client) => client.webhookEndpoints.rollSecret(ID, { expiresIn: 3600 }),
        answer: `POST ${ENDPOINTS}/{id}/roll-secret 200 example "rolled"`,
        sent: { method: 'POST', path: `${ENDPOINTS}/${ID}/roll-secret`, body: '{"expiresIn":3600}' },
        schema: 'RollWebhookEndpointSecretRequest',
      },
    ],
    [
      "rollSecret without expiresIn leaves it to the service's default",
      {
        call: (client) => client.webhookEndpoints.rollSecret(ID),
        answer: `POST ${ENDPOINTS}/{id}/roll-secret 200 example "rolled"`,
        sent: { method: 'POST', path: `${ENDPOINTS}/${ID}/roll-secret`, body: '{}' },
        schema: 'RollWebhookEndpointSecretRequest',
      },
    ],
  ])('%s', async (_name, { call, answer: label, sent: want, schema, want: result = (body) => body }) => {
    const given = example(label);
    const { client, sent } = scriptedClient([answer(given)]);
    await expect(call(client)).resolves.toEqual(result(given.body));
    expect(sent).toEqual([{ ...want, signed: true }]);
    // The body sent is one the contract takes.
    if (schema) expect(contract.validateAt(`/components/schemas/${schema}`, JSON.parse(want.body))).toEqual([]);
  });

  it.each<[string, { call: (client: PaymentClient) => Promise<unknown>; answer: string; want: Record<string, unknown> }]>([
    ['an endpoint that does not exist', { call: (client) => client.webhookEndpoints.get(ID), answer: `GET ${ENDPOINTS}/{id} 404 example "endpointNotFound"`, want: { name: 'NotFoundError', code: 'WEBHOOK_ENDPOINT_NOT_FOUND', status: 404 } }],
    [
      'a merchant with the most endpoints it may hold',
      { call: (client) => client.webhookEndpoints.create({ url: 'https://merchant.example.com/hooks/more', enabledEvents: '*' }), answer: `POST ${ENDPOINTS} 409 example "limitReached"`, want: { name: 'ConflictError', code: 'WEBHOOK_ENDPOINTS_LIMIT_REACHED', status: 409 } },
    ],
    ['a credential without webhooks:manage', { call: (client) => client.webhookEndpoints.list(), answer: `GET ${ENDPOINTS} 403 example "rolerequired"`, want: { name: 'PermissionError', code: 'ROLE_REQUIRED', status: 403 } }],
  ])('throws the error class of %s, without retrying', async (_name, { call, answer: label, want }) => {
    const { client, sent } = scriptedClient([answer(example(label))]);
    await expect(call(client)).rejects.toMatchObject({ ...want, requestId: '4f1c2a9e-3b7d-4e2a-9c1f-2d8e6b5a7c31' });
    expect(sent).toHaveLength(1);
  });

  describe('a call that is not idempotent, sent again only after a refusal that did nothing', () => {
    const internalError = () => answer(example(`POST ${ENDPOINTS} 500 example "internalError"`));
    const storeDown = () => answer(example(`POST ${ENDPOINTS} 503 example "storeDown"`));
    const created = () => answer(example(`POST ${ENDPOINTS} 201 example "created"`));
    const rolled = () => answer(example(`POST ${ENDPOINTS}/{id}/roll-secret 200 example "rolled"`));
    const create = (client: PaymentClient) => client.webhookEndpoints.create({ url: 'https://merchant.example.com/hooks/paysign', enabledEvents: ['payin.successful'] });
    const roll = (client: PaymentClient) => client.webhookEndpoints.rollSecret(ID);

    it.each<[string, { call: (client: PaymentClient) => Promise<unknown>; answers: () => Array<Response | Error>; want: Record<string, unknown> }]>([
      ['does not send create again after a 500: whether it took effect is unknown', { call: create, answers: () => [internalError(), created()], want: { name: 'ApiError', code: 'INTERNAL_ERROR' } }],
      ['does not send create again after a lost connection', { call: create, answers: () => [new TypeError('other side closed'), created()], want: { name: 'ConnectionError', code: 'CONNECTION_FAILED' } }],
      ['does not send rollSecret again after a 500', { call: roll, answers: () => [internalError(), rolled()], want: { name: 'ApiError', code: 'INTERNAL_ERROR' } }],
    ])('%s', async (_name, { call, answers, want }) => {
      const { client, sent } = scriptedClient(answers());
      await expect(call(client)).rejects.toMatchObject(want);
      expect(sent).toHaveLength(1);
    });

    it.each<[string, { call: (client: PaymentClient) => Promise<unknown>; answers: () => Response[] }]>([
      ['sends create again, signed afresh, after a store was down', { call: create, answers: () => [storeDown(), created()] }],
      ['sends rollSecret again, signed afresh, after a store was down', { call: roll, answers: () => [storeDown(), rolled()] }],
      ['sends get again after a 500, as any read', { call: (client) => client.webhookEndpoints.get(ID), answers: () => [internalError(), answer(example(`GET ${ENDPOINTS}/{id} 200 example "enabled"`))] }],
      ['sends delete again after a 500: deleting twice deletes once', { call: (client) => client.webhookEndpoints.delete(ID), answers: () => [internalError(), answer(example(`DELETE ${ENDPOINTS}/{id} 200 example "deleted"`))] }],
    ])('%s', async (_name, { call, answers }) => {
      const { client, sent } = scriptedClient(answers());
      await expect(call(client)).resolves.toBeDefined();
      expect(sent.map((s) => s.signed)).toEqual([true, true]);
    });
  });
});
