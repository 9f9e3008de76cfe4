import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import pino from 'pino';
import { createApp, type CreateAppOptions } from '../../src/app.factory';
import { loadConfig, type AppConfig } from '../../src/config/app-config';
import { TEST_MERCHANTS_FILE, TEST_SECRETS_KEYRING } from './credentials';
import { DATABASE_URL, REDIS_URL, createPrivateDatabase, reachable } from './stores';
import { openPgliteFromTemplate } from './pglite-template';

export interface TestApp {
  app: NestFastifyApplication;
  baseUrl: string;
  config: AppConfig;
  /** Every log line the app wrote, parsed. */
  logs: Array<Record<string, unknown>>;
  close(): Promise<void>;
}

/**
 * Starts the real app on a free loopback port. Unless the env or the
 * overrides name its payin store, payins live in a PostgreSQL database of its
 * own on the shared server, created for it and dropped when it closes: a
 * database is created in about a tenth of the time PGlite takes to open, even
 * from a template. The suites about the embedded store use
 * `startEmbeddedTestApp`; a suite about its durability passes DATA_DIR to get
 * the real on-disk one. Where PostgreSQL is unreachable, a developer's
 * machine falls back to the embedded store, and CI fails.
 */
export async function startTestApp(env: Record<string, string | undefined> = {}, options: CreateAppOptions = {}): Promise<TestApp> {
  const storeChosen = Boolean(env.DATABASE_URL || env.DATA_DIR || options.overrides?.payinStore);
  if (!storeChosen && !postgresForTestApps()) return startEmbeddedTestApp(env, options);
  const database = storeChosen ? undefined : await createPrivateDatabase('paysign_app');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'payment-api-'));
  const dropStores = async () => {
    await database?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  const config = configFor({
    MERCHANTS_FILE: TEST_MERCHANTS_FILE,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'info',
    ENQUIRY_TIMEOUT_MS: '300',
    // Every suite calls from 127.0.0.1, and its refusals are counted in Redis across suites: only the suite about this limit sets it low.
    RATE_LIMIT_REFUSED_PER_ADDRESS_PER_MINUTE: '1000000',
    ...env,
    ...(database ? { DATABASE_URL: database.url } : {}),
  }, dropStores);
  const logs: Array<Record<string, unknown>> = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => void logs.push(JSON.parse(line) as Record<string, unknown>) });
  const app = await createApp(config, { logger, ...options }).catch(async (error: unknown) => {
    await dropStores();
    throw error;
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.getHttpServer().address() as { port: number };
  return {
    app,
    baseUrl: `http://127.0.0.1:${address.port}`,
    config,
    logs,
    close: async () => {
      await app.close();
      await dropStores();
    },
  };
}

/** Starts the real app on a private in-memory PGlite, copied from a migrated template: for the suites about the embedded store. */
export async function startEmbeddedTestApp(env: Record<string, string | undefined> = {}, options: CreateAppOptions = {}): Promise<TestApp> {
  return startTestApp(env, { ...options, overrides: { ...options.overrides, payinStore: await openPgliteFromTemplate() } });
}

/** The config of `env`; when it is invalid, the stores made for the app are dropped before the error goes on (synchronously thrown, as a test expects). */
function configFor(env: Record<string, string | undefined>, dropStores: () => Promise<void>): AppConfig {
  try {
    return loadConfig(env);
  } catch (error) {
    void dropStores();
    throw error;
  }
}

let postgresReachable: boolean | undefined;

/** Whether test apps get PostgreSQL databases: when it is reachable. Under CI=true it must be, since a store test never skips there. */
function postgresForTestApps(): boolean {
  postgresReachable ??= reachable(DATABASE_URL);
  if (!postgresReachable && process.env.CI === 'true') throw new Error(`PostgreSQL is unreachable at ${DATABASE_URL}; under CI=true test apps need it. Start PostgreSQL or set DATABASE_URL.`);
  if (!postgresReachable) console.warn(`PostgreSQL is unreachable at ${DATABASE_URL}: test apps run on the embedded store, which is slower to open.`);
  return postgresReachable;
}

/** What production requires besides its stores, as an operator would set it. */
export const PRODUCTION_SETTINGS = {
  ACCOUNT_NAME_PROVIDER: 'sandbox',
  METRICS_TOKEN: 'dGVzdC1tZXRyaWNzLXRva2VuLW5vdC1hLXJlYWwtb25lLTAxMjM0NQ',
  PUBLIC_BASE_URL: 'https://pay.example.com',
  CHECKOUT_TOKEN_SECRET: 'test-checkout-token-secret-0123456789abcdef',
  SECRETS_KEYRING: TEST_SECRETS_KEYRING,
};

/**
 * Starts the app in production mode, which requires Redis and PostgreSQL: on
 * the shared Redis (its keys are scoped by API key and nonce) and a database
 * of its own, dropped on close.
 */
export async function startProductionTestApp(env: Record<string, string | undefined> = {}, options: CreateAppOptions = {}): Promise<TestApp> {
  const database = await createPrivateDatabase('paysign_prod');
  try {
    const api = await startTestApp({ PAYSIGN_MODE: 'production', REDIS_URL, DATABASE_URL: database.url, ...PRODUCTION_SETTINGS, ...env }, options);
    return {
      ...api,
      close: async () => {
        await api.close();
        await database.drop();
      },
    };
  } catch (error) {
    await database.drop();
    throw error;
  }
}

/**
 * Starts test apps each on a PostgreSQL database of its own; `dropAll` drops
 * them. Call it from an `afterAll` declared after the suite's, since jest runs
 * afterAll hooks in the order they are declared: apps close first.
 */
export function appsOnPrivateDatabases(): { start: (env?: Record<string, string>, options?: CreateAppOptions) => Promise<TestApp>; database: () => Promise<string>; dropAll: () => Promise<void> } {
  const databases: Array<{ drop: () => Promise<void> }> = [];
  const database = async () => {
    const created = await createPrivateDatabase();
    databases.push(created);
    return created.url;
  };
  return {
    database,
    start: async (env = {}, options = {}) => startTestApp({ DATABASE_URL: await database(), ...env }, options),
    dropAll: async () => {
      for (const created of databases.splice(0)) await created.drop();
    },
  };
}
