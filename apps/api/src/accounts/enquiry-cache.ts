import Keyv from 'keyv';
import { createKeyvRedis } from '../redis/redis-connection';

/** Injection token of the cache of successful account enquiries. */
export const EnquiryCache = Symbol('EnquiryCache');
export type EnquiryCache = Keyv<string>;

/** In memory by default; in Redis (shared by every instance) when REDIS_URL is set. */
export function createEnquiryCache(redisUrl: string | undefined): EnquiryCache {
  const keyv = redisUrl ? new Keyv<string>({ store: createKeyvRedis(redisUrl), namespace: 'paysign:enquiry' }) : new Keyv<string>({ namespace: 'paysign:enquiry' });
  // A cache failure must not fail an enquiry: errors are reported by the calls that see them.
  keyv.on('error', () => undefined);
  return keyv;
}
