import * as path from 'node:path';
import { parseKeyring, SANDBOX_KEYRING, type KeyringKey } from './keyring-config';
import { envValues, type Env } from './env-values';
import type { ServiceMode } from './service-mode';

export interface MerchantsSettings {
  /**
   * A merchants file imported into the database at boot: MERCHANTS_FILE,
   * deprecated, when set; else, in sandbox, the sandbox merchants, which
   * seed the demo merchant. Undefined: nothing is imported.
   */
  merchantsImportFile: string | undefined;
  /** Whether MERCHANTS_FILE named it, which the boot logs as deprecated. */
  merchantsFileDeprecated: boolean;
  /** SECRETS_KEYRING: the first key encrypts the merchants' secrets at rest, every key decrypts. */
  secretsKeyring: readonly KeyringKey[];
  /** How soon a merchant change made anywhere is in force on every instance: the period of the version check behind the push. */
  merchantsSyncMaxLagMs: number;
  /** How often the keys' last use is written to the database (never once per request). */
  merchantsLastUsedFlushSeconds: number;
  /** The most webhook endpoints one merchant may hold. */
  webhookEndpointsPerMerchant: number;
}

/** The merchants' storage settings; production names its own keyring, and needs no merchants file. */
export function readMerchants(env: Env, mode: ServiceMode, problems: string[], { sandboxMerchantsFile }: { sandboxMerchantsFile: string }): MerchantsSettings {
  const { int } = envValues(env, problems);
  const production = mode === 'production';
  if (production && !env.SECRETS_KEYRING) {
    problems.push('SECRETS_KEYRING is required in production mode: it encrypts the merchants\' secrets in the database; set it to id:key with key the output of openssl rand -base64 32');
  }
  const keyring = parseKeyring(env.SECRETS_KEYRING || SANDBOX_KEYRING, problems);
  if (production && env.SECRETS_KEYRING && keyring.some((key) => `${key.id}:${key.key.toString('base64')}` === SANDBOX_KEYRING)) {
    problems.push('SECRETS_KEYRING holds the public sandbox key, refused in production mode; use a key of your own (openssl rand -base64 32)');
  }
  const file = env.MERCHANTS_FILE || (production ? undefined : sandboxMerchantsFile);
  return {
    merchantsImportFile: file ? path.resolve(file) : undefined,
    merchantsFileDeprecated: Boolean(env.MERCHANTS_FILE),
    secretsKeyring: keyring,
    merchantsSyncMaxLagMs: int('MERCHANTS_SYNC_MAX_LAG_MS', 1000, 100, 60_000),
    merchantsLastUsedFlushSeconds: int('MERCHANTS_LAST_USED_FLUSH_SECONDS', 60, 1, 3600),
    webhookEndpointsPerMerchant: int('WEBHOOK_ENDPOINTS_PER_MERCHANT', 16, 1, 100),
  };
}
