import type { ThrottlerStorage } from '@nestjs/throttler';

/** Injection token of the RateLimitStore. */
export const RateLimitStore = Symbol('RateLimitStore');

/**
 * Fixed-window hit counters, shared by every instance when they live in Redis:
 * @nestjs/throttler's storage, plus `close`. `increment` counts a hit and
 * blocks the key for `blockDuration` ms once it has more than `limit` hits in
 * its `ttl` ms window; times in the record are in seconds, as the throttler expects.
 */
export interface RateLimitStore extends ThrottlerStorage {
  close(): Promise<void>;
}
