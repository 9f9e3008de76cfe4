import type KeyvRedis from '@keyv/redis';
import { redactUrl } from '../logging/redact-url';
import { StoreTimeoutError } from '../stores/store-failure';

export type RedisClient = Awaited<ReturnType<KeyvRedis<string>['getClient']>>;

/**
 * One connection to REDIS_URL, shared by the nonce store and the rate-limit
 * counters; the enquiry cache keeps a connection of its own, through Keyv
 * (createEnquiryCache). It fails fast while Redis is down and reconnects by
 * itself; the service closes it once, at shutdown.
 */
export class RedisConnection {
  private constructor(
    private readonly keyvRedis: KeyvRedis<string>,
    readonly client: RedisClient,
  ) {}

  static async open(url: string): Promise<RedisConnection> {
    const keyvRedis = await createKeyvRedis(url);
    return new RedisConnection(keyvRedis, await connectOrExplain(keyvRedis, url));
  }

  async close(): Promise<void> {
    await this.keyvRedis.disconnect().catch(() => undefined);
  }
}

/**
 * A @keyv/redis store that fails fast while disconnected and reconnects
 * forever. The Redis client is loaded here, on first use, not at the top: a
 * service without REDIS_URL never loads it, and starts that much sooner.
 */
export async function createKeyvRedis(url: string, options: { keyPrefixSeparator?: string } = {}): Promise<KeyvRedis<string>> {
  const { default: KeyvRedisStore } = await import('@keyv/redis');
  const keyvRedis = new KeyvRedisStore<string>(
    {
      url,
      disableOfflineQueue: true,
      socket: { connectTimeout: 2000, reconnectStrategy: (retries: number) => Math.min(50 * 2 ** retries, 1000) },
    },
    { throwOnConnectError: true, throwOnErrors: true, connectionTimeout: 2000, ...options },
  );
  // Without a listener, a connection error would be an unhandled 'error' event.
  keyvRedis.on('error', () => undefined);
  return keyvRedis;
}

/** The connected client, or an error that names REDIS_URL and the address it tried (password hidden). */
async function connectOrExplain(keyvRedis: KeyvRedis<string>, url: string): Promise<RedisClient> {
  try {
    return await withTimeout(keyvRedis.getClient(), 5000, 'no answer within 5 s');
  } catch (error) {
    await keyvRedis.disconnect().catch(() => undefined);
    throw new Error(`REDIS_URL ${redactUrl(url)} cannot be reached: ${(error as Error).message}. Check that Redis runs there and accepts connections.`);
  }
}

/** `promise`, or a StoreTimeoutError once `ms` have passed: a command that does not answer is a store failure. */
export function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new StoreTimeoutError(message)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
