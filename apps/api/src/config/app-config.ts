import * as path from 'node:path';
import { NONCE_TTL_SECONDS, TIMESTAMP_TOLERANCE_SECONDS } from '@paysign/signing';

export type ServiceMode = 'sandbox' | 'production';

/** Everything the service reads from its environment, validated at boot. */
export interface AppConfig {
  port: number;
  host: string;
  mode: ServiceMode;
  merchantsFile: string;
  /** Nonce store and enquiry cache in Redis when set; in memory otherwise. */
  redisUrl: string | undefined;
  /** Payins in PostgreSQL when set; embedded on disk under dataDir otherwise. */
  databaseUrl: string | undefined;
  dataDir: string;
  timestampToleranceSeconds: number;
  nonceTtlSeconds: number;
  enquiryCacheTtlSeconds: number;
  enquiryTimeoutMs: number;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** The OpenAPI contract served at /payment/openapi.yaml. */
  contractPath: string;
}

/** Where the files the service ships with are; they differ between the sources and the bundle. */
export interface InstallPaths {
  sandboxMerchantsFile: string;
  contractPath: string;
}

/** The documented sandbox merchant file that `npm start` uses by default. */
export const SANDBOX_MERCHANTS_FILE = path.resolve(__dirname, '../../config/merchants.sandbox.json');

/** The paths when running from the sources (tests). */
export const SOURCE_PATHS: InstallPaths = {
  sandboxMerchantsFile: SANDBOX_MERCHANTS_FILE,
  contractPath: path.resolve(__dirname, '../../../../openapi/payment-api.yaml'),
};


export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/** Reads and validates the configuration; every problem is reported at once. */
export function loadConfig(env: Readonly<Record<string, string | undefined>>, paths: InstallPaths = SOURCE_PATHS): AppConfig {
  const problems: string[] = [];
  const int = (name: string, fallback: number, min: number, max: number): number => {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallback;
    if (!/^[0-9]+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
      problems.push(`${name} must be a whole number from ${min} to ${max}, got "${raw}"`);
      return fallback;
    }
    return Number(raw);
  };
  const url = (name: string, protocols: string[]): string | undefined => {
    const raw = env[name];
    if (raw === undefined || raw === '') return undefined;
    try {
      const parsed = new URL(raw);
      if (!protocols.includes(parsed.protocol)) problems.push(`${name} must start with ${protocols.map((p) => `${p}//`).join(' or ')}`);
    } catch {
      problems.push(`${name} is not a URL`);
    }
    return raw;
  };

  const mode = (env.PAYSIGN_MODE ?? 'sandbox') as ServiceMode;
  if (mode !== 'sandbox' && mode !== 'production') problems.push(`PAYSIGN_MODE must be "sandbox" or "production", got "${env.PAYSIGN_MODE}"`);
  if (mode === 'production' && !env.MERCHANTS_FILE) problems.push('MERCHANTS_FILE is required in production mode: the default file holds only the public sandbox merchant');
  const logLevel = (env.LOG_LEVEL ?? 'info') as AppConfig['logLevel'];
  if (!['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].includes(logLevel)) problems.push(`LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got "${logLevel}"`);

  const config: AppConfig = {
    port: int('PORT', 3000, 0, 65535),
    host: env.HOST || '127.0.0.1',
    mode,
    merchantsFile: path.resolve(env.MERCHANTS_FILE || paths.sandboxMerchantsFile),
    redisUrl: url('REDIS_URL', ['redis:', 'rediss:']),
    databaseUrl: url('DATABASE_URL', ['postgres:', 'postgresql:']),
    dataDir: path.resolve(env.DATA_DIR || './data'),
    timestampToleranceSeconds: int('TIMESTAMP_TOLERANCE_SECONDS', TIMESTAMP_TOLERANCE_SECONDS, 1, 3600),
    nonceTtlSeconds: int('NONCE_TTL_SECONDS', NONCE_TTL_SECONDS, 1, 86400),
    enquiryCacheTtlSeconds: int('ENQUIRY_CACHE_TTL_SECONDS', 300, 0, 86400),
    enquiryTimeoutMs: int('ENQUIRY_TIMEOUT_MS', 5000, 1, 60000),
    logLevel,
    contractPath: paths.contractPath,
  };
  if (config.nonceTtlSeconds < 2 * config.timestampToleranceSeconds) {
    problems.push(
      `NONCE_TTL_SECONDS (${config.nonceTtlSeconds}) must be at least twice TIMESTAMP_TOLERANCE_SECONDS (${config.timestampToleranceSeconds}), or a request could be replayed after its nonce expires but while its timestamp is still accepted`,
    );
  }
  if (problems.length > 0) throw new ConfigError(`Invalid configuration:\n- ${problems.join('\n- ')}`);
  return config;
}
