// The merchant's webhook endpoints over the signed API, on the real app and
// real receivers: an event goes to every enabled endpoint that takes its
// type, each delivery signed with its endpoint's secrets, two during a roll;
// the webhooks:manage role, the URL rules and the per-merchant limit hold.
import { randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { signedCall } from './support/api-client';
import { MERCHANT_A, type TestCredential } from './support/credentials';
import { merchantAdmin } from './support/merchant-changes';
import { describeInProduction } from './support/stores';
import { startProductionTestApp, startTestApp, type TestApp } from './support/test-app';
import { WebhookReceiver, type ReceivedWebhook } from './support/webhook-receiver';

const ENDPOINTS = '/payment/api/webhook-endpoints';
const PAYINS = '/payment/api/payins';

/** A merchant of the app's own, added as the operator's command adds one: its key holds webhooks:manage. */
async function newMerchant(api: TestApp, label: string): Promise<TestCredential> {
  const merchantId = `MCH-${label}-${randomUUID().slice(0, 8)}`;
  const added = await merchantAdmin(api).run((admin) => admin.add({ merchantId, tenantId: `TEN-${label}`, name: `${label} Shop` }));
  return { apiKey: added.apiKey, secretKey: added.secretKey, merchantId, tenantId: added.tenantId };
}

const call = (api: TestApp, credential: TestCredential, method: string, path: string, body?: Record<string, unknown>) =>
  signedCall(api.baseUrl, { method, path, credential, ...(body ? { body: JSON.stringify(body) } : {}) });

/** The signatures a delivery carries that verify under `secret`. */
function verifiesWith(delivery: ReceivedWebhook, secret: string): boolean {
  const headers = { 'webhook-id': String(delivery.headers['webhook-id']), 'webhook-timestamp': String(delivery.headers['webhook-timestamp']), 'webhook-signature': String(delivery.headers['webhook-signature']) };
  try {
    new Webhook(secret).verify(delivery.body, headers);
    return true;
  } catch {
    return false;
  }
}

describe('webhook endpoints', () => {
  let api: TestApp;
  let receivers: WebhookReceiver[];
  let merchant: TestCredential;
  beforeAll(async () => {
    receivers = [await WebhookReceiver.start(), await WebhookReceiver.start()];
    api = await startTestApp({ WEBHOOK_POLL_INTERVAL_MS: '50', WEBHOOK_RETRY_SCHEDULE: '0,1', WEBHOOK_ENDPOINTS_PER_MERCHANT: '3' });
    merchant = await newMerchant(api, 'HOOKS');
  });
  afterAll(async () => {
    await api.close();
    await Promise.all(receivers.map((r) => r.close()));
  });
  const [first, second] = [0, 1];
  const payinPaid = async () => {
    const reference = `we-${randomUUID().slice(0, 8)}`;
    expect((await call(api, merchant, 'POST', PAYINS, { amount: 100, currency: 'NGN', customerEmail: 'ada@example.com', reference })).status).toBe(201);
    expect((await call(api, merchant, 'POST', `${PAYINS}/${reference}/simulate`, { outcome: 'successful' })).status).toBe(200);
    return reference;
  };

  it('sends each event to every enabled endpoint that takes its type, each signed with its own secret and under its own webhook-id', async () => {
    const all = await call(api, merchant, 'POST', ENDPOINTS, { url: receivers[first]?.url, enabledEvents: '*', description: 'Everything' });
    expect(all.status).toBe(201);
    expect(all.headers.get('location')).toBe(`${ENDPOINTS}/${String(all.json.id)}`);
    expect(all.json).toMatchObject({ enabledEvents: ['*'], status: 'enabled', description: 'Everything', secrets: [{ expiresAt: null }] });
    expect(all.json.secret).toMatch(/^whsec_/);
    const payins = await call(api, merchant, 'POST', ENDPOINTS, { url: receivers[second]?.url, enabledEvents: 'payin.successful,payin.failed' });
    expect(payins.json.enabledEvents).toEqual(['payin.successful', 'payin.failed']);

    const reference = await payinPaid();
    const [toAll] = await receivers[first]!.waitFor(reference, 1);
    const [toPayins] = await receivers[second]!.waitFor(reference, 1);
    expect(verifiesWith(toAll!, all.json.secret as string)).toBe(true);
    expect(verifiesWith(toAll!, payins.json.secret as string)).toBe(false);
    expect(verifiesWith(toPayins!, payins.json.secret as string)).toBe(true);
    expect(toAll!.headers['webhook-id']).not.toBe(toPayins!.headers['webhook-id']);
    expect(JSON.parse(toAll!.body)).toMatchObject({ type: 'payin.successful', data: { reference } });

    const listed = await call(api, merchant, 'GET', ENDPOINTS);
    expect((listed.json.data as Array<{ id: string }>).map((e) => e.id)).toEqual([all.json.id, payins.json.id]);
    expect(JSON.stringify(listed.json)).not.toContain('whsec_');
  });

  it('signs with both secrets during a roll, and with the new one alone after expiresIn 0', async () => {
    const [endpoint] = (await call(api, merchant, 'GET', ENDPOINTS)).json.data as Array<{ id: string; secrets: Array<{ fingerprint: string }> }>;
    const old = (await call(api, merchant, 'GET', `${ENDPOINTS}/${endpoint!.id}`)).json;
    const rolled = await call(api, merchant, 'POST', `${ENDPOINTS}/${endpoint!.id}/roll-secret`, { expiresIn: 3600 });
    expect(rolled.status).toBe(200);
    const secrets = rolled.json.secrets as Array<{ fingerprint: string; expiresAt: string | null }>;
    expect(secrets).toHaveLength(2);
    expect(secrets[0]?.expiresAt).toBeNull();
    expect(secrets[1]).toMatchObject({ fingerprint: (old.secrets as Array<{ fingerprint: string }>)[0]?.fingerprint, expiresAt: expect.any(String) });

    const reference = await payinPaid();
    const [delivery] = await receivers[first]!.waitFor(reference, 1);
    expect(String(delivery!.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(verifiesWith(delivery!, rolled.json.secret as string)).toBe(true);

    const again = await call(api, merchant, 'POST', `${ENDPOINTS}/${endpoint!.id}/roll-secret`, { expiresIn: 0 });
    expect(again.json.secrets as unknown[]).toHaveLength(1);
    const next = await payinPaid();
    const [alone] = await receivers[first]!.waitFor(next, 1);
    expect(String(alone!.headers['webhook-signature']).split(' ')).toHaveLength(1);
    expect(verifiesWith(alone!, again.json.secret as string)).toBe(true);
    expect(verifiesWith(alone!, rolled.json.secret as string)).toBe(false);
  });

  it('stops sending to a disabled or deleted endpoint, and answers 404 for a deleted one', async () => {
    const [, payinsEndpoint] = (await call(api, merchant, 'GET', ENDPOINTS)).json.data as Array<{ id: string }>;
    const disabled = await call(api, merchant, 'PATCH', `${ENDPOINTS}/${payinsEndpoint!.id}`, { enabled: false, description: 'Paused' });
    expect(disabled.json).toMatchObject({ status: 'disabled', description: 'Paused' });
    const reference = await payinPaid();
    await receivers[first]!.waitFor(reference, 1);
    expect(receivers[second]!.deliveriesOf(reference)).toEqual([]);

    const deleted = await call(api, merchant, 'DELETE', `${ENDPOINTS}/${payinsEndpoint!.id}`);
    expect(deleted.json).toEqual({ id: payinsEndpoint!.id, deleted: true });
    const gone = await call(api, merchant, 'GET', `${ENDPOINTS}/${payinsEndpoint!.id}`);
    expect([gone.status, gone.json.code]).toEqual([404, 'WEBHOOK_ENDPOINT_NOT_FOUND']);
    expect((await call(api, merchant, 'PATCH', `${ENDPOINTS}/${payinsEndpoint!.id}`, { enabled: true })).status).toBe(404);
  });

  it('refuses a key without webhooks:manage, another merchant\'s endpoint, and bad input, with the documented errors', async () => {
    const refused = await call(api, MERCHANT_A, 'GET', ENDPOINTS);
    expect([refused.status, refused.json.code]).toEqual([403, 'ROLE_REQUIRED']);
    expect(refused.json.message).toContain('webhooks:manage');
    const [mine] = (await call(api, merchant, 'GET', ENDPOINTS)).json.data as Array<{ id: string }>;
    const other = await newMerchant(api, 'OTHER');
    expect((await call(api, other, 'GET', `${ENDPOINTS}/${mine!.id}`)).status).toBe(404);

    const bad = await call(api, merchant, 'POST', ENDPOINTS, { url: 'ftp://example.com/hooks', enabledEvents: 'payin.successful,payin.teleported', colour: 'red' });
    expect(bad.status).toBe(400);
    expect((bad.json.details as Array<{ field: string }>).map((d) => d.field).sort()).toEqual(['colour', 'enabledEvents', 'url']);
    expect((await call(api, merchant, 'PATCH', `${ENDPOINTS}/${mine!.id}`, {})).status).toBe(400);
    expect((await call(api, merchant, 'POST', `${ENDPOINTS}/${mine!.id}/roll-secret`, { expiresIn: 604801 })).json.code).toBe('VALIDATION_FAILED');
    expect((await call(api, merchant, 'GET', `${ENDPOINTS}/not-an-id`)).json.code).toBe('VALIDATION_FAILED');
  });

  it('holds a merchant to WEBHOOK_ENDPOINTS_PER_MERCHANT, and records each change in the audit trail under the key that made it', async () => {
    const created: number[] = [];
    for (let i = 0; i < 3; i += 1) created.push((await call(api, merchant, 'POST', ENDPOINTS, { url: `https://hooks-${i}.example.com/in`, enabledEvents: 'refund.failed' })).status);
    expect(created).toEqual([201, 201, 409]);
    const over = await call(api, merchant, 'POST', ENDPOINTS, { url: 'https://hooks-4.example.com/in', enabledEvents: 'refund.failed' });
    expect([over.status, over.json.code]).toEqual([409, 'WEBHOOK_ENDPOINTS_LIMIT_REACHED']);
    const audit = await merchantAdmin(api).run((admin) => admin.audit({ merchantId: merchant.merchantId, limit: 100 }));
    expect(audit.map((r) => r.action)).toEqual(expect.arrayContaining(['webhook-endpoint.create', 'webhook-endpoint.roll-secret', 'webhook-endpoint.update', 'webhook-endpoint.delete']));
    expect(audit.filter((r) => r.action !== 'add').every((r) => r.actor === merchant.apiKey && r.channel === 'api')).toBe(true);
  });
});

describeInProduction('webhook endpoints in production mode', () => {
  let api: TestApp;
  beforeAll(async () => {
    api = await startProductionTestApp();
  });
  afterAll(() => api.close());

  it.each([
    ['http', 'http://hooks.example.com/in'],
    ['a loopback address', 'https://127.0.0.1/hooks'],
    ['a private address', 'https://10.0.0.8/hooks'],
  ])('refuses a URL on %s with 400, as for notifyUrl', async (_name, url) => {
    const merchant = await newMerchant(api, 'PROD');
    const refused = await call(api, merchant, 'POST', ENDPOINTS, { url, enabledEvents: '*' });
    expect(refused.status).toBe(400);
    expect(refused.json.details).toEqual([expect.objectContaining({ field: 'url' })]);
  });
});
