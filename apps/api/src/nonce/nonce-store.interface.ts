import { DEFAULT_REDIS_KEY_PREFIX } from '../config/app-config';

/** Injection token of the NonceStore. */
export const NonceStore = Symbol('NonceStore');

/**
 * Remembers nonces so that a signed request is admitted once. Implementations
 * must make `claim` atomic: of concurrent claims of one nonce, exactly one wins.
 * Every method rejects when the store cannot be reached; callers fail closed.
 */
export interface NonceStore {
  /**
   * Claims `nonce` for `apiKey` for `holdMs`. Resolves true when it was free,
   * false on a replay. Rejects with NonceShareExceededError when the key holds
   * its whole share of the store, and NonceStoreFullError when the store is full.
   */
  claim(apiKey: string, nonce: string, holdMs: number): Promise<boolean>;
  /** Resolves when the store answers. */
  ping(): Promise<void>;
  /** Whether the store refuses new nonces for lack of room; the readiness answer reports it. */
  isFull(): boolean;
  close(): Promise<void>;
}

/** The store holds as many live nonces as it may: every key is refused until some expire. */
export class NonceStoreFullError extends Error {
  override readonly name = 'NonceStoreFullError';
}

/** One API key holds its whole share of the store: that key is refused, the others are not. */
export class NonceShareExceededError extends Error {
  override readonly name = 'NonceShareExceededError';
}

/** The nonce key: scoped to the API key. Nonces cannot contain ':', so the split is unambiguous. */
export function nonceKey(apiKey: string, nonce: string, prefix = DEFAULT_REDIS_KEY_PREFIX): string {
  return `${prefix}nonce:${apiKey}:${nonce}`;
}
