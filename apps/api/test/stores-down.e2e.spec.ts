// Fault injection: the stores fail under a running service. Redis here is a
// private redis-server on a free port; the shared one is never touched.
import { signedCall, send } from './support/api-client';
import { MERCHANT_A } from './support/credentials';
import { PrivateRedis, redisServerInstalled } from './support/private-redis';
import { startTestApp, type TestApp } from './support/test-app';
import { PayinRepository } from '../src/payins/payin-repository.interface';

const BANKS = '/payment/merchant-api/banks';
const PING_INTERVAL_MS = 200;

/** The health answer, asked until it satisfies `done` or `ms` have passed; the last one either way. */
async function healthWithin(api: TestApp, ms: number, done: (answer: Awaited<ReturnType<typeof send>>) => boolean) {
  const deadline = Date.now() + ms;
  for (;;) {
    const answer = await send(api.baseUrl, { method: 'GET', path: '/payment/health' });
    if (done(answer) || Date.now() > deadline) return answer;
    await new Promise((r) => setTimeout(r, 50));
  }
}

(redisServerInstalled() || process.env.CI === 'true' ? describe : describe.skip)('when the Redis nonce store goes down', () => {
  let redis: PrivateRedis;
  let api: TestApp;
  beforeAll(async () => {
    redis = await PrivateRedis.start();
    api = await startTestApp({ REDIS_URL: redis.url, HEALTH_PROBE_INTERVAL_MS: String(PING_INTERVAL_MS) });
  });
  afterAll(async () => {
    await api.close();
    await redis.stop();
  });

  it('fails closed with 503, reports unhealthy, and recovers by itself once Redis is back', async () => {
    expect((await signedCall(api.baseUrl, { path: BANKS, credential: MERCHANT_A })).status).toBe(200);

    await redis.stop();
    const refused = await signedCall(api.baseUrl, { path: BANKS, credential: MERCHANT_A });
    expect(refused.status).toBe(503);
    expect(refused.json).toMatchObject({ code: 'STORE_UNAVAILABLE', retryable: true });
    // The unsigned pages are limited per address in the same store: they fail closed too, with the error body.
    const docs = await send(api.baseUrl, { method: 'GET', path: '/payment/docs' });
    expect(docs.status).toBe(503);
    expect(docs.json).toMatchObject({ code: 'STORE_UNAVAILABLE' });
    // The request met the rate-limit store first; readiness knows the nonce store is down by its next ping.
    const health = await healthWithin(api, 3000, (answer) => answer.status === 503);
    expect(health.status).toBe(503);
    expect(health.json).toMatchObject({ status: 'unavailable', checks: { nonceStore: 'down' } });

    await redis.start();
    const deadline = Date.now() + 10_000;
    let status = 0;
    while (Date.now() < deadline) {
      status = (await signedCall(api.baseUrl, { path: BANKS, credential: MERCHANT_A })).status;
      if (status === 200) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(status).toBe(200);
    expect((await send(api.baseUrl, { method: 'GET', path: '/payment/health' })).status).toBe(200);

    // One warning per store that went, naming what to check, and one line when it is back; not a line per request.
    const storeLines = api.logs.filter((line) => typeof line.store === 'string');
    const wentDown = storeLines.filter((line) => line.level === 40);
    expect(wentDown.length).toBeGreaterThanOrEqual(1);
    for (const line of wentDown) expect(line).toMatchObject({ check: 'REDIS_URL and the Redis server', msg: expect.stringContaining('unreachable') });
    const cameBack = storeLines.filter((line) => line.level === 30 && String(line.msg).includes('answers again'));
    expect(cameBack.map((line) => line.store).sort()).toEqual(wentDown.map((line) => line.store).sort());
    expect(api.logs).toContainEqual(expect.objectContaining({ level: 40, msg: 'readiness: not ready' }));
    expect(api.logs).toContainEqual(expect.objectContaining({ level: 30, msg: 'readiness: ready again' }));
  });
});

describe('when the payin store fails with no request using it', () => {
  let api: TestApp;
  beforeAll(async () => {
    api = await startTestApp({ HEALTH_PROBE_INTERVAL_MS: String(PING_INTERVAL_MS) });
  });
  afterAll(() => api.close());

  it('reports it in readiness from the background ping', async () => {
    expect((await send(api.baseUrl, { method: 'GET', path: '/payment/health' })).status).toBe(200);
    await api.app.get<PayinRepository>(PayinRepository).close();
    const health = await healthWithin(api, 3000, (answer) => answer.status === 503);
    expect(health.json).toMatchObject({ status: 'unavailable', checks: { payinStore: 'down' } });
  });
});

describe('when the payin store fails', () => {
  let api: TestApp;
  beforeAll(async () => {
    api = await startTestApp();
  });
  afterAll(() => api.close());

  it('answers 503 and never 201 for a payin it did not store', async () => {
    const repository = api.app.get<PayinRepository>(PayinRepository);
    await repository.close(); // the embedded database is gone from under the service
    const response = await signedCall(api.baseUrl, {
      path: '/payment/api/payins',
      body: '{"amount":10,"currency":"NGN","customerEmail":"ada@example.com","reference":"lost-1"}',
      credential: MERCHANT_A,
    });
    expect(response.status).toBe(503);
    expect(response.json).toMatchObject({ code: 'STORE_UNAVAILABLE' });
    expect((await send(api.baseUrl, { method: 'GET', path: '/payment/health' })).json).toMatchObject({ checks: { payinStore: 'down' } });
  });
});
