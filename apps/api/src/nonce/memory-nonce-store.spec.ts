import fc from 'fast-check';
import { MAX_MEMORY_NONCES } from '../config/limits';
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

  it('frees expired nonces without traffic: 16 sweeps visit the whole table', async () => {
    let now = 0;
    const store = new MemoryNonceStore({ now: () => now });
    try {
      for (let i = 0; i < 5000; i++) await store.claim('pk', `n${i}`, 1000);
      expect(store.heldCount).toBe(5000);
      now = 1000;
      // No claim from here on: only the sweeps run, as the job runner calls them.
      for (let sweep = 0; sweep < 15; sweep++) store.sweep();
      expect(store.heldCount).toBeGreaterThan(0);
      store.sweep();
      expect(store.heldCount).toBe(0);
    } finally {
      await store.close();
    }
  });

  it('keeps every nonce, and refuses each replay, across the rebuilds that grow the table', async () => {
    let now = 0;
    const store = new MemoryNonceStore({ now: () => now, maxPerKey: 100_000 });
    // Counted, not expected one by one: jest's expect costs more than a claim.
    const wrong: string[] = [];
    const check = async (nonce: string, holdMs: number, want: boolean, apiKey = 'pk') => {
      if ((await store.claim(apiKey, nonce, holdMs)) !== want) wrong.push(`${apiKey}/${nonce}`);
    };
    for (let i = 0; i < 50_000; i++) await check(`n${i}`, 1000 + (i % 7) * 100, true);
    for (let i = 0; i < 50_000; i += 7) await check(`n${i}`, 1000, false);
    // Some expire; the others stay held through the rebuilds that the new claims cause.
    now = 1300;
    for (let i = 50_000; i < 100_000; i++) await check(`n${i}`, 1000, true);
    for (let i = 0; i < 50_000; i++) await check(`x${i}`, 1, true, 'pk_other');
    for (let i = 0; i < 50_000; i += 11) await check(`n${i}`, 1000, 1000 + (i % 7) * 100 <= 1300);
    expect(wrong).toEqual([]);
    await store.close();
  });

  it('answers every claim as a map of live nonces would, through rebuilds under way and sweeps, whatever the order', async () => {
    // Fresh nonces fill the table (1024 slots at first) and expire into tombstones, so that it rebuilds and drains many
    // times in one run; replays of recent nonces land while a rebuild is under way, in either table.
    const op = fc.oneof(
      { weight: 20, arbitrary: fc.record({ kind: fc.constant('claim' as const), key: fc.constantFrom('pk_a', 'pk_b'), holdMs: fc.integer({ min: 1, max: 3000 }) }) },
      { weight: 10, arbitrary: fc.record({ kind: fc.constant('replay' as const), back: fc.integer({ min: 1, max: 400 }) }) },
      { weight: 2, arbitrary: fc.record({ kind: fc.constant('tick' as const), ms: fc.integer({ min: 1, max: 100 }) }) },
      { weight: 1, arbitrary: fc.record({ kind: fc.constant('sweep' as const) }) },
    );
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1000, maxLength: 6000 }), async (ops) => {
        let now = 1;
        const store = new MemoryNonceStore({ now: () => now, maxPerKey: 1_000_000 });
        const live = new Map<string, number>();
        const claimed: Array<{ key: string; nonce: string; holdMs: number }> = [];
        for (const step of ops) {
          if (step.kind === 'tick') now += step.ms;
          else if (step.kind === 'sweep') store.sweep();
          else {
            const call = step.kind === 'claim' ? { key: step.key, nonce: `n${claimed.length}`, holdMs: step.holdMs } : claimed[Math.max(0, claimed.length - step.back)];
            if (!call) continue;
            if (step.kind === 'claim') claimed.push(call);
            const id = `${call.key}/${call.nonce}`;
            const expected = (live.get(id) ?? 0) <= now;
            if (expected) live.set(id, now + call.holdMs);
            expect(await store.claim(call.key, call.nonce, call.holdMs)).toBe(expected);
          }
        }
        expect(store.size).toBe([...live.values()].filter((expiry) => expiry > now).length);
      }),
      // No shrinking: a failing run of thousands of steps shrinks for minutes; its seed and path reproduce it.
      { numRuns: 30, endOnFailure: true },
    );
  });

  it('refuses every held nonce at each step of a rebuild, in whichever table it is', async () => {
    const store = new MemoryNonceStore({ now: () => 0, maxPerKey: 1_000_000 });
    const held: string[] = [];
    // 769 nonces fill three quarters of the first table: the claim past that starts a rebuild.
    for (let i = 0; i < 769; i++) held.push(`n${i}`);
    for (const nonce of held) await store.claim('pk', nonce, 60_000);
    const wrong: string[] = [];
    // Each new claim moves a few slots of the old table into the new one; at each step, every nonce so far is a replay.
    for (let step = 0; step < 40; step++) {
      const fresh = `fresh-${step}`;
      if (!(await store.claim('pk', fresh, 60_000))) wrong.push(fresh);
      held.push(fresh);
      for (const nonce of held) if (await store.claim('pk', nonce, 60_000)) wrong.push(`${nonce} at step ${step}`);
    }
    expect(wrong).toEqual([]);
    expect(store.size).toBe(held.length);
  });

  it('bounds a false replay by the fingerprint: under 1e-12 per claim at its largest configuration', () => {
    expect(MAX_MEMORY_NONCES / 2 ** 64).toBeLessThan(1e-12);
  });

  it('holds 6M live nonces, a whole 600 s TTL at 10k requests per second, in at most 40 bytes each, with no false replay', async () => {
    const store = new MemoryNonceStore({ now: () => 0, maxEntries: 6_000_000, maxPerKey: 6_000_000 });
    let admitted = 0;
    for (let i = 0; i < 6_000_000; i++) if (await store.claim('pk_load', `nonce-${i}`, 600_000)) admitted++;
    expect(admitted).toBe(6_000_000);
    expect(store.tableBytes / store.heldCount).toBeLessThanOrEqual(40);
    for (let i = 0; i < 6_000_000; i += 997) expect(await store.claim('pk_load', `nonce-${i}`, 600_000)).toBe(false);
    await store.close();
  }, 180_000);
});
