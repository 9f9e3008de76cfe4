import { MemoryRateLimitStore } from './memory-rate-limit.store';

describe('MemoryRateLimitStore', () => {
  it('counts hits in a fixed window, blocks past the limit for the block duration, then starts afresh', async () => {
    let now = 0;
    const store = new MemoryRateLimitStore(() => now);
    const hit = () => store.increment('key', 1000, 2, 5000, 'test');
    expect(await hit()).toEqual({ totalHits: 1, timeToExpire: 1, isBlocked: false, timeToBlockExpire: 0 });
    expect((await hit()).isBlocked).toBe(false);
    expect(await hit()).toEqual({ totalHits: 3, timeToExpire: 1, isBlocked: true, timeToBlockExpire: 5 });
    now = 3000;
    expect(await hit()).toMatchObject({ isBlocked: true, timeToBlockExpire: 2 });
    now = 5000;
    expect(await hit()).toEqual({ totalHits: 1, timeToExpire: 1, isBlocked: false, timeToBlockExpire: 0 });
  });

  it('keeps keys apart', async () => {
    const store = new MemoryRateLimitStore(() => 0);
    await store.increment('a', 1000, 1, 1000, 'test');
    expect((await store.increment('a', 1000, 1, 1000, 'test')).isBlocked).toBe(true);
    expect((await store.increment('b', 1000, 1, 1000, 'test')).isBlocked).toBe(false);
  });
});
