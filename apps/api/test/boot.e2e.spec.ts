// Boot failures of the built service: one JSON line on stderr naming what to
// fix, then exit code 1.
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { TEST_MERCHANTS_FILE } from './support/credentials';
import { freePort } from './support/private-redis';

const MAIN = path.resolve(__dirname, '../dist/main.js');

function boot(env: Record<string, string>) {
  const result = spawnSync(process.execPath, [MAIN], { env: { PATH: process.env.PATH, MERCHANTS_FILE: TEST_MERCHANTS_FILE, ...env }, encoding: 'utf8', timeout: 30_000 });
  const lines = result.stderr.split('\n').filter((line) => line.startsWith('{'));
  return { status: result.status, lines: lines.map((line) => JSON.parse(line) as Record<string, unknown>), stderr: result.stderr };
}

describe('a service that cannot start', () => {
  it.each<[string, () => Promise<Record<string, string>>, RegExp]>([
    ['an invalid setting', async () => ({ PORT: 'eighty', RATE_LIMIT_PER_KEY_BURST: 'lots' }), /PORT must be a whole number[\s\S]*RATE_LIMIT_PER_KEY_BURST must be a whole number/],
    ['production without its stores', async () => ({ PAYSIGN_MODE: 'production' }), /REDIS_URL is required in production mode[\s\S]*DATABASE_URL is required/],
    ['an unreachable Redis', async () => ({ PORT: String(await freePort()), REDIS_URL: `redis://127.0.0.1:${await freePort()}` }), /REDIS_URL redis:\/\/127\.0\.0\.1:\d+\/? cannot be reached/],
  ])('says so in one JSON line on stderr, naming the variable, for %s', async (_name, env, want) => {
    const { status, lines, stderr } = boot(await env());
    expect(status).toBe(1);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 60, msg: expect.stringMatching(want) });
    expect(stderr.trim().split('\n')).toHaveLength(1);
  });
});
