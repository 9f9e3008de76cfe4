import * as fs from 'node:fs';
import * as path from 'node:path';
import { SANDBOX_KEYRING } from './keyring-config';
import { SANDBOX_CHECKOUT_TOKEN_SECRET, loadConfig } from './app-config';

const PRODUCTION = {
  PAYSIGN_MODE: 'production',
  SECRETS_KEYRING: `k1:${Buffer.from('0123456789abcdef0123456789abcdef').toString('base64')}`,
  REDIS_URL: 'redis://10.0.0.5:6379',
  DATABASE_URL: 'postgres://paysign@10.0.0.6/paysign',
  ACCOUNT_NAME_PROVIDER: 'sandbox',
  PUBLIC_BASE_URL: 'https://pay.example.com',
  CHECKOUT_TOKEN_SECRET: 'c2VjcmV0LW9mLWF0LWxlYXN0LTMyLWNoYXJhY3RlcnM',
  METRICS_PORT: '9100',
};

describe('loadConfig', () => {
  it('has working defaults for `npm start`', () => {
    expect(loadConfig({})).toMatchObject({ port: 3000, mode: 'sandbox', redisUrl: undefined, databaseUrl: undefined, timestampToleranceSeconds: 300, nonceTtlSeconds: 600 });
  });

  it.each<[string, { env: Record<string, string>; want: string }]>([
    ['a port that is not a number', { env: { PORT: 'eighty' }, want: 'PORT must be a whole number from 0 to 65535, got "eighty"' }],
    ['an unknown mode', { env: { PAYSIGN_MODE: 'live' }, want: 'PAYSIGN_MODE must be "sandbox" or "production"' }],
    ['production without a keyring for the merchants\' secrets', { env: { ...PRODUCTION, SECRETS_KEYRING: '' }, want: 'SECRETS_KEYRING is required in production mode' }],
    ['production on the public sandbox keyring', { env: { ...PRODUCTION, SECRETS_KEYRING: SANDBOX_KEYRING }, want: 'SECRETS_KEYRING holds the public sandbox key, refused in production mode' }],
    ['a keyring key shorter than 256 bits', { env: { SECRETS_KEYRING: `k1:${Buffer.alloc(16, 7).toString('base64')}` }, want: 'SECRETS_KEYRING key "k1" must be the base64 of exactly 32 bytes (256 bits), got 128 bits' }],
    ['a merchants sync lag of a day', { env: { MERCHANTS_SYNC_MAX_LAG_MS: '86400000' }, want: 'MERCHANTS_SYNC_MAX_LAG_MS must be a whole number from 100 to 60000' }],
    ['production on in-memory nonces', { env: { ...PRODUCTION, REDIS_URL: '' }, want: 'REDIS_URL is required in production mode' }],
    ['production on the embedded database', { env: { ...PRODUCTION, DATABASE_URL: '' }, want: 'DATABASE_URL is required in production mode' }],
    ['a migration role without a database', { env: { DATABASE_MIGRATION_URL: 'postgres://owner@10.0.0.6/paysign' }, want: 'DATABASE_MIGRATION_URL is set but DATABASE_URL is not' }],
    ['a migration URL that is not PostgreSQL', { env: { DATABASE_URL: 'postgres://app@10.0.0.6/paysign', DATABASE_MIGRATION_URL: 'mysql://owner@10.0.0.6/paysign' }, want: 'DATABASE_MIGRATION_URL must start with postgres:// or postgresql://' }],
    ['production with no account-name provider named', { env: { ...PRODUCTION, ACCOUNT_NAME_PROVIDER: '' }, want: 'ACCOUNT_NAME_PROVIDER is required in production mode' }],
    ['production with an http public origin', { env: { ...PRODUCTION, PUBLIC_BASE_URL: 'http://pay.example.com' }, want: 'PUBLIC_BASE_URL must be an https origin in production mode, got "http://pay.example.com"' }],
    ['production without its public origin', { env: Object.fromEntries(Object.entries(PRODUCTION).filter(([name]) => name !== 'PUBLIC_BASE_URL')), want: 'PUBLIC_BASE_URL is required in production mode' }],
    ['production on the sandbox checkout secret', { env: { ...PRODUCTION, CHECKOUT_TOKEN_SECRET: SANDBOX_CHECKOUT_TOKEN_SECRET }, want: 'CHECKOUT_TOKEN_SECRET is required in production mode' }],
    ['production with a short checkout secret', { env: { ...PRODUCTION, CHECKOUT_TOKEN_SECRET: 'short' }, want: 'CHECKOUT_TOKEN_SECRET is required in production mode, at least 32' }],
    ['production with a checkout secret of 32 × a', { env: { ...PRODUCTION, CHECKOUT_TOKEN_SECRET: 'a'.repeat(32) }, want: 'CHECKOUT_TOKEN_SECRET is too predictable for production mode' }],
    ['a public base URL with a path', { env: { PUBLIC_BASE_URL: 'https://example.com/pay' }, want: 'PUBLIC_BASE_URL must be an origin only' }],
    ['an account-name provider that does not exist', { env: { ACCOUNT_NAME_PROVIDER: 'nibss' }, want: 'ACCOUNT_NAME_PROVIDER must be one of "sandbox", "paystack", got "nibss"' }],
    ['a head timeout longer than the request timeout', { env: { HEADERS_TIMEOUT_MS: '20000', REQUEST_TIMEOUT_MS: '15000' }, want: 'HEADERS_TIMEOUT_MS (20000) must not exceed REQUEST_TIMEOUT_MS (15000)' }],
    ['a burst below the sustained rate', { env: { RATE_LIMIT_PER_KEY_PER_SECOND: '100', RATE_LIMIT_PER_KEY_BURST: '50' }, want: 'RATE_LIMIT_PER_KEY_BURST (50) must be at least RATE_LIMIT_PER_KEY_PER_SECOND (100)' }],
    ['a body limit below 1 KiB', { env: { BODY_LIMIT_BYTES: '100' }, want: 'BODY_LIMIT_BYTES must be a whole number from 1024 to 10485760' }],
    ['a field cap below the largest operation', { env: { MAX_BODY_FIELDS: '5' }, want: 'MAX_BODY_FIELDS must be a whole number from 9 to 1000' }],
    ['a per-key nonce share larger than the store', { env: { NONCE_STORE_MAX_ENTRIES: '1000', NONCE_STORE_MAX_PER_KEY: '2000' }, want: 'NONCE_STORE_MAX_PER_KEY (2000) must not exceed NONCE_STORE_MAX_ENTRIES (1000)' }],
    ['a TRUST_PROXY that is not an address list', { env: { TRUST_PROXY: 'everyone' }, want: 'TRUST_PROXY must be true, false, a hop count, or a comma-separated list' }],
    ['a TRUST_PROXY hop count of 0', { env: { TRUST_PROXY: '0' }, want: 'TRUST_PROXY as a hop count must be from 1 to 10' }],
    ['a METRICS_TOKEN too short to be a secret', { env: { METRICS_TOKEN: 'short' }, want: 'METRICS_TOKEN must be at least 32 characters' }],
    ['a Redis URL of another scheme', { env: { REDIS_URL: 'http://127.0.0.1:6379' }, want: 'REDIS_URL must start with redis:// or rediss://' }],
    ['a nonce TTL shorter than the skew window', { env: { NONCE_TTL_SECONDS: '100' }, want: 'NONCE_TTL_SECONDS (100) must be at least twice TIMESTAMP_TOLERANCE_SECONDS (300)' }],
    ['a ledger check turned off', { env: { LEDGER_CHECK_INTERVAL_SECONDS: '0' }, want: 'LEDGER_CHECK_INTERVAL_SECONDS must be a whole number from 60 to 86400, got "0"' }],
    ['a runbook base URL with a fragment', { env: { RUNBOOK_BASE_URL: 'https://wiki.example.com/runbooks#top' }, want: 'RUNBOOK_BASE_URL must be a page without a query or fragment' }],
    ['a runbook base URL with a query', { env: { RUNBOOK_BASE_URL: 'https://wiki.example.com/page?id=7' }, want: 'RUNBOOK_BASE_URL must be a page without a query or fragment' }],
    ['a runbook base URL with a password', { env: { RUNBOOK_BASE_URL: 'https://ops:hunter2@wiki.example.com/runbooks' }, want: 'RUNBOOK_BASE_URL must not hold a user or password' }],
    ['production with an http runbook base URL', { env: { ...PRODUCTION, RUNBOOK_BASE_URL: 'http://wiki.example.com/runbooks' }, want: 'RUNBOOK_BASE_URL must be https in production mode' }],
  ])('refuses %s with a clear message', (_name, { env, want }) => {
    expect(() => loadConfig(env)).toThrow(want);
  });

  it('takes a checkout secret of 32 × a in sandbox mode, whose secrets are public anyway', () => {
    expect(loadConfig({ CHECKOUT_TOKEN_SECRET: 'a'.repeat(32) }).checkoutTokenSecret).toBe('a'.repeat(32));
  });

  it('never quotes the refused checkout secret', () => {
    const weak = 'weak-secret-'.repeat(3);
    expect(() => loadConfig({ ...PRODUCTION, CHECKOUT_TOKEN_SECRET: weak })).toThrow(/CHECKOUT_TOKEN_SECRET is too predictable/);
    expect(() => loadConfig({ ...PRODUCTION, CHECKOUT_TOKEN_SECRET: weak })).not.toThrow(weak);
  });

  it('refuses production with the metrics on the service port and no token', () => {
    const { METRICS_PORT: _port, ...onServicePort } = PRODUCTION;
    expect(() => loadConfig(onServicePort)).toThrow('METRICS_PORT or METRICS_TOKEN must be set in production mode');
    expect(loadConfig({ ...onServicePort, METRICS_TOKEN: 'c2VjcmV0LW1ldHJpY3MtdG9rZW4tMzItY2hhcnM' }).metricsToken).toBeDefined();
    expect(loadConfig({ ...onServicePort, METRICS_ENABLED: 'false' }).metricsEnabled).toBe(false);
  });

  it('never quotes a refused runbook base URL, which may hold a secret', () => {
    expect(() => loadConfig({ RUNBOOK_BASE_URL: 'https://ops:hunter2@wiki.example.com/runbooks' })).not.toThrow('hunter2');
    expect(() => loadConfig({ RUNBOOK_BASE_URL: 'https://wiki.example.com/page?token=hunter2' })).not.toThrow('hunter2');
  });

  it('takes a runbook base URL without its trailing slash, and leaves it unset by default for the service to build on its origin', () => {
    expect(loadConfig({ RUNBOOK_BASE_URL: 'https://wiki.example.com/paysign/runbooks/' }).runbookBaseUrl).toBe('https://wiki.example.com/paysign/runbooks');
    expect(loadConfig({}).runbookBaseUrl).toBeUndefined();
    expect(loadConfig({}).ledgerCheckIntervalSeconds).toBe(3600);
  });

  it('trusts one proxy hop for TRUST_PROXY=true, never every hop', () => {
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1' }).trustProxy).toBe('10.0.0.0/8, 127.0.0.1');
  });

  it('accepts a complete production configuration', () => {
    expect(loadConfig(PRODUCTION)).toMatchObject({ mode: 'production', accountNameProvider: 'sandbox', bodyLimitBytes: 65_536, maxBodyFields: 32, requestTimeoutMs: 15_000 });
  });

  describe('the upstream provider', () => {
    const LIVE_KEY = 'sk_live_0123456789abcdef0123456789abcdef01234567';
    const ALL_PAYSTACK = { ACCOUNT_NAME_PROVIDER: 'paystack', PAYMENT_GATEWAY: 'paystack', PAYOUT_PROVIDER: 'paystack' };

    it('selects Paystack for each seam, on the public API unless told otherwise', () => {
      expect(loadConfig({ ...PRODUCTION, ...ALL_PAYSTACK, PAYSTACK_SECRET_KEY: LIVE_KEY })).toMatchObject({
        accountNameProvider: 'paystack',
        paymentGateway: 'paystack',
        payouts: { provider: 'paystack' },
        paystack: { secretKey: LIVE_KEY, baseUrl: 'https://api.paystack.co' },
        providerTimeoutMs: 15_000,
        providerRetries: 2,
        providerCircuit: { failures: 5, openSeconds: 30, windowSeconds: 60, sources: 2, enquiryBanks: 2 },
      });
      expect(loadConfig({ PAYOUT_PROVIDER: 'paystack', PAYSTACK_SECRET_KEY: 'sk_test_abcdef0123456789', PAYSTACK_BASE_URL: 'http://127.0.0.1:4010/' }).paystack).toEqual({
        secretKey: 'sk_test_abcdef0123456789',
        baseUrl: 'http://127.0.0.1:4010',
      });
    });

    it('builds no client without a key when no seam selects Paystack, and keeps one set after another provider is selected, for what is still in flight there', () => {
      expect(loadConfig({}).paystack).toBeUndefined();
      expect(loadConfig(PRODUCTION)).toMatchObject({ paymentGateway: 'none', payouts: { provider: 'none' }, paystack: undefined });
      expect(loadConfig({ PAYSTACK_SECRET_KEY: 'sk_test_abcdef0123456789' })).toMatchObject({ paymentGateway: 'sandbox', paystack: { secretKey: 'sk_test_abcdef0123456789' } });
      // Only a key of this mode's kind: a sandbox sharing production's Secret never takes its live key.
      expect(loadConfig({ PAYSTACK_SECRET_KEY: LIVE_KEY }).paystack).toBeUndefined();
      expect(loadConfig({ ...PRODUCTION, PAYSTACK_SECRET_KEY: LIVE_KEY }).paystack).toMatchObject({ secretKey: LIVE_KEY });
    });

    it('takes RETIRED_PROVIDERS as provider ids, and refuses one that a seam still selects', () => {
      expect(loadConfig({ RETIRED_PROVIDERS: 'paystack, old-bank' }).retiredProviders).toEqual(['paystack', 'old-bank']);
      expect(loadConfig({}).retiredProviders).toEqual([]);
      expect(() => loadConfig({ RETIRED_PROVIDERS: 'Paystack!' })).toThrow('RETIRED_PROVIDERS must be provider ids separated by commas, such as "paystack", got "Paystack!"');
      expect(() => loadConfig({ RETIRED_PROVIDERS: 'sandbox' })).toThrow('PAYMENT_GATEWAY selects "sandbox", which RETIRED_PROVIDERS names as gone for good');
    });

    it.each<[string, Record<string, string>, string]>([
      ['a provider selected with no key', { ...ALL_PAYSTACK }, 'PAYSTACK_SECRET_KEY is required when ACCOUNT_NAME_PROVIDER, PAYMENT_GATEWAY or PAYOUT_PROVIDER is "paystack"'],
      ['a test key in production', { ...ALL_PAYSTACK, PAYSTACK_SECRET_KEY: 'sk_test_abcdef0123456789' }, 'PAYSTACK_SECRET_KEY is a test key (sk_test_), refused in production mode'],
      ['a public key', { PAYOUT_PROVIDER: 'paystack', PAYSTACK_SECRET_KEY: 'pk_live_abcdef0123456789' }, 'PAYSTACK_SECRET_KEY must be a Paystack secret key'],
      ['the sandbox gateway in production', { PAYMENT_GATEWAY: 'sandbox' }, 'PAYMENT_GATEWAY must not be "sandbox" in production mode'],
      ['the sandbox payout provider in production', { PAYOUT_PROVIDER: 'sandbox' }, 'PAYOUT_PROVIDER must not be "sandbox" in production mode'],
      ['a gateway that does not exist', { PAYMENT_GATEWAY: 'flutterwave' }, 'PAYMENT_GATEWAY must be one of "sandbox", "paystack", "none", got "flutterwave"'],
      ['the API over plain http to another host', { ...ALL_PAYSTACK, PAYSTACK_SECRET_KEY: LIVE_KEY, PAYSTACK_BASE_URL: 'http://api.paystack.co' }, 'PAYSTACK_BASE_URL must be https'],
    ])('refuses %s, naming it', (_case, env, want) => {
      expect(() => loadConfig({ ...PRODUCTION, ...env })).toThrow(want);
    });

    it('refuses a live key in sandbox mode, where simulations could report payments that never happened', () => {
      expect(() => loadConfig({ PAYMENT_GATEWAY: 'paystack', PAYSTACK_SECRET_KEY: LIVE_KEY })).toThrow('PAYSTACK_SECRET_KEY is a live key (sk_live_), refused in sandbox mode');
    });

    it('never echoes the key in a refusal', () => {
      const key = 'sk_test_thisisasecretvalue123456';
      expect(() => loadConfig({ ...PRODUCTION, PAYOUT_PROVIDER: 'paystack', PAYSTACK_SECRET_KEY: key })).toThrow(expect.objectContaining({ message: expect.not.stringContaining(key) }));
    });
  });

  it('gives every limit a safe default', () => {
    expect(loadConfig({})).toMatchObject({
      rateLimits: { perKeyPerSecond: 100, perKeyBurst: 200, enquiryPerKeyPerMinute: 300, refusedPerAddressPerMinute: 60, publicPerAddressPerMinute: 600, docsAssetsPerAddressPerMinute: 30, blockedAnswerDelayMs: 1000 },
      nonceStoreMaxEntries: 6_000_000,
      nonceStoreMaxPerKey: 120_000,
      shutdownGraceMs: 10_000,
      trustProxy: false,
    });
  });

  it.each<[string, { env: Record<string, string>; want: { databaseUrl?: string; databaseMigrationUrl?: string } }]>([
    ['the embedded database', { env: {}, want: { databaseUrl: undefined, databaseMigrationUrl: undefined } }],
    ['one role for both', { env: { DATABASE_URL: 'postgres://paysign@10.0.0.6/paysign' }, want: { databaseUrl: 'postgres://paysign@10.0.0.6/paysign', databaseMigrationUrl: 'postgres://paysign@10.0.0.6/paysign' } }],
    [
      'requests through a pooler, migrations direct as the owner',
      { env: { DATABASE_URL: 'postgres://app@pgbouncer:6432/paysign', DATABASE_MIGRATION_URL: 'postgres://owner@10.0.0.6/paysign' }, want: { databaseUrl: 'postgres://app@pgbouncer:6432/paysign', databaseMigrationUrl: 'postgres://owner@10.0.0.6/paysign' } },
    ],
  ])('migrates on DATABASE_MIGRATION_URL, DATABASE_URL when it is unset: %s', (_name, { env, want }) => {
    expect(loadConfig(env)).toMatchObject(want);
  });

  it('reports every problem at once', () => {
    expect(() => loadConfig({ PORT: 'x', LOG_LEVEL: 'loud' })).toThrow(/LOG_LEVEL[\s\S]*PORT/);
  });
});

