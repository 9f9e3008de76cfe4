import { NonceShareExceededError, NonceStoreFullError, nonceKey, type NonceStore } from './nonce-store.interface';

export interface MemoryNonceStoreOptions {
  /** Milliseconds since the epoch. Default: `Date.now`. */
  now?: () => number;
  /** Live nonces held at most; beyond this every claim is refused (fails closed) rather than grow. Default: 1,000,000. */
  maxEntries?: number;
  /** Live nonces one API key may hold, so that one key's flood cannot fill the store for every merchant. Default: 120,000. */
  maxPerKey?: number;
}

interface Entry {
  apiKey: string;
  expiresAt: number;
}

/**
 * The embedded default. `claim` runs without awaiting, so it is atomic on
 * Node's single thread. Expired entries are purged, not merely ignored: the
 * map is kept in insertion order, which is expiry order to within the spread
 * of hold times (a few seconds), so each claim drops expired entries from its
 * front in amortised constant time.
 */
export class MemoryNonceStore implements NonceStore {
  private readonly entries = new Map<string, Entry>();
  private readonly liveByKey = new Map<string, number>();
  private readonly now: () => number;
  private readonly maxEntries: number;
  private readonly maxPerKey: number;

  constructor(options: MemoryNonceStoreOptions = {}) {
    this.now = options.now ?? Date.now;
    this.maxEntries = options.maxEntries ?? 1_000_000;
    this.maxPerKey = options.maxPerKey ?? 120_000;
  }

  async claim(apiKey: string, nonce: string, holdMs: number): Promise<boolean> {
    const now = this.now();
    this.purgeExpired(now);
    const key = nonceKey(apiKey, nonce);
    const existing = this.entries.get(key);
    if (existing !== undefined && existing.expiresAt > now) return false;
    const held = this.liveByKey.get(apiKey) ?? 0;
    if (held >= this.maxPerKey) throw new NonceShareExceededError(`API key ${apiKey} holds its share of ${this.maxPerKey} live nonces`);
    if (this.entries.size >= this.maxEntries) throw new NonceStoreFullError(`the in-memory nonce store holds ${this.maxEntries} live nonces`);
    if (existing !== undefined) this.remove(key, existing);
    this.entries.set(key, { apiKey, expiresAt: now + holdMs });
    this.liveByKey.set(apiKey, held + 1);
    return true;
  }

  /** Live entries; for tests and metrics. */
  get size(): number {
    this.purgeExpired(this.now());
    return this.entries.size;
  }

  isFull(): boolean {
    return this.size >= this.maxEntries;
  }

  async ping(): Promise<void> {}

  async close(): Promise<void> {
    this.entries.clear();
    this.liveByKey.clear();
  }

  private purgeExpired(now: number): void {
    for (const [key, entry] of this.entries) {
      if (entry.expiresAt > now) return;
      this.remove(key, entry);
    }
  }

  private remove(key: string, entry: Entry): void {
    this.entries.delete(key);
    const held = (this.liveByKey.get(entry.apiKey) ?? 1) - 1;
    if (held > 0) this.liveByKey.set(entry.apiKey, held);
    else this.liveByKey.delete(entry.apiKey);
  }
}
