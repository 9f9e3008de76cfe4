import type { RateLimitRule, RateLimitStore } from './rate-limit-store.interface';

const WINDOW_MS = 60_000;
/** Above this many remembered blocks, expired ones are dropped. */
const PRUNE_ABOVE = 10_000;

/**
 * Limits requests refused before verification (bad headers, unknown keys,
 * stale timestamps, wrong signatures) per client address. Refusals are counted
 * in the shared store; once an address passes the limit, every instance that
 * sees its next refusal remembers the block locally, so checking it costs no
 * round trip on the hot path.
 */
export class RefusedAddressLimiter {
  private readonly blockedUntil = new Map<string, number>();
  private readonly rules: readonly RateLimitRule[];

  constructor(
    private readonly store: RateLimitStore,
    readonly limitPerMinute: number,
    private readonly now: () => number = Date.now,
  ) {
    this.rules = [{ name: 'refused-address', limit: limitPerMinute, windowMs: WINDOW_MS }];
  }

  /** Milliseconds until the address may be heard again; 0 when it is not blocked. */
  blockedForMs(address: string): number {
    const until = this.blockedUntil.get(address);
    if (until === undefined) return 0;
    const left = until - this.now();
    if (left > 0) return left;
    this.blockedUntil.delete(address);
    return 0;
  }

  async recordRefusal(address: string): Promise<void> {
    const refusal = await this.store.hit(`refused:${address}`, this.rules);
    if (refusal === undefined) return;
    if (this.blockedUntil.size > PRUNE_ABOVE) this.pruneExpired();
    this.blockedUntil.set(address, this.now() + refusal.retryAfterMs);
  }

  private pruneExpired(): void {
    const now = this.now();
    for (const [address, until] of this.blockedUntil) if (until <= now) this.blockedUntil.delete(address);
  }
}