describe("the README's configuration table", () => {
  const readme = fs.readFileSync(path.resolve(__dirname, '../../../../README.md'), 'utf8');
  // Every section of the configuration, each in its own file.
  const source = fs
    .readdirSync(__dirname)
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.spec.ts'))
    .map((file) => fs.readFileSync(path.join(__dirname, file), 'utf8'))
    .join('\n');

  it('lists exactly the variables the service reads', () => {
    const read = new Set([...source.matchAll(/(?:int|bool|url)\('([A-Z][A-Z0-9_]+)'|env\.([A-Z][A-Z0-9_]+)/g)].map((m) => (m[1] ?? m[2]) as string));
    const documented = new Set([...readme.matchAll(/^\| `([A-Z][A-Z0-9_]+)` \|/gm)].map((m) => m[1] as string));
    expect([...documented].sort()).toEqual([...read].sort());
  });

  it.each<[string, string]>([
    ['BODY_LIMIT_BYTES', String(loadConfig({}).bodyLimitBytes)],
    ['REQUEST_TIMEOUT_MS', String(loadConfig({}).requestTimeoutMs)],
    ['RATE_LIMIT_PER_KEY_PER_SECOND', String(loadConfig({}).rateLimits.perKeyPerSecond)],
    ['SHUTDOWN_DRAIN_MS', String(loadConfig({}).shutdownDrainMs)],
    ['LEDGER_CHECK_INTERVAL_SECONDS', String(loadConfig({}).ledgerCheckIntervalSeconds)],
    ['LEDGER_CHECK_STATEMENT_TIMEOUT_MS', String(loadConfig({}).ledgerCheckStatementTimeoutMs)],
    ['NONCE_STORE_MAX_PER_KEY', String(loadConfig({}).nonceStoreMaxPerKey)],
  ])('gives the default of %s as the code has it', (name, value) => {
    expect(readme).toContain(`| \`${name}\` | \`${value}\` |`);
  });
});
