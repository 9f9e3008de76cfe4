import type { ThrottlerStorageRecord } from '@nestjs/throttler/dist/throttler-storage-record.interface';
import { withTimeout, type RedisConnection } from '../redis/redis-connection';
import type { RateLimitStore } from './rate-limit-store.interface';

const COMMAND_TIMEOUT_MS = 1000;

/**
 * One round trip per hit: count, set the window's expiry on its first hit,
 * and block the key once it passes the limit. The counter and its block
 * marker share a hash tag, so they live on one node of a Redis cluster.
 * KEYS: counter, block marker. ARGV: window ms, limit, block ms.
 * Returns hits, the window's ms left, the block's ms left (0 when not blocked).
 */
const INCREMENT_SCRIPT = `
local blocked = redis.call('PTTL', KEYS[2])
if blocked > 0 then
  return {tonumber(redis.call('GET', KEYS[1]) or '0'), math.max(redis.call('PTTL', KEYS[1]), 0), blocked}
end
local hits = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
if hits > tonumber(ARGV[2]) then
  redis.call('SET', KEYS[2], '1', 'PX', ARGV[3])
  return {hits, ttl, tonumber(ARGV[3])}
end
return {hits, ttl, 0}
`;

/** Counters in Redis, shared by every instance of the service. */
export class RedisRateLimitStore implements RateLimitStore {
  constructor(private readonly redis: RedisConnection) {}

  async increment(key: string, ttl: number, limit: number, blockDuration: number, _throttlerName?: string): Promise<ThrottlerStorageRecord> {
    const counter = `paysign:rate:{${key}}`;
    const reply = await withTimeout(
      this.redis.client.eval(INCREMENT_SCRIPT, { keys: [counter, `${counter}:blocked`], arguments: [String(ttl), String(limit), String(blockDuration)] }),
      COMMAND_TIMEOUT_MS,
      'Redis rate-limit script timed out',
    );
    const [hits, ttlMs, blockedMs] = (reply as number[]).map(Number) as [number, number, number];
    return { totalHits: hits, timeToExpire: Math.ceil(ttlMs / 1000), isBlocked: blockedMs > 0, timeToBlockExpire: Math.ceil(blockedMs / 1000) };
  }

  /** The connection is shared, and closed by the service at shutdown. */
  async close(): Promise<void> {}
}
