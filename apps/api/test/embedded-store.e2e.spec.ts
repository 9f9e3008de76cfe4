// The embedded database takes one process at a time, and refuses a data directory that lost writes it had
// acknowledged: the built service, started and stopped on one DATA_DIR.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { signedCall } from './support/api-client';
import { startBuiltService, type BuiltService } from './support/built-service';
import { MERCHANT_A, TEST_MERCHANTS_FILE } from './support/credentials';
import { freePort } from './support/private-redis';

const MAIN = path.resolve(__dirname, '../dist/main.js');

/** `node main.js [command]` on `dataDir`, to its end: what a second instance, or the ledger check, meets. */
async function runMain(dataDir: string, command: string[] = []) {
  const env = { PATH: process.env.PATH, MERCHANTS_FILE: TEST_MERCHANTS_FILE, DATA_DIR: dataDir, DATABASE_URL: '', REDIS_URL: '', PORT: String(await freePort()) };
  return spawnSync(process.execPath, [MAIN, ...command], { env, encoding: 'utf8', timeout: 90_000 });
}

describe('the embedded database in DATA_DIR', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'embedded-store-'));
  const services: BuiltService[] = [];
  const start = async () => {
    const service = await startBuiltService({}, { dataDir });
    services.push(service);
    return service;
  };
  const payin = (service: BuiltService, reference: string) =>
    signedCall(service.baseUrl, { path: '/payment/api/payins', credential: MERCHANT_A, body: JSON.stringify({ amount: 100, currency: 'NGN', customerEmail: 'ada@example.com', reference }) });
  afterAll(async () => {
    for (const service of services) await service.dispose();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('takes one process at a time, takes over the lock of one killed, and refuses a directory that lost acknowledged writes', async () => {
    const first = await start();
    expect((await payin(first, 'kept-1')).status).toBe(201);
    expect(await first.stop()).toBe(0);
    // A copy of the database as it was then: put back later in place of the newer one, as a careless restore would.
    const older = fs.mkdtempSync(path.join(os.tmpdir(), 'embedded-store-older-'));
    fs.cpSync(path.join(dataDir, 'payins.pglite'), path.join(older, 'payins.pglite'), { recursive: true });

    const second = await start();
    const beside = await runMain(dataDir);
    expect(beside.status).toBe(1);
    expect(beside.stderr).toContain(`DATA_DIR ${dataDir} is in use by process ${second.child.pid}`);
    expect((await payin(second, 'kept-2')).status).toBe(201);
    // Killed: its lock stays behind, and its position is not recorded; neither stops the next start.
    second.child.kill('SIGKILL');
    await second.exited;

    const third = await start();
    expect((await signedCall(third.baseUrl, { path: '/payment/api/payins/kept-2', credential: MERCHANT_A })).status).toBe(200);
    expect(await third.stop()).toBe(0);

    fs.rmSync(path.join(dataDir, 'payins.pglite'), { recursive: true, force: true });
    fs.cpSync(path.join(older, 'payins.pglite'), path.join(dataDir, 'payins.pglite'), { recursive: true });
    fs.rmSync(older, { recursive: true, force: true });
    const behind = await runMain(dataDir);
    expect(behind.status).toBe(1);
    expect(behind.stderr).toContain('is behind the position it recorded at its last close');
    const check = await runMain(dataDir, ['ledger-check']);
    expect(check.status).not.toBe(0);
    expect(check.stdout + check.stderr).toContain('writes it acknowledged are missing');
  }, 240_000);
});
