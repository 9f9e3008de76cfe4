import * as path from 'node:path';
import { envValues, type Env } from './env-values';
import type { ServiceMode } from './service-mode';

export interface StoreSettings {
  /** Nonce store, rate-limit counters and enquiry cache in Redis when set, shared by every instance; in memory otherwise. */
  redisUrl: string | undefined;
  /** What every key the service writes to Redis starts with, so that services sharing one Redis never meet. */
  redisKeyPrefix: string;
  /** Payins in PostgreSQL when set; embedded on disk under dataDir otherwise. Requests run on it: a role with row privileges is enough. */
  databaseUrl: string | undefined;
  /**
   * DATABASE_MIGRATION_URL: the role that owns the schema, on a direct connection (never a pooler in transaction
   * mode): the migrations at boot and the LISTEN for merchant changes. Defaults to DATABASE_URL.
   */
  databaseMigrationUrl: string | undefined;
  /** The PostgreSQL pool of each instance: connections, the wait for a free one, and the longest query. */
  databasePool: { size: number; connectTimeoutMs: number; queryTimeoutMs: number };
  dataDir: string;
  /** How often each store is pinged for readiness, between the requests that use it. */
  healthProbeIntervalMs: number;
}

/** The default of REDIS_KEY_PREFIX, which every key the service writes to Redis starts with. */
export const DEFAULT_REDIS_KEY_PREFIX = 'paysign:';

/** Redis and PostgreSQL, which production requires: in-memory nonces and the embedded database serve one instance only. */
export function readStores(env: Env, mode: ServiceMode, problems: string[]): StoreSettings {
  const { int, url } = envValues(env, problems);
  if (mode === 'production') {
    if (!env.REDIS_URL) problems.push('REDIS_URL is required in production mode: nonces held in memory are forgotten on restart, so a captured request could be replayed, and are not shared by instances');
    if (!env.DATABASE_URL) problems.push('DATABASE_URL is required in production mode: the embedded database serves one instance and has no backups or replication');
  }
  const databaseUrl = url('DATABASE_URL', ['postgres:', 'postgresql:']);
  const databaseMigrationUrl = url('DATABASE_MIGRATION_URL', ['postgres:', 'postgresql:']);
  if (databaseMigrationUrl && !databaseUrl) {
    problems.push('DATABASE_MIGRATION_URL is set but DATABASE_URL is not: the embedded database has no roles. Set DATABASE_URL to the role requests run as, or unset DATABASE_MIGRATION_URL');
  }
  return {
    redisUrl: url('REDIS_URL', ['redis:', 'rediss:']),
    redisKeyPrefix: redisKeyPrefix(env.REDIS_KEY_PREFIX, problems),
    databaseUrl,
    databaseMigrationUrl: databaseUrl ? (databaseMigrationUrl ?? databaseUrl) : undefined,
    databasePool: {
      size: int('DATABASE_POOL_SIZE', 10, 1, 200),
      connectTimeoutMs: int('DATABASE_CONNECT_TIMEOUT_MS', 2000, 100, 60_000),
      queryTimeoutMs: int('DATABASE_QUERY_TIMEOUT_MS', 5000, 100, 120_000),
    },
    dataDir: path.resolve(env.DATA_DIR || './data'),
    healthProbeIntervalMs: int('HEALTH_PROBE_INTERVAL_MS', 1000, 100, 30_000),
  };
}

/** REDIS_KEY_PREFIX: letters, digits and `_ . - :`, ending in `:` so that ours never run into another service's keys. */
function redisKeyPrefix(raw: string | undefined, problems: string[]): string {
  if (raw === undefined || raw === '') return DEFAULT_REDIS_KEY_PREFIX;
  if (!/^[A-Za-z0-9_.-][A-Za-z0-9_.:-]{0,62}:$/.test(raw)) {
    problems.push(`REDIS_KEY_PREFIX must be 2 to 64 letters, digits, "_", ".", "-" or ":", ending in ":", such as "paysign-eu:"; got "${raw}"`);
    return DEFAULT_REDIS_KEY_PREFIX;
  }
  return raw;
}
