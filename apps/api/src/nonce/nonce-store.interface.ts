/** Injection token of the NonceStore. */
export const NonceStore = Symbol('NonceStore');

/**
 * Remembers nonces so that a signed request is admitted once. Implementations
 * must make `claim` atomic: of concurrent claims of one key, exactly one wins.
 * Every method rejects when the store cannot be reached; callers fail closed.
 */
export interface NonceStore {
  /** Claims `key` for `ttlSeconds`. Resolves true when it was free, false on a replay. */
  claim(key: string, ttlSeconds: number): Promise<boolean>;
  /** Resolves when the store answers. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** The nonce key: scoped to the API key. Nonces cannot contain ':', so the split is unambiguous. */
export function nonceKey(apiKey: string, nonce: string): string {
  return `paysign:nonce:${apiKey}:${nonce}`;
}
