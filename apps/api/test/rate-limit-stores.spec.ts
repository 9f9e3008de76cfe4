import { randomUUID } from 'node:crypto';
import { MemoryRateLimitStore } from '../src/rate-limit/memory-rate-limit.store';
import type { RateLimitRule, RateLimitStore } from '../src/rate-limit/rate-limit-store.interface';
import { RedisRateLimitStore } from '../src/rate-limit/redis-rate-limit.store';
import { RedisConnection } from '../src/redis/redis-connection';
import { PrivateRedis } from './support/private-redis';
import { describeWithStore, REDIS_URL } from './support/stores';

const TWO_PER_MINUTE: RateLimitRule = { name: 'minute', limit: 2, windowMs: 60_000 };
const THREE_PER_HOUR: RateLimitRule = { name: 'hour', limit: 3, windowMs: 3_600_000 };
const ONCE_PER_200_MS: RateLimitRule = { name: 'short', limit: 1, windowMs: 200 };

/** What every rate-limit store does, on the real clock; the memory store's own spec covers the same on a fake one. */
function rateLimitStoreContract(open: () => Promise<{ store: RateLimitStore; close: () => Promise<void> }>) {
  let store: RateLimitStore;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ store, close } = await open());
  });
  afterAll(() => close());

  // Trackers of this run's own: counts on the shared Redis outlive a run.
  const tracker = () => `test-${randomUUID()}`;

  it('admits up to the limit, then refuses for one window', async () => {
    const key = tracker();
    expect([await store.hit(key, [TWO_PER_MINUTE]), await store.hit(key, [TWO_PER_MINUTE])]).toEqual([undefined, undefined]);
    const refusal = await store.hit(key, [TWO_PER_MINUTE]);
    expect(refusal?.rule).toEqual(TWO_PER_MINUTE);
    expect(refusal?.retryAfterMs).toBeGreaterThan(59_000);
    expect(refusal?.retryAfterMs).toBeLessThanOrEqual(60_000);
  });

  it('counts every rule in one hit, and stops at the first that refuses', async () => {
    const key = tracker();
    const rules = [THREE_PER_HOUR, TWO_PER_MINUTE];
    expect([await store.hit(key, rules), await store.hit(key, rules)]).toEqual([undefined, undefined]);
    expect((await store.hit(key, rules))?.rule).toEqual(TWO_PER_MINUTE);
    // Three hits so far against the hourly rule, which allows three: the fourth is its refusal.
    expect((await store.hit(key, rules))?.rule).toEqual(THREE_PER_HOUR);
  });

  it('keeps trackers and rules apart', async () => {
    const [a, b] = [tracker(), tracker()];
    await store.hit(a, [TWO_PER_MINUTE]);
    await store.hit(a, [TWO_PER_MINUTE]);
    expect(await store.hit(a, [TWO_PER_MINUTE])).toBeDefined();
    expect(await store.hit(b, [TWO_PER_MINUTE])).toBeUndefined();
    expect(await store.hit(a, [THREE_PER_HOUR])).toBeUndefined();
  });

  it('admits again once the block has run out', async () => {
    const key = tracker();
    await store.hit(key, [ONCE_PER_200_MS]);
    expect(await store.hit(key, [ONCE_PER_200_MS])).toBeDefined();
    await new Promise((r) => setTimeout(r, 250));
    expect(await store.hit(key, [ONCE_PER_200_MS])).toBeUndefined();
  });
}

describe('the memory rate-limit store', () => rateLimitStoreContract(async () => ({ store: new MemoryRateLimitStore(), close: async () => undefined })));

describeWithStore('Redis', REDIS_URL, 'the Redis rate-limit store', () => {
  rateLimitStoreContract(async () => {
    const redis = await RedisConnection.open(REDIS_URL);
    return { store: new RedisRateLimitStore(redis), close: () => redis.close() };
  });

  it('answers on a Redis that has never seen its script (sent whole once, then by digest)', async () => {
    const server = await PrivateRedis.start();
    const redis = await RedisConnection.open(server.url);
    try {
      const store = new RedisRateLimitStore(redis);
      expect(await store.hit('fresh-server', [TWO_PER_MINUTE])).toBeUndefined();
      expect(await store.hit('fresh-server', [TWO_PER_MINUTE])).toBeUndefined();
      expect((await store.hit('fresh-server', [TWO_PER_MINUTE]))?.rule).toEqual(TWO_PER_MINUTE);
    } finally {
      await redis.close();
      await server.stop();
    }
  });
});
