import { NONCE_TTL_SECONDS, TIMESTAMP_TOLERANCE_SECONDS } from '@paysign/signing';
import { envValues, type Env } from './env-values';
import { MAX_MEMORY_NONCES } from './limits';

export interface SigningSettings {
  timestampToleranceSeconds: number;
  nonceTtlSeconds: number;
  /** Live nonces held at most by the in-memory store, and by one API key. */
  nonceStoreMaxEntries: number;
  nonceStoreMaxPerKey: number;
}

/** How old a signed request may be, and how long and how many of its nonces are kept to refuse a replay. */
export function readSigning(env: Env, problems: string[]): SigningSettings {
  const { int } = envValues(env, problems);
  const signing: SigningSettings = {
    timestampToleranceSeconds: int('TIMESTAMP_TOLERANCE_SECONDS', TIMESTAMP_TOLERANCE_SECONDS, 1, 3600),
    nonceTtlSeconds: int('NONCE_TTL_SECONDS', NONCE_TTL_SECONDS, 1, 86400),
    nonceStoreMaxEntries: int('NONCE_STORE_MAX_ENTRIES', 6_000_000, 100, MAX_MEMORY_NONCES),
    nonceStoreMaxPerKey: int('NONCE_STORE_MAX_PER_KEY', 120_000, 10, MAX_MEMORY_NONCES),
  };
  if (signing.nonceTtlSeconds < 2 * signing.timestampToleranceSeconds) {
    problems.push(
      `NONCE_TTL_SECONDS (${signing.nonceTtlSeconds}) must be at least twice TIMESTAMP_TOLERANCE_SECONDS (${signing.timestampToleranceSeconds}), or a request could be replayed after its nonce expires but while its timestamp is still accepted`,
    );
  }
  if (signing.nonceStoreMaxPerKey > signing.nonceStoreMaxEntries) {
    problems.push(`NONCE_STORE_MAX_PER_KEY (${signing.nonceStoreMaxPerKey}) must not exceed NONCE_STORE_MAX_ENTRIES (${signing.nonceStoreMaxEntries})`);
  }
  return signing;
}
