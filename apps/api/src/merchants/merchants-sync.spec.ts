import pino from 'pino';
import { MerchantRegistry } from './merchant-registry';
import type { LoadedMerchants, MerchantStore } from './merchant-store';
import { MerchantsSync } from './merchants-sync';

/** A store whose loads each wait to be answered, and which counts what they read: the database at a version the test sets. */
function heldStore() {
  let version = 0n;
  const loads: Array<{ readAt: bigint; answer: () => void }> = [];
  const store = {
    version: async () => version,
    loadAll: () =>
      new Promise<LoadedMerchants>((resolve) => {
        const readAt = version;
        loads.push({ readAt, answer: () => resolve({ version: readAt, entries: [], refused: [] }) });
      }),
    recordLastUsed: async () => undefined,
  };
  return { store: store as unknown as MerchantStore, loads, commit: () => (version += 1n) };
}

describe('the merchants sync', () => {
  it('makes a refresh asked for during a load wait for a load that starts after it, shared by every such caller', async () => {
    const { store, loads, commit } = heldStore();
    const sync = new MerchantsSync(new MerchantRegistry([]), store, { maxLagMs: 60_000, lastUsedFlushMs: 60_000, logger: pino({ level: 'silent' }) }, 0n);
    const first = sync.refresh('announced');
    expect(loads).toHaveLength(1);
    // A change commits while the first load is in flight, having read before it.
    commit();
    let secondDone = false;
    const second = sync.refresh('changed here').then(() => (secondDone = true));
    const third = sync.refresh('changed here');
    loads[0]?.answer();
    await first;
    await new Promise((resolve) => setImmediate(resolve));
    expect(secondDone).toBe(false);
    expect(loads).toHaveLength(2);
    expect(loads[1]?.readAt).toBe(1n);
    loads[1]?.answer();
    await Promise.all([second, third]);
    expect(loads).toHaveLength(2);
  });

  it('trusts no key once the database has not answered for three lags (at least 5 s), and trusts them again at its next answer', async () => {
    const { store } = heldStore();
    let now = 1_000_000;
    let down = false;
    const flaky = { ...store, version: async () => (down ? Promise.reject(new Error('connection refused')) : 0n) } as unknown as MerchantStore;
    const registry = new MerchantRegistry([]);
    const sync = new MerchantsSync(registry, flaky, { maxLagMs: 1000, lastUsedFlushMs: 60_000, logger: pino({ level: 'silent' }), now: () => now }, 0n);
    await sync.check();
    expect(registry.isStale(now)).toBe(false);
    down = true;
    now += 4000;
    await sync.check();
    expect(registry.isStale(now)).toBe(false);
    now += 1001;
    expect(registry.isStale(now)).toBe(true);
    down = false;
    await sync.check();
    expect(registry.isStale(now)).toBe(false);
  });
});
