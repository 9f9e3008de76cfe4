// Two services on one Redis, each under its own REDIS_KEY_PREFIX: the same
// signed request (same key, same nonce) is admitted once by each, replayed to
// either it is refused, and every key each wrote starts with its prefix.
import { randomUUID } from 'node:crypto';
import { signedCall } from './support/api-client';
import { MERCHANT_A } from './support/credentials';
import { REDIS_URL, describeWithStore } from './support/stores';
import { startTestApp, type TestApp } from './support/test-app';
import { RedisConnection } from '../src/redis/redis-connection';

describeWithStore('Redis', REDIS_URL, 'REDIS_KEY_PREFIX on a shared Redis', () => {
  const run = randomUUID().slice(0, 8);
  const prefixes = [`ps-a-${run}:`, `ps-b-${run}:`];
  let apps: TestApp[] = [];
  let redis: RedisConnection;

  beforeAll(async () => {
    apps = await Promise.all(prefixes.map((prefix) => startTestApp({ REDIS_URL, REDIS_KEY_PREFIX: prefix })));
    redis = await RedisConnection.open(REDIS_URL);
  });

  afterAll(async () => {
    for (const prefix of prefixes) {
      const keys = await redis.client.keys(`${prefix}*`);
      if (keys.length > 0) await redis.client.del(keys);
    }
    await redis?.close();
    await Promise.all(apps.map((app) => app.close()));
  });

  it('keeps each service\'s nonces, counters and cache apart', async () => {
    const nonce = randomUUID();
    const timestamp = Math.floor(Date.now() / 1000);
    const body = JSON.stringify({ bankCode: '044', accountNumber: '0001112221' });
    const request = { path: '/payment/merchant-api/account/inquiry', body, credential: MERCHANT_A, nonce, timestamp };
    for (const app of apps) expect((await signedCall(app.baseUrl, request)).status).toBe(200);
    for (const app of apps) expect((await signedCall(app.baseUrl, request)).json.code).toBe('AUTH_NONCE_REPLAYED');

    for (const prefix of prefixes) {
      const keys = await redis.client.keys(`${prefix}*`);
      expect(keys).toEqual(expect.arrayContaining([`${prefix}nonce:${MERCHANT_A.apiKey}:${nonce}`, `${prefix}enquiry:sandbox:044:0001112221`]));
      expect(keys.some((key) => key.startsWith(`${prefix}rate:{`))).toBe(true);
    }
  });

  it('refuses a prefix that does not end in ":" or holds spaces, naming it', async () => {
    await expect(startTestApp({ REDIS_URL, REDIS_KEY_PREFIX: 'paysign' })).rejects.toThrow('REDIS_KEY_PREFIX must be 2 to 64 letters, digits');
    await expect(startTestApp({ REDIS_URL, REDIS_KEY_PREFIX: 'pay sign:' })).rejects.toThrow('REDIS_KEY_PREFIX must be');
  });
});
