import type { NonceStore } from './nonce-store.interface';

export interface MemoryNonceStoreOptions {
  /** Milliseconds since the epoch. Default: `Date.now`. */
  now?: () => number;
  /** Claims held at most; beyond this the store refuses (fails closed) rather than grow. Default: 1,000,000. */
  maxEntries?: number;
}

export class NonceStoreFullError extends Error {
  override readonly name = 'NonceStoreFullError';
}

/**
 * The embedded default. `claim` runs without awaiting, so it is atomic on
 * Node's single thread. Expired entries are purged, not merely ignored: the
 * map is ordered by expiry for a fixed TTL, so each claim drops expired
 * entries from its front in amortised constant time.
 */
export class MemoryNonceStore implements NonceStore {
  private readonly expiresAt = new Map<string, number>();
  private readonly now: () => number;
  private readonly maxEntries: number;

  constructor(options: MemoryNonceStoreOptions = {}) {
    this.now = options.now ?? Date.now;
    this.maxEntries = options.maxEntries ?? 1_000_000;
  }

  async claim(key: string, ttlSeconds: number): Promise<boolean> {
    const now = this.now();
    this.purgeExpired(now);
    const existing = this.expiresAt.get(key);
    if (existing !== undefined && existing > now) return false;
    if (this.expiresAt.size >= this.maxEntries) throw new NonceStoreFullError(`the in-memory nonce store holds ${this.maxEntries} live nonces`);
    // Re-insert so that map order stays expiry order.
    this.expiresAt.delete(key);
    this.expiresAt.set(key, now + ttlSeconds * 1000);
    return true;
  }

  /** Live entries; for tests and metrics. */
  get size(): number {
    this.purgeExpired(this.now());
    return this.expiresAt.size;
  }

  async ping(): Promise<void> {}

  async close(): Promise<void> {
    this.expiresAt.clear();
  }

  private purgeExpired(now: number): void {
    for (const [key, expiry] of this.expiresAt) {
      if (expiry > now) return;
      this.expiresAt.delete(key);
    }
  }
}
