import { MemoryNonceStore } from './memory-nonce-store';
import { NonceShareExceededError, NonceStoreFullError } from './nonce-store.interface';

describe('MemoryNonceStore', () => {
  it('claims a nonce once while it is held, and again after', async () => {
    let now = 0;
    const store = new MemoryNonceStore({ now: () => now });
    expect(await store.claim('pk', 'n', 600_000)).toBe(true);
    now = 599_999;
    expect(await store.claim('pk', 'n', 600_000)).toBe(false);
    now = 600_000;
    expect(await store.claim('pk', 'n', 600_000)).toBe(true);
  });

  it('scopes nonces to the API key', async () => {
    const store = new MemoryNonceStore({ now: () => 0 });
    expect(await store.claim('pk_a', 'n', 1000)).toBe(true);
    expect(await store.claim('pk_b', 'n', 1000)).toBe(true);
  });

  it('purges expired entries instead of keeping them', async () => {
    let now = 0;
    const store = new MemoryNonceStore({ now: () => now });
    for (let i = 0; i < 1000; i++) await store.claim('pk', `n${i}`, 600_000);
    expect(store.size).toBe(1000);
    now = 600_000;
    await store.claim('pk', 'fresh', 600_000);
    expect(store.size).toBe(1);
  });

  it('admits exactly one of many concurrent claims', async () => {
    const store = new MemoryNonceStore();
    const results = await Promise.all(Array.from({ length: 100 }, () => store.claim('pk', 'same', 600_000)));
    expect(results.filter(Boolean)).toHaveLength(1);
  });

  it("refuses a key past its share, and keeps admitting the others", async () => {
    let now = 0;
    const store = new MemoryNonceStore({ maxPerKey: 2, maxEntries: 10, now: () => now });
    await store.claim('pk_flood', 'a', 1000);
    await store.claim('pk_flood', 'b', 1000);
    await expect(store.claim('pk_flood', 'c', 1000)).rejects.toBeInstanceOf(NonceShareExceededError);
    expect(await store.claim('pk_other', 'a', 1000)).toBe(true);
    expect(store.isFull()).toBe(false);
    now = 1000;
    expect(await store.claim('pk_flood', 'c', 1000)).toBe(true);
  });

  it('refuses rather than grows past its bound, and says it is full', async () => {
    const store = new MemoryNonceStore({ maxEntries: 2, now: () => 0 });
    await store.claim('pk_a', 'a', 600_000);
    await store.claim('pk_b', 'b', 600_000);
    expect(store.isFull()).toBe(true);
    await expect(store.claim('pk_c', 'c', 600_000)).rejects.toBeInstanceOf(NonceStoreFullError);
    expect(await store.claim('pk_a', 'a', 600_000)).toBe(false);
  });
});
