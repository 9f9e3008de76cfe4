// What an operator sees: metrics that move with traffic, request ids kept end
// to end, every log line in pino, probes kept out of the info log.
import type { AccountNameProvider } from '../src/providers/ports/account-names.port';
import { signedCall } from './support/api-client';
import { MERCHANT_A } from './support/credentials';
import { freePort } from './support/private-redis';
import { FAKE_PAYSTACK_LIVE_KEY } from './support/paystack-settings';
import { describeInProduction } from './support/stores';
import { PRODUCTION_SETTINGS, startProductionTestApp, startTestApp, type TestApp } from './support/test-app';
import { version } from '../package.json';

const BANKS = '/payment/merchant-api/banks';

/** The value of one sample of the Prometheus text, 0 when absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    if (Object.entries(labels).every(([k, v]) => line.includes(`${k}="${v}"`))) return Number(line.split(' ').pop());
  }
  return 0;
}

describe('metrics', () => {
  let api: TestApp;
  const metrics = async () => (await fetch(`${api.baseUrl}/payment/metrics`)).text();
  beforeAll(async () => {
    api = await startTestApp();
  });
  afterAll(() => api.close());

  it('counts requests, latency, signature failures and store operations as they are served', async () => {
    const before = await metrics();
    for (let i = 0; i < 3; i++) expect((await signedCall(api.baseUrl, { path: BANKS, credential: MERCHANT_A })).status).toBe(200);
    await signedCall(api.baseUrl, { path: BANKS, credential: { ...MERCHANT_A, secretKey: 'sk_wrong_wrong_wrong_wrong_wrong_wrong' } });
    await signedCall(api.baseUrl, { path: '/payment/api/payins/metrics-unknown', credential: MERCHANT_A });
    const after = await metrics();

    const ok = { route: '/payment/merchant-api/banks', method: 'GET', status: '200', outcome: 'OK' };
    expect(sample(after, 'paysign_http_requests_total', ok) - sample(before, 'paysign_http_requests_total', ok)).toBe(3);
    const latency = { route: '/payment/merchant-api/banks', method: 'GET' };
    expect(sample(after, 'paysign_http_request_duration_seconds_count', latency) - sample(before, 'paysign_http_request_duration_seconds_count', latency)).toBe(4);
    const mismatch = { code: 'AUTH_SIGNATURE_MISMATCH' };
    expect(sample(after, 'paysign_signature_failures_total', mismatch) - sample(before, 'paysign_signature_failures_total', mismatch)).toBe(1);
    const claims = { store: 'nonce store', operation: 'claim' };
    expect(sample(after, 'paysign_store_operation_duration_seconds_count', claims) - sample(before, 'paysign_store_operation_duration_seconds_count', claims)).toBe(4);
    const finds = { store: 'payin store', operation: 'find' };
    expect(sample(after, 'paysign_store_operation_duration_seconds_count', finds) - sample(before, 'paysign_store_operation_duration_seconds_count', finds)).toBe(1);
    expect(sample(after, 'nodejs_eventloop_lag_seconds')).toBeGreaterThan(0);
    expect(sample(after, 'process_resident_memory_bytes')).toBeGreaterThan(0);
  });

  it('answers health checks without a store operation: the stores are pinged in the background instead', async () => {
    // The background jobs (the store-health pings among them) are off: a webhook poll or a sweep landing between the two readings would count as the checks'.
    const quiet = await startTestApp({ HEALTH_PROBE_INTERVAL_MS: '30000' }, { startJobs: false });
    try {
      const storeOperations = async () => {
        const text = await (await fetch(`${quiet.baseUrl}/payment/metrics`)).text();
        return text.split('\n').filter((line) => line.startsWith('paysign_store_operation_duration_seconds_count')).reduce((sum, line) => sum + Number(line.split(' ').pop()), 0);
      };
      const before = await storeOperations();
      const answers = await Promise.all(Array.from({ length: 50 }, () => fetch(`${quiet.baseUrl}/payment/health/ready`).then((r) => r.status)));
      expect(answers).toEqual(Array(50).fill(200));
      expect(await storeOperations()).toBe(before);
    } finally {
      await quiet.close();
    }
  });

  it('counts rate-limit refusals', async () => {
    const limited = await startTestApp({ RATE_LIMIT_PER_KEY_PER_SECOND: '1', RATE_LIMIT_PER_KEY_BURST: '1' });
    try {
      const statuses = [];
      for (let i = 0; i < 3; i++) statuses.push((await signedCall(limited.baseUrl, { path: BANKS, credential: MERCHANT_A })).status);
      const text = await (await fetch(`${limited.baseUrl}/payment/metrics`)).text();
      expect(sample(text, 'paysign_rate_limited_total', { source: 'API key' })).toBe(statuses.filter((s) => s === 429).length);
      expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(1);
    } finally {
      await limited.close();
    }
  });

  it('reports the build: the version of apps/api/package.json, and an unknown commit when run from the sources', async () => {
    expect(version).toMatch(/^\d+\.\d+\.\d+/);
    expect(await metrics()).toContain(`paysign_build_info{version="${version}",commit="unknown"} 1`);
  });

  it('reports every seam configured, as the sandbox has them', async () => {
    const text = await metrics();
    expect(text).toContain('paysign_provider_not_configured{seam="gateway"} 0');
    expect(text).toContain('paysign_provider_not_configured{seam="payouts"} 0');
  });

  it("names where the runbooks are: the service's own page where it listens by default, else RUNBOOK_BASE_URL", async () => {
    expect(await metrics()).toContain(`paysign_runbooks_info{base_url="${api.baseUrl}/payment/docs/runbooks"} 1`);
    const wiki = await startTestApp({ RUNBOOK_BASE_URL: 'https://wiki.example.com/paysign/runbooks/' });
    try {
      expect(await (await fetch(`${wiki.baseUrl}/payment/metrics`)).text()).toContain('paysign_runbooks_info{base_url="https://wiki.example.com/paysign/runbooks"} 1');
    } finally {
      await wiki.close();
    }
  });

  it('can be turned off', async () => {
    const off = await startTestApp({ METRICS_ENABLED: 'false' });
    try {
      expect((await fetch(`${off.baseUrl}/payment/metrics`)).status).toBe(404);
    } finally {
      await off.close();
    }
  });

  it('can be served on a port of their own, and then not on the service port', async () => {
    const port = await freePort();
    const separate = await startTestApp({ METRICS_PORT: String(port) });
    try {
      const response = await fetch(`http://127.0.0.1:${port}/payment/metrics`);
      expect(response.status).toBe(200);
      expect(await response.text()).toContain('paysign_http_requests_total');
      expect((await fetch(`${separate.baseUrl}/payment/metrics`)).status).toBe(404);
    } finally {
      await separate.close();
    }
  });
});

describeInProduction('production with a seam that has no provider', () => {
  it('warns at boot naming the seam and what it means, reports it in paysign_provider_not_configured, and builds the runbook links on PUBLIC_BASE_URL', async () => {
    // The payout seam configured (its provider is never called here), the gateway left at production's default.
    const api = await startProductionTestApp({ PAYMENT_GATEWAY: 'none', PAYOUT_PROVIDER: 'paystack', PAYSTACK_SECRET_KEY: FAKE_PAYSTACK_LIVE_KEY, PAYSTACK_BASE_URL: 'http://127.0.0.1:9' }, { startJobs: false });
    try {
      expect(api.logs).toContainEqual(
        expect.objectContaining({ level: 40, seam: 'gateway', msg: 'no payment gateway (PAYMENT_GATEWAY=none): every payin create answers 422 GATEWAY_NOT_CONFIGURED until PAYMENT_GATEWAY names one' }),
      );
      expect(api.logs.filter((line) => line.seam === 'payouts')).toEqual([]);
      const text = await (await fetch(`${api.baseUrl}/payment/metrics`, { headers: { authorization: `Bearer ${PRODUCTION_SETTINGS.METRICS_TOKEN}` } })).text();
      expect(text).toContain('paysign_provider_not_configured{seam="gateway"} 1');
      expect(text).toContain('paysign_provider_not_configured{seam="payouts"} 0');
      expect(text).toContain('paysign_runbooks_info{base_url="https://pay.example.com/payment/docs/runbooks"} 1');
      // What the warning says.
      const payin = await signedCall(api.baseUrl, { path: '/payment/api/payins', body: JSON.stringify({ amount: 1500, currency: 'NGN', customerEmail: 'ada@example.com', reference: `no-gateway-${Date.now()}` }), credential: MERCHANT_A });
      expect([payin.status, payin.json.code]).toEqual([422, 'GATEWAY_NOT_CONFIGURED']);
    } finally {
      await api.close();
    }
  });
});

describe('logs', () => {
  let api: TestApp;
  const failingProvider: AccountNameProvider = {
    name: 'failing',
    lookup: async () => {
      throw new Error('connection to the bank switch refused');
    },
  };
  beforeAll(async () => {
    api = await startTestApp({}, { overrides: { accountNameProvider: failingProvider } });
  });
  afterAll(() => api.close());

  it.each<[string, { given: string; kept: boolean }]>([
    ['keeps a well-formed X-Request-Id', { given: 'trace-7f3a.42', kept: true }],
    ['replaces one with spaces', { given: 'not a safe id', kept: false }],
    ['replaces one of 200 characters', { given: 'x'.repeat(200), kept: false }],
  ])('%s, in the answer and in the log', async (_name, { given, kept }) => {
    const response = await signedCall(api.baseUrl, { path: BANKS, credential: MERCHANT_A, headers: { 'X-Request-Id': given } });
    const id = response.headers.get('x-request-id');
    if (kept) expect(id).toBe(given);
    else expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(api.logs).toContainEqual(expect.objectContaining({ msg: 'request completed', requestId: id }));
  });

  it("sends a provider's Nest Logger warnings to the JSON log, with their context", async () => {
    const response = await signedCall(api.baseUrl, { path: '/payment/merchant-api/account/inquiry', body: '{"bankCode":"058","accountNumber":"0123456785"}', credential: MERCHANT_A });
    expect(response.json.code).toBe('BANK_UNAVAILABLE');
    expect(api.logs).toContainEqual(expect.objectContaining({ level: 50, context: 'AccountEnquiryService', msg: 'account name provider failed: connection to the bank switch refused' }));
  });

  it('names the public API key and the client address on a 401 line, never the secret or the signature', async () => {
    const wrong = { ...MERCHANT_A, secretKey: 'sk_wrong_wrong_wrong_wrong_wrong_wrong' };
    const refused = await signedCall(api.baseUrl, { path: BANKS, credential: wrong });
    const line = api.logs.find((l) => l.requestId === refused.headers.get('x-request-id'));
    expect(line).toMatchObject({ status: 401, apiKey: 'pk_live_a', clientAddress: '127.0.0.1', outcome: 'AUTH_SIGNATURE_MISMATCH' });
    const unknown = await signedCall(api.baseUrl, { path: BANKS, credential: { ...MERCHANT_A, apiKey: 'sk_live_pasted_in_the_wrong_header' } });
    expect(api.logs.find((l) => l.requestId === unknown.headers.get('x-request-id'))).toMatchObject({ apiKey: '(unknown)' });
    const everything = JSON.stringify(api.logs);
    expect(everything).not.toContain('sk_wrong_wrong');
    expect(everything).not.toContain('sk_live_pasted_in_the_wrong_header');
    expect(everything).not.toMatch(/[0-9a-f]{64}/);
  });

  it('keeps successful probes out of the info log', async () => {
    const before = api.logs.length;
    for (const path of ['/payment/health', '/payment/health/live', '/payment/health/ready', '/payment/metrics']) expect((await fetch(`${api.baseUrl}${path}`)).status).toBe(200);
    expect(api.logs.slice(before).filter((l) => l.msg === 'request completed')).toEqual([]);
  });
});
