import { MemoryNonceStore, NonceStoreFullError } from './memory-nonce-store';

describe('MemoryNonceStore', () => {
  it('claims a key once within its TTL, and again after it', async () => {
    let now = 0;
    const store = new MemoryNonceStore({ now: () => now });
    expect(await store.claim('k', 600)).toBe(true);
    now = 599_999;
    expect(await store.claim('k', 600)).toBe(false);
    now = 600_000;
    expect(await store.claim('k', 600)).toBe(true);
  });

  it('purges expired entries instead of keeping them', async () => {
    let now = 0;
    const store = new MemoryNonceStore({ now: () => now });
    for (let i = 0; i < 1000; i++) await store.claim(`k${i}`, 600);
    expect(store.size).toBe(1000);
    now = 600_000;
    await store.claim('fresh', 600);
    expect(store.size).toBe(1);
  });

  it('admits exactly one of many concurrent claims', async () => {
    const store = new MemoryNonceStore();
    const results = await Promise.all(Array.from({ length: 100 }, () => store.claim('same', 600)));
    expect(results.filter(Boolean)).toHaveLength(1);
  });

  it('refuses rather than grows past its bound', async () => {
    const store = new MemoryNonceStore({ maxEntries: 2, now: () => 0 });
    await store.claim('a', 600);
    await store.claim('b', 600);
    await expect(store.claim('c', 600)).rejects.toBeInstanceOf(NonceStoreFullError);
    expect(await store.claim('a', 600)).toBe(false);
  });
});
