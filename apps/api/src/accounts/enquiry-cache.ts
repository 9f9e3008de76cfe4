import Keyv from 'keyv';
import { DEFAULT_REDIS_KEY_PREFIX } from '../config/app-config';
import { createKeyvRedis } from '../redis/redis-connection';

/** Injection token of the cache of successful account enquiries. */
export const EnquiryCache = Symbol('EnquiryCache');
export type EnquiryCache = Keyv<string>;

/** In memory by default; in Redis (shared by every instance) when REDIS_URL is set, under REDIS_KEY_PREFIX. */
export async function createEnquiryCache(redisUrl: string | undefined, keyPrefix = DEFAULT_REDIS_KEY_PREFIX): Promise<EnquiryCache> {
  const namespace = `${keyPrefix}enquiry`;
  // With Redis the adapter prefixes the namespace itself, so Keyv must not add it again.
  const keyv = redisUrl
    ? new Keyv<string>({ store: await createKeyvRedis(redisUrl, { keyPrefixSeparator: ':' }), namespace, useKeyPrefix: false })
    : // In memory, entries stay objects in a Map: no JSON encoding on every write and read.
      new Keyv<string>({ namespace, serialize: undefined, deserialize: undefined });
  // A cache failure must not fail an enquiry: errors are reported by the calls that see them.
  keyv.on('error', () => undefined);
  return keyv;
}
