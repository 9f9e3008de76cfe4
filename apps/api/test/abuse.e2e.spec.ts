// What a hostile client can send, over real HTTP: nothing it sends may exhaust
// the service, hang it, or lock out other merchants.
import { createHmac, randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import { sign } from '@paysign/signing';
import { send, signedCall } from './support/api-client';
import { startBuiltService } from './support/built-service';
import { MERCHANT_A, MERCHANT_A_ROTATED, MERCHANT_B, freshMerchants, type TestCredential } from './support/credentials';
import { rawExchange, rawJsonBody } from './support/raw-http';
import { REDIS_URL, describeWithStore } from './support/stores';
import { TestClock } from './support/test-clock';
import { nonceKey } from '../src/nonce/nonce-store.interface';
import { RedisConnection } from '../src/redis/redis-connection';
import { FAKE_PAYSTACK_LIVE_KEY, paystackEverywhere } from './support/paystack-settings';
import { startProductionTestApp, startTestApp, type TestApp } from './support/test-app';

const BANKS = '/payment/merchant-api/banks';
const ENQUIRY = '/payment/merchant-api/account/inquiry';
const PAYINS = '/payment/api/payins';

/** A request head signed now over `body`, as raw HTTP/1.1 text, announcing `contentLength` bytes. */
function signedHead(credential: TestCredential, body: string, contentLength = Buffer.byteLength(body)): string {
  const { headers } = sign({ ...credential, nonce: randomUUID(), timestamp: Math.floor(Date.now() / 1000), method: 'POST', path: PAYINS, body });
  const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}`);
  return [`POST ${PAYINS} HTTP/1.1`, 'Host: 127.0.0.1', 'Content-Type: application/json', `Content-Length: ${contentLength}`, ...lines, '', ''].join('\r\n');
}

describe('refusing before the body is read', () => {
  let api: TestApp;
  beforeAll(async () => {
    api = await startTestApp();
  });
  afterAll(() => api.close());

  it.each<[string, string, string]>([
    ['no signing headers', '', 'AUTH_HEADER_MISSING'],
    ['an unknown API key', signedHead({ ...MERCHANT_A, apiKey: 'pk_unknown' }, '{}', 1_048_576).split('\r\n').slice(2).join('\r\n'), 'AUTH_UNKNOWN_API_KEY'],
  ])('answers a 1 MB declared body with %s at once, without waiting for the body', async (_name, extraHeaders, code) => {
    const head = [`POST ${PAYINS} HTTP/1.1`, 'Host: 127.0.0.1', 'Content-Type: application/json', 'Content-Length: 1048576', extraHeaders.replace(/Content-(Type|Length): [^\r]*\r\n/g, '').trimEnd(), '', ''].join('\r\n');
    const exchange = await rawExchange(api.baseUrl, [head.replace(/\r\n\r\n\r\n/, '\r\n\r\n')], 5000);
    expect(exchange.response).toMatch(/^HTTP\/1\.1 401 /);
    expect(exchange.response).toMatch(/\r\nconnection: close\r\n/i);
    expect(rawJsonBody(exchange.response)).toMatchObject({ code, retryable: false });
    expect(exchange.closed).toBe(true);
    expect(exchange.elapsedMs).toBeLessThan(2000);
  });

  it('leaves unsigned operations and unknown routes to their own answers', async () => {
    expect((await fetch(`${api.baseUrl}/payment/health`)).status).toBe(200);
    const unknown = await fetch(`${api.baseUrl}/payment/api/nothing-here`, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ code: 'ROUTE_NOT_FOUND' });
  });

  it('bounds the sandbox debug values of a large body with a wrong signature', async () => {
    const body = JSON.stringify(Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`field${i}`, 'x'.repeat(1500)])));
    const response = await signedCall(api.baseUrl, { path: PAYINS, body, credential: { ...MERCHANT_A, secretKey: 'sk_wrong_wrong_wrong_wrong_wrong_wrong' } });
    expect(response.status).toBe(401);
    const debug = response.json.debug as { canonicalBody: string };
    expect(body.length).toBeGreaterThan(45_000);
    expect(debug.canonicalBody.length).toBeLessThan(2200);
    expect(debug.canonicalBody).toMatch(/… \(\d+ more characters\)$/);
  });
});

describe("the service process's memory under unauthenticated 1 MB bodies", () => {
  /** The built service's resident memory, from /proc: this test process's own would count the client too. */
  const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]) / 1024;

  it('stays flat across 200 of them, since none is read', async () => {
    const service = await startBuiltService({ RATE_LIMIT_REFUSED_PER_ADDRESS_PER_MINUTE: '1000000' });
    try {
      const pid = service.child.pid as number;
      const body = Buffer.alloc(1_048_576, 0x20);
      const head = [`POST ${PAYINS} HTTP/1.1`, 'Host: 127.0.0.1', 'Content-Type: application/json', 'Content-Length: 1048576', '', ''].join('\r\n');
      const send = () => rawExchange(service.baseUrl, [head, body], 5000);
      await Promise.all(Array.from({ length: 10 }, send));
      const before = rssMb(pid);
      let peak = before;
      const sampler = setInterval(() => (peak = Math.max(peak, rssMb(pid))), 20);
      try {
        for (let batch = 0; batch < 4; batch++) {
          const exchanges = await Promise.all(Array.from({ length: 50 }, send));
          // Each is answered 401 and closed. A client still sending when the socket closes may see a reset
          // instead of the answer, as with any server that refuses a body it will not read.
          for (const exchange of exchanges) {
            expect(exchange.closed).toBe(true);
            if (exchange.response !== '') expect(exchange.response).toMatch(/^HTTP\/1\.1 401 /);
          }
          expect(exchanges.filter((e) => e.response.startsWith('HTTP/1.1 401 ')).length).toBeGreaterThan(0);
        }
      } finally {
        clearInterval(sampler);
      }
      // A service that read the bodies grew by about 100 MB here (npm run -s load:unauthenticated-bodies on the code before the pre-filter).
      expect(peak - before).toBeLessThan(50);
    } finally {
      service.child.kill('SIGTERM');
      await service.exited;
      await service.dispose();
    }
  });
});

describe('timeouts', () => {
  let api: TestApp;
  beforeAll(async () => {
    api = await startTestApp({ REQUEST_TIMEOUT_MS: '1500', HEADERS_TIMEOUT_MS: '1500' });
  });
  afterAll(() => api.close());

  it('cuts a body that stalls with 408 and the error body, and logs it', async () => {
    const body = JSON.stringify({ amount: 100, currency: 'NGN', customerEmail: 'ada@example.com', reference: `stall-${randomUUID()}` });
    const exchange = await rawExchange(api.baseUrl, [signedHead(MERCHANT_A, body), body.slice(0, 10)], 10_000);
    expect(exchange.response).toMatch(/^HTTP\/1\.1 408 /);
    const error = rawJsonBody(exchange.response);
    expect(error).toMatchObject({ code: 'REQUEST_TIMEOUT', retryable: true, requestId: expect.any(String) });
    expect(exchange.closed).toBe(true);
    expect(exchange.elapsedMs).toBeGreaterThanOrEqual(1400);
    expect(exchange.elapsedMs).toBeLessThan(4000);
    expect(api.logs).toContainEqual(expect.objectContaining({ requestId: error.requestId, status: 408, outcome: 'REQUEST_TIMEOUT' }));
  });

  it('cuts a head that never ends', async () => {
    const exchange = await rawExchange(api.baseUrl, [`GET ${BANKS} HTTP/1.1\r\nHost: 127.0.0.1\r\n`], 10_000);
    expect(exchange.response).toMatch(/^HTTP\/1\.1 408 /);
    expect(exchange.elapsedMs).toBeLessThan(4000);
  });
});

describe('timeouts of the head and of the whole request, told apart', () => {
  let api: TestApp;
  beforeAll(async () => {
    api = await startTestApp({ HEADERS_TIMEOUT_MS: '1000', REQUEST_TIMEOUT_MS: '2000' });
  });
  afterAll(() => api.close());

  it('names the head timeout when the head is late, and the request timeout when the body is', async () => {
    const head = await rawExchange(api.baseUrl, [`GET ${BANKS} HTTP/1.1\r\nHost: 127.0.0.1\r\n`], 10_000);
    expect(rawJsonBody(head.response)).toMatchObject({ code: 'REQUEST_TIMEOUT', message: expect.stringContaining('within 1000 ms') });
    const body = JSON.stringify({ amount: 100, currency: 'NGN', customerEmail: 'ada@example.com', reference: `stall-${randomUUID()}` });
    const stalled = await rawExchange(api.baseUrl, [signedHead(MERCHANT_A, body), body.slice(0, 10)], 10_000);
    expect(rawJsonBody(stalled.response)).toMatchObject({ code: 'REQUEST_TIMEOUT', message: expect.stringContaining('within 2000 ms') });
  });

  it.each<[string, string, number, string]>([
    ['malformed HTTP', 'NOT HTTP AT ALL\r\n\r\n', 400, 'MALFORMED_REQUEST'],
    ['a head over the size limit', `GET ${BANKS} HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Padding: ${'x'.repeat(20_000)}\r\n\r\n`, 431, 'HEADERS_TOO_LARGE'],
  ])('answers %s with the error body, and logs it', async (_name, request, status, code) => {
    const exchange = await rawExchange(api.baseUrl, [request], 5000);
    expect(exchange.response.startsWith(`HTTP/1.1 ${status} `)).toBe(true);
    const error = rawJsonBody(exchange.response);
    expect(error).toMatchObject({ code, requestId: expect.any(String) });
    expect(exchange.response).toContain(`X-Request-Id: ${error.requestId}`);
    expect(api.logs).toContainEqual(expect.objectContaining({ requestId: error.requestId, status, outcome: code }));
  });
});

describe('heads that Node would answer with a bare status', () => {
  let api: TestApp;
  beforeAll(async () => {
    api = await startTestApp();
  });
  afterAll(() => api.close());

  it('answers an HTTP/1.1 request without a Host header with 400 and the error body', async () => {
    const exchange = await rawExchange(api.baseUrl, [`GET ${BANKS} HTTP/1.1\r\n\r\n`], 5000);
    expect(exchange.response).toMatch(/^HTTP\/1\.1 400 /);
    expect(rawJsonBody(exchange.response)).toMatchObject({ code: 'MALFORMED_REQUEST', retryable: false });
  });

  it('serves a request whose Expect names an expectation other than 100-continue as if the header were not there', async () => {
    const exchange = await rawExchange(api.baseUrl, [`GET /payment/health HTTP/1.1\r\nHost: 127.0.0.1\r\nExpect: something-else\r\nConnection: close\r\n\r\n`], 5000);
    expect(exchange.response).toMatch(/^HTTP\/1\.1 200 /);
    expect(rawJsonBody(exchange.response)).toMatchObject({ status: 'ok' });
  });
});

/** Sends `count` signed banks requests for `credential`, alternating across `apps`, all at once; returns the statuses. */
async function flood(apps: TestApp[], credential: TestCredential, count: number, path = BANKS, body?: string): Promise<number[]> {
  const responses = await Promise.all(Array.from({ length: count }, (_, i) => signedCall((apps[i % apps.length] as TestApp).baseUrl, { path, body, credential })));
  return responses.map((r) => r.status);
}

const count = (statuses: number[], status: number) => statuses.filter((s) => s === status).length;

// A sustained rate of 2 per second is 20 per 10 s window; the burst allowance is set out of the way.
const KEY_LIMITS = { RATE_LIMIT_PER_KEY_PER_SECOND: '2', RATE_LIMIT_PER_KEY_BURST: '1000' };

function rateLimitSuite(storeName: string, start: (env: Record<string, string>) => Promise<TestApp[]>) {
  // Keys of this suite's own: the counts of a key are shared by every app on the same Redis.
  const { file, merchantA, merchantB } = freshMerchants();
  let apps: TestApp[];
  beforeAll(async () => {
    apps = await start({ ...KEY_LIMITS, MERCHANTS_FILE: file });
  });
  afterAll(() => Promise.all((apps ?? []).map((a) => a.close())));

  it(`gives a flooding key 429 while another merchant keeps getting 200 (${storeName})`, async () => {
    const [flooder, other] = await Promise.all([flood(apps, merchantA, 30), flood(apps, merchantB, 10)]);
    expect({ ok: count(flooder, 200), limited: count(flooder, 429) }).toEqual({ ok: 20, limited: 10 });
    expect(count(other, 200)).toBe(10);
  });

  it(`answers 429 with Retry-After and the error body (${storeName})`, async () => {
    const response = await signedCall((apps[0] as TestApp).baseUrl, { path: BANKS, credential: merchantA });
    expect(response.status).toBe(429);
    expect(Number(response.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(response.json).toMatchObject({ code: 'RATE_LIMITED', retryable: true, message: expect.stringContaining('API key') });
  });
}

describe('per-key rate limits in memory', () => rateLimitSuite('memory', async (env) => [await startTestApp(env)]));

describeWithStore('Redis', REDIS_URL, 'per-key rate limits on Redis, across two instances', () =>
  // One after the other: two apps opening at once in one process delay each other's Redis connection.
  rateLimitSuite('Redis', async (env) => [await startTestApp({ ...env, REDIS_URL }), await startTestApp({ ...env, REDIS_URL })]),
);

describe('the stricter enquiry limit', () => {
  let api: TestApp;
  beforeAll(async () => {
    api = await startTestApp({ RATE_LIMIT_ENQUIRY_PER_KEY_PER_MINUTE: '3' });
  });
  afterAll(() => api.close());

  it('limits enquiries per key, and nothing else', async () => {
    const enquiries = [];
    for (let i = 0; i < 4; i++) enquiries.push((await signedCall(api.baseUrl, { path: ENQUIRY, body: '{"bankCode":"058","accountNumber":"0123456785"}', credential: MERCHANT_A })).status);
    expect(enquiries).toEqual([200, 200, 200, 429]);
    expect((await signedCall(api.baseUrl, { path: BANKS, credential: MERCHANT_A })).status).toBe(200);
    expect((await signedCall(api.baseUrl, { path: ENQUIRY, body: '{"bankCode":"058","accountNumber":"0123456785"}', credential: MERCHANT_B })).status).toBe(200);
  });
});

describe('the limit on refused requests per address', () => {
  let api: TestApp;
  beforeAll(async () => {
    api = await startTestApp({ RATE_LIMIT_REFUSED_PER_ADDRESS_PER_MINUTE: '5' });
  });
  afterAll(() => api.close());

  it('refuses an address outright once it has sent too many refused requests', async () => {
    const refused = [];
    for (let i = 0; i < 6; i++) refused.push((await signedCall(api.baseUrl, { path: BANKS, credential: { ...MERCHANT_A, apiKey: `pk_guess_${i}` } })).status);
    expect(refused).toEqual([401, 401, 401, 401, 401, 401]);
    const blocked = await signedCall(api.baseUrl, { path: BANKS, credential: MERCHANT_B });
    expect(blocked.status).toBe(429);
    expect(blocked.json).toMatchObject({ code: 'RATE_LIMITED', message: expect.stringContaining('address') });
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(1);
  });
});

describe('every refusal before verification counts against the address', () => {
  let api: TestApp;
  beforeEach(async () => {
    api = await startTestApp({ RATE_LIMIT_REFUSED_PER_ADDRESS_PER_MINUTE: '5', RATE_LIMIT_BLOCKED_ANSWER_DELAY_MS: '0' });
  });
  afterEach(() => api.close());
  const banksAs = (credential: TestCredential) => signedCall(api.baseUrl, { path: BANKS, credential });

  it('counts bodies refused before the signature is checked (400 and 413), not only 401s', async () => {
    const wrongSignature = { ...MERCHANT_A, secretKey: 'sk_not_the_secret_0123456789abcdef01' };
    const refused = [
      await signedCall(api.baseUrl, { path: PAYINS, body: '{not json', signedBody: '{}', credential: wrongSignature }),
      await signedCall(api.baseUrl, { path: PAYINS, body: JSON.stringify(Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`f${i}`, i]))), signedBody: '{}', credential: wrongSignature }),
      await signedCall(api.baseUrl, { path: PAYINS, body: '{"a":{"b":1}}', signedBody: '{}', credential: wrongSignature }),
      await signedCall(api.baseUrl, { path: PAYINS, body: JSON.stringify({ pad: 'x'.repeat(70_000) }), signedBody: '{}', credential: wrongSignature }),
      await send(api.baseUrl, { method: 'GET', path: '/payment/no-such-route' }),
    ].map((r) => r.status);
    expect(refused).toEqual([400, 400, 400, 413, 404]);
    expect((await banksAs(MERCHANT_B)).status).toBe(200);
    expect((await signedCall(api.baseUrl, { path: PAYINS, body: '[]', signedBody: '{}', credential: wrongSignature })).status).toBe(400);
    expect((await banksAs(MERCHANT_B)).status).toBe(429);
  });

  it("does not count a verified request's own mistakes: an invalid field is the merchant's, not a guess", async () => {
    for (let i = 0; i < 8; i++) expect((await signedCall(api.baseUrl, { path: PAYINS, body: '{"amount":"x"}', credential: MERCHANT_A })).status).toBe(400);
    expect((await banksAs(MERCHANT_B)).status).toBe(200);
  });

  it('counts a checkout link that names no payin, and then refuses the address every checkout link, as a page', async () => {
    for (let i = 0; i < 6; i++) expect((await send(api.baseUrl, { method: 'GET', path: `/payment/checkout/${randomUUID().replace(/-/g, '')}` })).status).toBe(404);
    const blocked = await send(api.baseUrl, { method: 'GET', path: `/payment/checkout/${randomUUID().replace(/-/g, '')}` });
    expect(blocked.status).toBe(429);
    expect(blocked.headers.get('content-type')).toContain('text/html');
    expect(blocked.headers.get('retry-after')).toBeTruthy();
  });
});

describe('the limit on unsigned pages per address', () => {
  it('gives an address that floods the docs or checkout links 429, and never limits the health probes', async () => {
    const api = await startTestApp({ RATE_LIMIT_PUBLIC_PER_ADDRESS_PER_MINUTE: '5', RATE_LIMIT_BLOCKED_ANSWER_DELAY_MS: '0' });
    try {
      const docs = [];
      for (let i = 0; i < 6; i++) docs.push((await send(api.baseUrl, { method: 'GET', path: i % 2 ? '/payment/docs' : '/payment/openapi.yaml' })).status);
      expect(docs).toEqual([200, 200, 200, 200, 200, 429]);
      const limited = await send(api.baseUrl, { method: 'GET', path: '/payment/docs/protocol' });
      expect(limited.status).toBe(429);
      expect(limited.json).toMatchObject({ code: 'RATE_LIMITED', message: expect.stringContaining('address') });
      expect((await send(api.baseUrl, { method: 'GET', path: `/payment/checkout/${randomUUID().replace(/-/g, '')}` })).status).toBe(429);
      for (let i = 0; i < 10; i++) expect((await send(api.baseUrl, { method: 'GET', path: '/payment/health/ready' })).status).toBe(200);
      expect((await signedCall(api.baseUrl, { path: BANKS, credential: MERCHANT_A })).status).toBe(200);
    } finally {
      await api.close();
    }
  });
});

describe('the answer to an address already blocked from the unsigned pages', () => {
  it('waits RATE_LIMIT_BLOCKED_ANSWER_DELAY_MS, so that a flood is answered once per wait per connection it holds', async () => {
    const api = await startTestApp({ RATE_LIMIT_PUBLIC_PER_ADDRESS_PER_MINUTE: '1', RATE_LIMIT_BLOCKED_ANSWER_DELAY_MS: '400' });
    try {
      expect((await send(api.baseUrl, { method: 'GET', path: '/payment/docs' })).status).toBe(200);
      expect((await send(api.baseUrl, { method: 'GET', path: '/payment/docs' })).status).toBe(429);
      const started = performance.now();
      const blocked = await send(api.baseUrl, { method: 'GET', path: '/payment/docs' });
      expect(performance.now() - started).toBeGreaterThanOrEqual(400);
      expect(blocked.status).toBe(429);
      expect(blocked.json).toMatchObject({ code: 'RATE_LIMITED' });
      expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(blocked.headers.get('connection')).toBe('close');
    } finally {
      await api.close();
    }
  });
});

describe("the limit on the docs' scripts per address", () => {
  it("refuses an address more of Redoc's bundle than a browser needs, and still serves it the pages", async () => {
    const api = await startTestApp({ RATE_LIMIT_DOCS_ASSETS_PER_ADDRESS_PER_MINUTE: '2', RATE_LIMIT_BLOCKED_ANSWER_DELAY_MS: '0' });
    try {
      const bundle = String(/src="([^"]*redoc\.standalone[^"]*)"/.exec((await send(api.baseUrl, { method: 'GET', path: '/payment/docs' })).body as string)?.[1]);
      const statuses = [];
      for (let i = 0; i < 3; i++) statuses.push((await fetch(`${api.baseUrl}${bundle}`)).status);
      expect(statuses).toEqual([200, 200, 429]);
      expect((await send(api.baseUrl, { method: 'GET', path: '/payment/docs' })).status).toBe(200);
    } finally {
      await api.close();
    }
  });
});

describe('the client address behind a proxy (TRUST_PROXY=true: one hop)', () => {
  let api: TestApp;
  beforeAll(async () => {
    api = await startTestApp({ RATE_LIMIT_REFUSED_PER_ADDRESS_PER_MINUTE: '5', TRUST_PROXY: 'true' });
  });
  afterAll(() => api.close());
  // What an appending proxy in front sends: whatever the client wrote, then the address it saw.
  const viaProxy = (clientWrote: string, clientAddress: string) => ({ 'x-forwarded-for': `${clientWrote}, ${clientAddress}` });
  const guess = (headers: Record<string, string>) => signedCall(api.baseUrl, { path: BANKS, credential: { ...MERCHANT_A, apiKey: `pk_guess_${randomUUID().slice(0, 8)}` }, headers });

  it('takes the address the proxy saw, not what the client wrote: a rotating X-Forwarded-For still reaches the limit', async () => {
    for (let i = 0; i < 6; i++) expect((await guess(viaProxy(`203.0.113.${i}`, '198.51.100.7'))).status).toBe(401);
    expect((await guess(viaProxy('203.0.113.99', '198.51.100.7'))).status).toBe(429);
  });

  it("cannot be made to block someone else's address by writing it into X-Forwarded-For", async () => {
    for (let i = 0; i < 7; i++) await guess(viaProxy('203.0.113.50', '198.51.100.8'));
    const merchant = await signedCall(api.baseUrl, { path: BANKS, credential: MERCHANT_B, headers: viaProxy('203.0.113.50', '198.51.100.9') });
    expect(merchant.status).toBe(200);
    expect(api.logs.some((line) => line.clientAddress === '198.51.100.9')).toBe(true);
  });
});

describe('metrics behind a bearer token (METRICS_TOKEN)', () => {
  it('answers the metrics only to a request bearing the token', async () => {
    const token = 'metrics-token-0123456789abcdef0123456789';
    const api = await startTestApp({ METRICS_TOKEN: token });
    try {
      const without = await send(api.baseUrl, { method: 'GET', path: '/payment/metrics' });
      expect(without.status).toBe(401);
      expect(without.json).toMatchObject({ code: 'METRICS_UNAUTHORIZED' });
      expect(without.headers.get('www-authenticate')).toBe('Bearer realm="metrics"');
      expect((await send(api.baseUrl, { method: 'GET', path: '/payment/metrics', headers: { authorization: `Bearer ${token}x` } })).status).toBe(401);
      const bearing = await send(api.baseUrl, { method: 'GET', path: '/payment/metrics', headers: { authorization: `Bearer ${token}` } });
      expect(bearing.status).toBe(200);
      expect(bearing.body).toContain('paysign_');
    } finally {
      await api.close();
    }
  });
});

function nonceWindowSuite(storeName: string, env: () => Record<string, string>) {
  let api: TestApp;
  const { file, merchantA } = freshMerchants();
  // The service's clock, moved by the test: the window is walked in steps, with no waiting.
  const clock = new TestClock(Math.floor(Date.now() / 1000) * 1000);
  beforeAll(async () => {
    api = await startTestApp({ TIMESTAMP_TOLERANCE_SECONDS: '1', NONCE_TTL_SECONDS: '2', MERCHANTS_FILE: file, ...env() }, { overrides: { clock: clock.now } });
  });
  afterAll(() => api.close());

  it(`admits a request once over its whole acceptance window, with a tolerance of 1 s and a TTL of 2 s (${storeName})`, async () => {
    // The latest timestamp the service accepts now, 1 s ahead: it stays acceptable longest, 3 s, more than the TTL.
    const timestamp = clock.now() / 1000 + 1;
    const request = { path: BANKS, credential: merchantA, nonce: randomUUID(), timestamp };
    const outcomes: Array<{ atMs: number; outcome: string }> = [];
    const startedAt = { clock: clock.now(), real: Date.now() };
    // Resend it at every 100 ms of the service's clock until its timestamp is refused. Redis holds a nonce by its own, real
    // clock: on a machine slow enough that the sends take longer than the steps, the service's clock is moved on to the real
    // time gone by, so that it never reads earlier than Redis's and the window it walks is the one Redis holds the nonce for.
    for (let step = 0; step < 50 && outcomes[outcomes.length - 1]?.outcome !== 'AUTH_TIMESTAMP_SKEW'; step++) {
      const response = await signedCall(api.baseUrl, request);
      outcomes.push({ atMs: clock.now() - startedAt.clock, outcome: response.status === 200 ? 'OK' : String(response.json.code) });
      clock.advance(Math.max(100, Date.now() - startedAt.real - (clock.now() - startedAt.clock)));
    }
    // Timestamps are whole seconds: it is accepted while the clock reads from 1 s before it to the end of the second after it.
    // On a machine that keeps up, 30 sends at 100 ms steps: the first admitted and every other refused as a replay, past the
    // 2 s TTL too.
    const kinds = outcomes.map((o) => o.outcome);
    expect(kinds[0]).toBe('OK');
    expect(kinds[kinds.length - 1]).toBe('AUTH_TIMESTAMP_SKEW');
    expect(new Set(kinds.slice(1, -1))).toEqual(new Set(['AUTH_NONCE_REPLAYED']));
    expect(outcomes.some((o) => o.outcome === 'AUTH_NONCE_REPLAYED' && o.atMs >= 2000)).toBe(true);
    expect(outcomes[outcomes.length - 1]?.atMs).toBeGreaterThanOrEqual(3000);
  });
}

describe('the nonce window in memory', () => nonceWindowSuite('memory', () => ({})));
describeWithStore('Redis', REDIS_URL, 'the nonce window on Redis', () => {
  nonceWindowSuite('Redis', () => ({ REDIS_URL }));

  it('holds a nonce in Redis past the TTL, until its timestamp can no longer be accepted', async () => {
    // Redis expires keys on its own clock, which no test moves: what the service asks of it is checked instead.
    const { file, merchantA } = freshMerchants();
    const api = await startTestApp({ TIMESTAMP_TOLERANCE_SECONDS: '1', NONCE_TTL_SECONDS: '2', MERCHANTS_FILE: file, REDIS_URL });
    const redis = await RedisConnection.open(REDIS_URL);
    try {
      const nonce = randomUUID();
      const timestamp = Math.floor(Date.now() / 1000) + 1;
      expect((await signedCall(api.baseUrl, { path: BANKS, credential: merchantA, nonce, timestamp })).status).toBe(200);
      const heldMs = await redis.client.pTTL(nonceKey(merchantA.apiKey, nonce));
      // Accepted until the end of the second after its timestamp: the hold reaches past that, and past the 2 s TTL.
      expect(Date.now() + heldMs).toBeGreaterThanOrEqual((timestamp + 2) * 1000);
      expect(heldMs).toBeGreaterThan(2000);
    } finally {
      await redis.close();
      await api.close();
    }
  });
});

describe('shares of the in-memory nonce store', () => {
  let api: TestApp;
  beforeAll(async () => {
    api = await startTestApp({ NONCE_STORE_MAX_ENTRIES: '100', NONCE_STORE_MAX_PER_KEY: '50', RATE_LIMIT_PER_KEY_PER_SECOND: '10000', RATE_LIMIT_PER_KEY_BURST: '10000' });
  });
  afterAll(() => api.close());

  it('gives a key past its share 429 while another key is still admitted, and reports the store full when it is', async () => {
    const flooder = await flood([api], MERCHANT_A, 60);
    expect({ ok: count(flooder, 200), limited: count(flooder, 429) }).toEqual({ ok: 50, limited: 10 });
    expect((await fetch(`${api.baseUrl}/payment/health`)).status).toBe(200);

    const other = await flood([api], MERCHANT_B, 50);
    expect(count(other, 200)).toBe(50);
    const health = await fetch(`${api.baseUrl}/payment/health`);
    expect(health.status).toBe(503);
    expect(await health.json()).toMatchObject({ status: 'unavailable', checks: { nonceStore: 'full' } });
    expect((await signedCall(api.baseUrl, { path: BANKS, credential: MERCHANT_A_ROTATED })).json).toMatchObject({ code: 'STORE_UNAVAILABLE' });
  });
});

describe("the providers' webhook route, which needs no signature of ours", () => {
  const WEBHOOK = '/payment/provider-webhooks/paystack';
  const KEY = FAKE_PAYSTACK_LIVE_KEY;
  let api: TestApp | undefined;
  afterEach(async () => {
    await api?.close();
    api = undefined;
  });
  /** Production with Paystack configured; its API is never called here (the events below name nothing of ours). */
  // Each app counts in Redis under a prefix of its own: production keeps the per-address counts there, shared by every instance.
  const start = async (env: Record<string, string>) =>
    (api = await startProductionTestApp({ ...paystackEverywhere('http://127.0.0.1:9'), RATE_LIMIT_BLOCKED_ANSWER_DELAY_MS: '0', REDIS_KEY_PREFIX: `abuse-${randomUUID()}:`, ...env }));
  const webhook = (service: TestApp, body: string, signature: string) =>
    send(service.baseUrl, { method: 'POST', path: WEBHOOK, headers: { 'content-type': 'application/json', 'x-paystack-signature': signature }, body });
  const event = JSON.stringify({ event: 'subscription.create', data: { reference: 'not-ours' } });
  const genuine = createHmac('sha512', KEY).update(event).digest('hex');

  it('blocks an address that sends forged webhooks once it has sent too many, before their bodies are read or hashed', async () => {
    const service = await start({ RATE_LIMIT_REFUSED_PER_ADDRESS_PER_MINUTE: '5' });
    const forged = [];
    for (let i = 0; i < 9; i++) forged.push(await webhook(service, event, 'f'.repeat(128)));
    // The sixth refusal in a minute blocks the address, as for signed requests.
    expect(forged.map((answer) => answer.status)).toEqual([401, 401, 401, 401, 401, 401, 429, 429, 429]);
    expect(forged[6]?.json).toMatchObject({ code: 'RATE_LIMITED', message: expect.stringContaining('address') });
    expect(forged[6]?.headers.get('connection')).toBe('close');
    // Six signatures checked, no more: the refusals of a blocked address hash nothing.
    expect(service.logs.filter((line) => line.msg === 'request completed' && line.outcome === 'PROVIDER_SIGNATURE_INVALID')).toHaveLength(6);
  });

  it('limits webhook requests per address, but not those from the allow-listed addresses', async () => {
    const limited = await start({ RATE_LIMIT_PROVIDER_WEBHOOKS_PER_ADDRESS_PER_MINUTE: '3' });
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push((await webhook(limited, event, genuine)).status);
    expect(answers).toEqual([200, 200, 200, 429]);
    await limited.close();
    const listed = await start({ RATE_LIMIT_PROVIDER_WEBHOOKS_PER_ADDRESS_PER_MINUTE: '3', PROVIDER_WEBHOOK_ALLOWED_ADDRESSES: '127.0.0.0/8,::1' });
    for (let i = 0; i < 4; i++) expect((await webhook(listed, event, genuine)).status).toBe(200);
  });

  it("never blocks an allow-listed address for refused webhooks: events the provider relays for another account must not get its genuine ones refused", async () => {
    const service = await start({ RATE_LIMIT_REFUSED_PER_ADDRESS_PER_MINUTE: '5', PROVIDER_WEBHOOK_ALLOWED_ADDRESSES: '127.0.0.0/8,::1' });
    const forged = [];
    for (let i = 0; i < 8; i++) forged.push((await webhook(service, event, 'f'.repeat(128))).status);
    expect(forged).toEqual([401, 401, 401, 401, 401, 401, 401, 401]);
    expect((await webhook(service, event, genuine)).status).toBe(200);
  });

  it('refuses an address outside PROVIDER_WEBHOOK_ALLOWED_ADDRESSES with 403, even with a genuine signature', async () => {
    const service = await start({ PROVIDER_WEBHOOK_ALLOWED_ADDRESSES: '52.31.139.75,52.49.173.169,52.214.14.220' });
    const refused = await webhook(service, event, genuine);
    expect([refused.status, refused.json.code]).toEqual([403, 'PROVIDER_ADDRESS_NOT_ALLOWED']);
    expect(refused.json.message).toContain('PROVIDER_WEBHOOK_ALLOWED_ADDRESSES');
  });

  it('refuses a body announced larger than any event with 413, without waiting for it', async () => {
    const service = await start({ PROVIDER_WEBHOOK_BODY_LIMIT_BYTES: '4096' });
    const head = [`POST ${WEBHOOK} HTTP/1.1`, 'Host: 127.0.0.1', 'Content-Type: application/json', 'Content-Length: 60000', `x-paystack-signature: ${'f'.repeat(128)}`, '', ''].join('\r\n');
    const exchange = await rawExchange(service.baseUrl, [head], 5000);
    expect(exchange.response).toMatch(/^HTTP\/1\.1 413/);
    expect(rawJsonBody(exchange.response)).toMatchObject({ code: 'BODY_TOO_LARGE', message: 'The request body is larger than 4096 bytes. Send a smaller body.' });
    expect(exchange.closed).toBe(true);
    // Sent in chunks, with no Content-Length: refused once more than the limit has arrived.
    const chunked = [`POST ${WEBHOOK} HTTP/1.1`, 'Host: 127.0.0.1', 'Content-Type: application/json', 'Transfer-Encoding: chunked', `x-paystack-signature: ${'f'.repeat(128)}`, '', ''].join('\r\n');
    const chunk = `{"event":"charge.success","data":{"padding":"${'x'.repeat(6000)}"}}`;
    const streamed = await rawExchange(service.baseUrl, [chunked, `${Buffer.byteLength(chunk).toString(16)}\r\n${chunk}\r\n0\r\n\r\n`], 5000);
    expect(streamed.response).toMatch(/^HTTP\/1\.1 413/);
    expect(rawJsonBody(streamed.response)).toMatchObject({ code: 'BODY_TOO_LARGE', message: 'The request body is larger than 4096 bytes. Send a smaller body.' });
  });
});
