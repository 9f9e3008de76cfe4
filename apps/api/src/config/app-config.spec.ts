import { loadConfig } from './app-config';

describe('loadConfig', () => {
  it('has working defaults for `npm start`', () => {
    expect(loadConfig({})).toMatchObject({ port: 3000, mode: 'sandbox', redisUrl: undefined, databaseUrl: undefined, timestampToleranceSeconds: 300, nonceTtlSeconds: 600 });
  });

  it.each<[string, { env: Record<string, string>; want: string }]>([
    ['a port that is not a number', { env: { PORT: 'eighty' }, want: 'PORT must be a whole number from 0 to 65535, got "eighty"' }],
    ['an unknown mode', { env: { PAYSIGN_MODE: 'live' }, want: 'PAYSIGN_MODE must be "sandbox" or "production"' }],
    ['production on the sandbox merchants', { env: { PAYSIGN_MODE: 'production' }, want: 'MERCHANTS_FILE is required in production mode' }],
    ['a Redis URL of another scheme', { env: { REDIS_URL: 'http://127.0.0.1:6379' }, want: 'REDIS_URL must start with redis:// or rediss://' }],
    ['a nonce TTL shorter than the skew window', { env: { NONCE_TTL_SECONDS: '100' }, want: 'NONCE_TTL_SECONDS (100) must be at least twice TIMESTAMP_TOLERANCE_SECONDS (300)' }],
  ])('refuses %s with a clear message', (_name, { env, want }) => {
    expect(() => loadConfig(env)).toThrow(want);
  });

  it('reports every problem at once', () => {
    expect(() => loadConfig({ PORT: 'x', LOG_LEVEL: 'loud' })).toThrow(/LOG_LEVEL[\s\S]*PORT/);
  });
});
