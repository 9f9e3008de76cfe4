/** Injection token of the RateLimitStore. */
export const RateLimitStore = Symbol('RateLimitStore');

/**
 * One limit: at most `limit` hits in each fixed window of `windowMs`. Past
 * it, the tracker is refused for a whole window, counted from the hit that
 * went over.
 */
export interface RateLimitRule {
  /** Names the counter in the store; unique among the rules counted together. */
  readonly name: string;
  readonly limit: number;
  readonly windowMs: number;
}

/** The rule that refused a hit, and how long its block has left. */
export interface RateLimitRefusal {
  readonly rule: RateLimitRule;
  readonly retryAfterMs: number;
}

/**
 * Fixed-window hit counters, shared by every instance when they live in Redis.
 * `hit` counts one hit of a tracker against its rules in order, in one atomic
 * step (one round trip for Redis), and stops at the first rule that refuses it:
 * the rules after it are not counted.
 */
export interface RateLimitStore {
  hit(tracker: string, rules: readonly RateLimitRule[]): Promise<RateLimitRefusal | undefined>;
  close(): Promise<void>;
}
