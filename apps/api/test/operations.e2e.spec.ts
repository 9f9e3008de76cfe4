import * as http from 'node:http';
import * as zlib from 'node:zlib';
import { signedCall, send } from './support/api-client';
import { MERCHANT_A, MERCHANT_B } from './support/credentials';
import { startTestApp, type TestApp } from './support/test-app';
import { EnquiryCache } from '../src/accounts/enquiry-cache';
import { SANDBOX_ACCOUNTS } from '../src/providers/sandbox/sandbox-accounts';

const ENQUIRY = '/payment/merchant-api/account/inquiry';
const PAYINS = '/payment/api/payins';

function account(outcome: string) {
  const found = SANDBOX_ACCOUNTS.find((a) => a.behaviour.outcome === outcome);
  if (!found) throw new Error(`no sandbox account for ${outcome}`);
  return found;
}

describe('operations over real HTTP', () => {
  let api: TestApp;
  beforeAll(async () => {
    api = await startTestApp();
  });
  afterAll(() => api.close());

  describe('list banks', () => {
    it('returns the catalogue with logo null', async () => {
      const response = await signedCall(api.baseUrl, { path: '/payment/merchant-api/banks', credential: MERCHANT_A });
      expect(response.status).toBe(200);
      const banks = response.body as Array<{ code: string; logo: null }>;
      expect(banks.length).toBeGreaterThanOrEqual(30);
      expect(banks).toContainEqual({ name: 'Guaranty Trust Bank', code: '058', logo: null, category: 'commercial' });
    });
  });

  describe('account enquiry', () => {
    it.each(SANDBOX_ACCOUNTS.filter((a) => a.behaviour.outcome === 'found').map((a) => [`${a.bankCode}/${a.accountNumber}`, a] as const))('resolves sandbox account %s', async (_name, a) => {
      const response = await signedCall(api.baseUrl, { path: ENQUIRY, body: JSON.stringify({ bankCode: a.bankCode, accountNumber: a.accountNumber }), credential: MERCHANT_A });
      expect(response.status).toBe(200);
      expect(response.json).toEqual({ success: true, code: '00000000', accountName: (a.behaviour as { accountName: string }).accountName, message: 'Success', enquiryId: expect.stringMatching(/^enq_[A-Za-z0-9_-]{22}$/), expiresAt: expect.any(String) });
    });

    it('resolves the request example of the contract', async () => {
      const response = await signedCall(api.baseUrl, { path: ENQUIRY, body: '{"bankCode":"058","accountNumber":"0123456785"}', credential: MERCHANT_A });
      expect(response.json).toMatchObject({ success: true, accountName: 'ADAEZE NWOSU' });
    });

    it.each<[string, { bankCode: string; accountNumber: string; status: number; code: string; retryable: boolean }]>([
      ['an unknown account', { ...account('not-found'), status: 422, code: 'ACCOUNT_NOT_FOUND', retryable: false }],
      ['a dormant account', { ...account('dormant'), status: 422, code: 'ACCOUNT_DORMANT', retryable: false }],
      ['an unavailable bank', { ...account('bank-unavailable'), status: 502, code: 'BANK_UNAVAILABLE', retryable: true }],
      ['a bank that does not answer', { ...account('timeout'), status: 504, code: 'UPSTREAM_TIMEOUT', retryable: true }],
      ['a wrong NUBAN check digit', { bankCode: '058', accountNumber: '0123456786', status: 422, code: 'NUBAN_CHECK_FAILED', retryable: false }],
    ])('reports %s with its documented code', async (_name, { bankCode, accountNumber, status, code, retryable }) => {
      const response = await signedCall(api.baseUrl, { path: ENQUIRY, body: JSON.stringify({ bankCode, accountNumber }), credential: MERCHANT_A });
      expect(response.status).toBe(status);
      expect(response.json).toMatchObject({ success: false, code, retryable });
    });

    it('caches successful results', async () => {
      const body = JSON.stringify({ bankCode: '044', accountNumber: '0001112221' });
      await signedCall(api.baseUrl, { path: ENQUIRY, body, credential: MERCHANT_A });
      const cache = api.app.get<EnquiryCache>(EnquiryCache);
      expect(await cache.get('sandbox:044:0001112221')).toBe('CHINEDU OKAFOR');
    });
  });

  describe('payins', () => {
    const payin = {
      amount: 1000.5,
      currency: 'NGN',
      customerEmail: 'ada@example.com',
      customerName: 'Ada Obi',
      gateway: 'card',
      narration: 'Order 1042',
      notifyUrl: 'https://merchant.example.com/hooks/payins',
      redirectUrl: 'http://localhost:8080/done',
      reference: 'order-1042',
    };

    it('creates a PENDING payin with 201 and reads it back', async () => {
      const created = await signedCall(api.baseUrl, { path: PAYINS, body: JSON.stringify(payin), credential: MERCHANT_A });
      expect(created.status).toBe(201);
      expect(created.json).toMatchObject({ ...payin, merchantId: 'MCH-A', status: 'PENDING' });
      expect(created.headers.get('location')).toBe('/payment/api/payins/order-1042');
      const read = await signedCall(api.baseUrl, { path: `${PAYINS}/order-1042`, credential: MERCHANT_A });
      expect(read.status).toBe(200);
      expect(read.json).toEqual(created.json);
    });

    it('replays the same reference and body with 200 and Idempotent-Replayed, whatever the number text', async () => {
      const body = JSON.stringify({ ...payin, reference: 'order-replay' });
      const first = await signedCall(api.baseUrl, { path: PAYINS, body, credential: MERCHANT_A });
      const again = await signedCall(api.baseUrl, { path: PAYINS, body: body.replace('"amount":1000.5', '"amount":1000.50'), credential: MERCHANT_A });
      expect(first.status).toBe(201);
      expect(again.status).toBe(200);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(again.json).toEqual(first.json);
    });

    it('refuses the same reference with a different body with 409', async () => {
      await signedCall(api.baseUrl, { path: PAYINS, body: JSON.stringify({ ...payin, reference: 'order-conflict' }), credential: MERCHANT_A });
      const conflict = await signedCall(api.baseUrl, { path: PAYINS, body: JSON.stringify({ ...payin, reference: 'order-conflict', amount: 2000 }), credential: MERCHANT_A });
      expect(conflict.status).toBe(409);
      expect(conflict.json).toMatchObject({ code: 'IDEMPOTENCY_CONFLICT' });
    });

    it('keeps references per merchant: another merchant neither sees nor collides with them', async () => {
      await signedCall(api.baseUrl, { path: PAYINS, body: JSON.stringify({ ...payin, reference: 'order-private' }), credential: MERCHANT_A });
      const read = await signedCall(api.baseUrl, { path: `${PAYINS}/order-private`, credential: MERCHANT_B });
      expect(read.status).toBe(404);
      expect(read.json).toMatchObject({ code: 'PAYIN_NOT_FOUND' });
      const own = await signedCall(api.baseUrl, { path: PAYINS, body: JSON.stringify({ ...payin, reference: 'order-private', amount: 5 }), credential: MERCHANT_B });
      expect(own.status).toBe(201);
    });

    it('answers 404 for an unknown reference', async () => {
      expect((await signedCall(api.baseUrl, { path: `${PAYINS}/never-created`, credential: MERCHANT_A })).json).toMatchObject({ code: 'PAYIN_NOT_FOUND' });
    });

    it('creates exactly one payin when the same create races', async () => {
      const body = JSON.stringify({ ...payin, reference: 'order-race' });
      const responses = await Promise.all(Array.from({ length: 10 }, () => signedCall(api.baseUrl, { path: PAYINS, body, credential: MERCHANT_A })));
      expect(responses.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 200, 201]);
    });
  });

  describe('operations endpoints', () => {
    /** A GET whose answer is kept as the bytes that came (fetch would decompress them). */
    const sendRaw = (path: string, headers: Record<string, string>) =>
      new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
        http
          .get(`${api.baseUrl}${path}`, { headers }, (response) => {
            const chunks: Buffer[] = [];
            response.on('data', (chunk: Buffer) => chunks.push(chunk));
            response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }));
          })
          .on('error', reject);
      });

    it('reports health', async () => {
      expect((await send(api.baseUrl, { method: 'GET', path: '/payment/health' })).json).toEqual({ status: 'ok', checks: { nonceStore: 'up', payinStore: 'up', lifecycle: 'up' } });
    });

    it('serves the contract, the reference page with its renderer, the protocol, the vectors and the runbooks', async () => {
      const yaml = await send(api.baseUrl, { method: 'GET', path: '/payment/openapi.yaml' });
      expect(yaml.status).toBe(200);
      expect(yaml.body).toContain('openapi: 3.1.0');
      // The page is rendered in a browser by Redoc, served from this origin (apps/sdk-e2e's docs browser test shows it).
      const page = await send(api.baseUrl, { method: 'GET', path: '/payment/docs' });
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toContain('text/html');
      expect(page.headers.get('content-security-policy')).toContain("script-src 'self';");
      const bundlePath = /<script src="(\/payment\/docs\/assets\/redoc\.standalone\.[A-Za-z0-9_-]{16}\.js)"><\/script>/.exec(page.body as string)?.[1];
      expect(bundlePath).toBeDefined();
      const bundle = await fetch(`${api.baseUrl}${bundlePath}`);
      expect(bundle.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
      expect((await bundle.text()).length).toBeGreaterThan(500_000);
      const protocol = await fetch(`${api.baseUrl}/payment/docs/protocol`);
      expect(protocol.status).toBe(200);
      expect(await protocol.text()).toContain('<h2 id="8-endpoints">8. Endpoints</h2>');
      expect(await (await fetch(`${api.baseUrl}/payment/docs/vectors.json`)).json()).toMatchObject({ secretsAreFake: true });
      // The runbooks, as the protocol: a page of its own style and nothing else, each alert's section at its name in lower case.
      const runbooks = await fetch(`${api.baseUrl}/payment/docs/runbooks`);
      expect(runbooks.status).toBe(200);
      expect(runbooks.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(runbooks.headers.get('x-content-type-options')).toBe('nosniff');
      expect(runbooks.headers.get('content-security-policy')).toBe(protocol.headers.get('content-security-policy'));
      expect(runbooks.headers.get('content-security-policy')).toMatch(/^default-src 'none'; style-src 'sha256-[A-Za-z0-9+/=]+'; /);
      expect(await runbooks.text()).toContain('<h2 id="paysignstoredown">PaysignStoreDown</h2>');
    });

    it("serves Redoc's bundle for almost nothing: immutable under its versioned name, 304 on its ETag, brotli or gzip made once", async () => {
      const page = await send(api.baseUrl, { method: 'GET', path: '/payment/docs' });
      const bundlePath = String(/src="(\/payment\/docs\/assets\/redoc\.standalone\.[^"]+\.js)"/.exec(page.body as string)?.[1]);
      const plain = await sendRaw(bundlePath, {});
      expect(plain.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(plain.headers.vary).toBe('accept-encoding');
      expect(plain.headers['content-encoding']).toBeUndefined();
      const etag = plain.headers.etag as string;
      expect(etag).toMatch(/^"[A-Za-z0-9_-]{16}"$/);
      const revalidated = await sendRaw(bundlePath, { 'if-none-match': etag });
      expect(revalidated.status).toBe(304);
      expect(revalidated.body.length).toBe(0);
      const br = await sendRaw(bundlePath, { 'accept-encoding': 'gzip, deflate, br' });
      expect(br.headers['content-encoding']).toBe('br');
      expect(zlib.brotliDecompressSync(br.body).equals(plain.body)).toBe(true);
      expect(br.body.length).toBeLessThan(plain.body.length / 3);
      const gz = await sendRaw(bundlePath, { 'accept-encoding': 'gzip, br;q=0' });
      expect(gz.headers['content-encoding']).toBe('gzip');
      expect(zlib.gunzipSync(gz.body).equals(plain.body)).toBe(true);
      // By its plain name, the same bytes, revalidated on each use rather than cached for good.
      expect((await sendRaw('/payment/docs/assets/redoc.standalone.js', {})).headers['cache-control']).toBe('public, no-cache');
      expect((await sendRaw('/payment/docs/assets/nothing.js', {})).status).toBe(404);
    });

    it('answers an unknown path with 404 ROUTE_NOT_FOUND', async () => {
      const response = await send(api.baseUrl, { method: 'GET', path: '/payment/nothing-here' });
      expect(response.status).toBe(404);
      expect(response.json).toMatchObject({ code: 'ROUTE_NOT_FOUND' });
    });
  });
});
