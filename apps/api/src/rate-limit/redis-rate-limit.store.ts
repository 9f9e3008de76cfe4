import { createHash } from 'node:crypto';
import { DEFAULT_REDIS_KEY_PREFIX } from '../config/app-config';
import { withTimeout, type RedisConnection } from '../redis/redis-connection';
import type { RateLimitRefusal, RateLimitRule, RateLimitStore } from './rate-limit-store.interface';

const COMMAND_TIMEOUT_MS = 1000;

/**
 * Every rule of one hit in one round trip. For each rule in order: refuse
 * while its block marker lives; else count, set the window's expiry on its
 * first hit, and past the limit set the block marker for one window and
 * refuse. A tracker's keys share a hash tag, so they live on one node of a
 * Redis cluster.
 * KEYS: per rule, its counter then its block marker. ARGV: per rule, its window ms then its limit.
 * Returns the refusing rule's position (from 1; 0 when admitted) and its block's ms left.
 */
const HIT_SCRIPT = `
for i = 1, #ARGV, 2 do
  local blocked = redis.call('PTTL', KEYS[i + 1])
  if blocked > 0 then return {(i + 1) / 2, blocked} end
  local hits = redis.call('INCR', KEYS[i])
  if redis.call('PTTL', KEYS[i]) < 0 then redis.call('PEXPIRE', KEYS[i], ARGV[i]) end
  if hits > tonumber(ARGV[i + 1]) then
    redis.call('SET', KEYS[i + 1], '1', 'PX', ARGV[i])
    return {(i + 1) / 2, tonumber(ARGV[i])}
  end
end
return {0, 0}
`;
const HIT_SCRIPT_SHA1 = createHash('sha1').update(HIT_SCRIPT).digest('hex');

/** Counters in Redis, shared by every instance of the service. */
export class RedisRateLimitStore implements RateLimitStore {
  constructor(
    private readonly redis: RedisConnection,
    /** REDIS_KEY_PREFIX: services sharing one Redis keep their counters apart. */
    private readonly keyPrefix = DEFAULT_REDIS_KEY_PREFIX,
  ) {}

  async hit(tracker: string, rules: readonly RateLimitRule[]): Promise<RateLimitRefusal | undefined> {
    const keys: string[] = [];
    const args: string[] = [];
    for (const rule of rules) {
      const counter = `${this.keyPrefix}rate:{${tracker}}:${rule.name}`;
      keys.push(counter, `${counter}:blocked`);
      args.push(String(rule.windowMs), String(rule.limit));
    }
    const reply = await withTimeout(this.runHitScript(keys, args), COMMAND_TIMEOUT_MS, 'Redis rate-limit script timed out');
    const [position, blockedMs] = (reply as number[]).map(Number) as [number, number];
    const rule = rules[position - 1];
    return rule === undefined ? undefined : { rule, retryAfterMs: blockedMs };
  }

  /** The script by its digest, sent whole only when Redis does not hold it yet (after a restart or a flush). */
  private async runHitScript(keys: string[], args: string[]): Promise<unknown> {
    const options = { keys, arguments: args };
    try {
      return await this.redis.client.evalSha(HIT_SCRIPT_SHA1, options);
    } catch (error) {
      if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error;
      return this.redis.client.eval(HIT_SCRIPT, options);
    }
  }

  /** The connection is shared, and closed by the service at shutdown. */
  async close(): Promise<void> {}
}
