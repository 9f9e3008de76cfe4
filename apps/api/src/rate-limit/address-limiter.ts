import type { RateLimitRule, RateLimitStore } from './rate-limit-store.interface';

const WINDOW_MS = 60_000;
/** Above this many remembered blocks, expired ones are dropped. */
const PRUNE_ABOVE = 10_000;

/**
 * Limits what one client address may do in a minute: its refusals before
 * verification (bad headers, unknown keys, wrong signatures), or its requests
 * to the unsigned pages. Hits are counted in the shared store; once an
 * address passes the limit, the instance that saw it remembers the block
 * locally, so that while it lasts each further request of that address costs
 * no round trip and no count: a flood is refused at the price of a map lookup.
 */
export class AddressLimiter {
  private readonly blockedUntil = new Map<string, number>();
  private readonly rules: readonly RateLimitRule[];

  constructor(
    private readonly store: RateLimitStore,
    /** Names the counters in the store, such as `refused` or `public`. */
    private readonly name: string,
    readonly limitPerMinute: number,
    private readonly now: () => number = Date.now,
  ) {
    this.rules = [{ name: `${name}-address`, limit: limitPerMinute, windowMs: WINDOW_MS }];
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

  /** Counts one hit of the address; resolves how long it is now blocked for, 0 when the hit was within the limit. */
  async hit(address: string): Promise<number> {
    const refusal = await this.store.hit(`${this.name}:${address}`, this.rules);
    if (refusal === undefined) return 0;
    if (this.blockedUntil.size > PRUNE_ABOVE) this.pruneExpired();
    this.blockedUntil.set(address, this.now() + refusal.retryAfterMs);
    return refusal.retryAfterMs;
  }

  private pruneExpired(): void {
    const now = this.now();
    for (const [address, until] of this.blockedUntil) if (until <= now) this.blockedUntil.delete(address);
  }
}
