import { MemoryRateLimitStore } from './memory-rate-limit.store';
import type { RateLimitRule } from './rate-limit-store.interface';

const TWO_PER_SECOND: RateLimitRule = { name: 'second', limit: 2, windowMs: 1000 };
const THREE_PER_TEN_SECONDS: RateLimitRule = { name: 'ten-seconds', limit: 3, windowMs: 10_000 };

describe('MemoryRateLimitStore', () => {
  it('counts hits in a fixed window, blocks past the limit for one window, then starts afresh', async () => {
    let now = 0;
    const store = new MemoryRateLimitStore(() => now);
    const hit = () => store.hit('key', [TWO_PER_SECOND]);
    expect(await hit()).toBeUndefined();
    expect(await hit()).toBeUndefined();
    expect(await hit()).toEqual({ rule: TWO_PER_SECOND, retryAfterMs: 1000 });
    now = 600;
    expect(await hit()).toEqual({ rule: TWO_PER_SECOND, retryAfterMs: 400 });
    now = 1000;
    expect(await hit()).toBeUndefined();
  });

  it('counts every rule in one hit, and stops at the first that refuses', async () => {
    let now = 0;
    const store = new MemoryRateLimitStore(() => now);
    const hit = () => store.hit('key', [TWO_PER_SECOND, THREE_PER_TEN_SECONDS]);
    expect([await hit(), await hit()]).toEqual([undefined, undefined]);
    // Refused by the first rule: the second does not count it.
    expect((await hit())?.rule).toBe(TWO_PER_SECOND);
    now = 1000;
    expect(await hit()).toBeUndefined();
    expect(await hit()).toEqual({ rule: THREE_PER_TEN_SECONDS, retryAfterMs: 10_000 });
  });

  it('keeps trackers apart', async () => {
    const store = new MemoryRateLimitStore(() => 0);
    const oncePerSecond: RateLimitRule = { name: 'second', limit: 1, windowMs: 1000 };
    await store.hit('a', [oncePerSecond]);
    expect(await store.hit('a', [oncePerSecond])).toBeDefined();
    expect(await store.hit('b', [oncePerSecond])).toBeUndefined();
  });
});
