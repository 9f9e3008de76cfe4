import * as path from 'node:path';
import { envValues, type Env } from './env-values';
import type { ServiceMode } from './service-mode';

export interface MerchantsSettings {
  merchantsFile: string;
  /** How often MERCHANTS_FILE is checked for changes; 0: only on SIGHUP. */
  merchantsWatchIntervalMs: number;
}

/** MERCHANTS_FILE, the sandbox merchants by default; production names its own. */
export function readMerchants(env: Env, mode: ServiceMode, problems: string[], { sandboxMerchantsFile }: { sandboxMerchantsFile: string }): MerchantsSettings {
  const { int } = envValues(env, problems);
  if (mode === 'production' && !env.MERCHANTS_FILE) problems.push('MERCHANTS_FILE is required in production mode: the default file holds only the public sandbox merchant');
  return {
    merchantsFile: path.resolve(env.MERCHANTS_FILE || sandboxMerchantsFile),
    merchantsWatchIntervalMs: int('MERCHANTS_WATCH_INTERVAL_MS', 2000, 0, 3_600_000),
  };
}
