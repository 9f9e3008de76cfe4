import { withTimeout, type RedisConnection } from '../redis/redis-connection';
import { DEFAULT_REDIS_KEY_PREFIX } from '../config/app-config';
import { nonceKey, type NonceStore } from './nonce-store.interface';

/** A command that has not answered in this time is treated as a store failure. */
const COMMAND_TIMEOUT_MS = 1000;

/**
 * Nonces in Redis, shared by every instance of the service: `SET key 1 NX PX ttl`
 * through the client of @keyv/redis. The offline queue is off, so while Redis
 * is down a claim fails at once instead of waiting; the client keeps
 * reconnecting, so the service recovers by itself.
 */
export class RedisNonceStore implements NonceStore {
  constructor(
    private readonly redis: RedisConnection,
    /** REDIS_KEY_PREFIX: services sharing one Redis keep their nonces apart. */
    private readonly keyPrefix = DEFAULT_REDIS_KEY_PREFIX,
  ) {}

  /**
   * One `SET NX PX`. Redis holds no per-key count: the per-key rate limit,
   * checked before every claim, bounds a key's live nonces to its rate times
   * the hold time, and Redis's memory is the operator's to size.
   */
  async claim(apiKey: string, nonce: string, holdMs: number): Promise<boolean> {
    const reply = await withTimeout(this.redis.client.set(nonceKey(apiKey, nonce, this.keyPrefix), '1', { NX: true, PX: holdMs }), COMMAND_TIMEOUT_MS, 'Redis SET timed out');
    return reply === 'OK';
  }

  isFull(): boolean {
    return false;
  }

  async ping(): Promise<void> {
    await withTimeout(this.redis.client.ping(), COMMAND_TIMEOUT_MS, 'Redis PING timed out');
  }

  /** The connection is shared, and closed by the service at shutdown. */
  async close(): Promise<void> {}
}
