import { signedCall } from './support/api-client';
import { MERCHANT_A } from './support/credentials';
import { REDIS_URL, describeWithStore } from './support/stores';
import { startTestApp, type TestApp } from './support/test-app';

const RACERS = 25;

function replayRace(nonceStore: string, env: () => Record<string, string>) {
  let api: TestApp;
  beforeAll(async () => {
    api = await startTestApp(env());
  });
  afterAll(() => api.close());

  it(`admits exactly one of ${RACERS} identical concurrent requests (${nonceStore})`, async () => {
    const nonce = `race-${nonceStore}-${Date.now()}`;
    const timestamp = Math.floor(Date.now() / 1000);
    const call = { path: '/payment/merchant-api/account/inquiry', body: '{"bankCode":"058","accountNumber":"0123456785"}', credential: MERCHANT_A, nonce, timestamp };
    const statuses = (await Promise.all(Array.from({ length: RACERS }, () => signedCall(api.baseUrl, call)))).map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 401)).toHaveLength(RACERS - 1);
  });

  it(`refuses a replay after the first request completed (${nonceStore})`, async () => {
    const call = { path: '/payment/merchant-api/banks', credential: MERCHANT_A, nonce: `replay-${nonceStore}-${Date.now()}` };
    expect((await signedCall(api.baseUrl, call)).status).toBe(200);
    expect((await signedCall(api.baseUrl, call)).json.code).toBe('AUTH_NONCE_REPLAYED');
  });
}

describe('replay protection with the in-memory nonce store', () => replayRace('memory', () => ({})));

describeWithStore('Redis', REDIS_URL, 'replay protection with the Redis nonce store', () => {
  replayRace('redis', () => ({ REDIS_URL }));

  it('shares nonces between two instances of the service', async () => {
    // One after the other: two apps opening at once in one process delay each other's Redis connection.
    const one = await startTestApp({ REDIS_URL });
    const two = await startTestApp({ REDIS_URL });
    try {
      const call = { path: '/payment/merchant-api/banks', credential: MERCHANT_A, nonce: `shared-${Date.now()}` };
      expect((await signedCall(one.baseUrl, call)).status).toBe(200);
      expect((await signedCall(two.baseUrl, call)).json.code).toBe('AUTH_NONCE_REPLAYED');
    } finally {
      await Promise.all([one.close(), two.close()]);
    }
  });
});
