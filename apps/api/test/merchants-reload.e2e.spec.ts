// Merchant changes without a restart: the merchants file is reloaded when it
// changes and on SIGHUP; an invalid file is refused and the old one stays.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { signedCall } from './support/api-client';
import { startBuiltService } from './support/built-service';
import { MERCHANT_A, MERCHANT_A_ROTATED, MERCHANT_B, TEST_MERCHANTS_FILE } from './support/credentials';
import { startTestApp, type TestApp } from './support/test-app';

const BANKS = '/payment/merchant-api/banks';

interface MerchantEntry {
  merchantId: string;
  credentials: Array<{ apiKey: string; secretKey: string; status?: string }>;
}

/** A private copy of the test merchants file, and a way to rewrite it. */
function merchantsFileCopy() {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'merchants-reload-')), 'merchants.json');
  fs.copyFileSync(TEST_MERCHANTS_FILE, file);
  const read = () => JSON.parse(fs.readFileSync(file, 'utf8')) as MerchantEntry[];
  const write = (entries: unknown) => fs.writeFileSync(file, typeof entries === 'string' ? entries : JSON.stringify(entries, null, 2));
  const revoke = (apiKey: string) => write(read().map((m) => ({ ...m, credentials: m.credentials.map((c) => (c.apiKey === apiKey ? { ...c, status: 'revoked' } : c)) })));
  return { file, read, write, revoke };
}

async function until(condition: () => Promise<boolean>, timeoutMs = 5000): Promise<boolean> {
  for (const deadline = Date.now() + timeoutMs; Date.now() < deadline; await new Promise((r) => setTimeout(r, 100))) if (await condition()) return true;
  return false;
}

const statusOf = async (api: { baseUrl: string }, credential = MERCHANT_A_ROTATED) => (await signedCall(api.baseUrl, { path: BANKS, credential })).status;

describe('merchants file changes on disk', () => {
  const merchants = merchantsFileCopy();
  let apps: TestApp[];
  beforeAll(async () => {
    const env = { MERCHANTS_FILE: merchants.file, MERCHANTS_WATCH_INTERVAL_MS: '100' };
    apps = [await startTestApp(env), await startTestApp(env)];
  });
  afterAll(() => Promise.all(apps.map((a) => a.close())));

  it('refuses a revoked key on two instances sharing one file, without a restart, and logs what changed', async () => {
    for (const api of apps) expect(await statusOf(api)).toBe(200);
    merchants.revoke(MERCHANT_A_ROTATED.apiKey);
    for (const api of apps) {
      expect(await until(async () => (await statusOf(api)) === 401)).toBe(true);
      expect((await signedCall(api.baseUrl, { path: BANKS, credential: MERCHANT_A_ROTATED })).json.code).toBe('AUTH_UNKNOWN_API_KEY');
      expect(await statusOf(api, MERCHANT_A)).toBe(200);
      expect(api.logs).toContainEqual(expect.objectContaining({ msg: 'merchants file reloaded', reason: 'file changed', keysRevoked: [MERCHANT_A_ROTATED.apiKey], keysAdded: [], merchantsRemoved: [] }));
    }
    expect(JSON.stringify(apps.map((a) => a.logs))).not.toContain(MERCHANT_A_ROTATED.secretKey);
  });

  it('refuses an invalid file with an error line and a count of the refusal, and keeps the merchants in force', async () => {
    merchants.write(merchants.read().map((m) => ({ ...m, merchantId: 'MCH-A' })));
    for (const api of apps) {
      expect(await until(async () => api.logs.some((l) => l.msg === 'merchants file refused: the merchants already in force stay in force'))).toBe(true);
      expect(api.logs.find((l) => l.level === 50 && String(l.msg).startsWith('merchants file refused'))).toMatchObject({ failure: 'invalid', err: expect.stringContaining('appears twice') });
      expect(await statusOf(api, MERCHANT_B)).toBe(200);
      const metrics = await (await fetch(`${api.baseUrl}/payment/metrics`)).text();
      expect(Number(/^paysign_merchants_reload_failures_total\{reason="invalid"\} (\d+)$/m.exec(metrics)?.[1])).toBeGreaterThanOrEqual(1);
    }
  });
});

describe('SIGHUP to the built service', () => {
  it('reloads the merchants file, refusing an invalid one and applying a valid one', async () => {
    const merchants = merchantsFileCopy();
    const service = await startBuiltService({ MERCHANTS_FILE: merchants.file, MERCHANTS_WATCH_INTERVAL_MS: '0' });
    try {
      merchants.write('{ this is not JSON');
      service.child.kill('SIGHUP');
      expect(await until(async () => service.logs().some((l) => l.msg === 'merchants file refused: the merchants already in force stay in force'))).toBe(true);
      expect(await statusOf(service)).toBe(200);

      const entries = JSON.parse(fs.readFileSync(TEST_MERCHANTS_FILE, 'utf8')) as MerchantEntry[];
      merchants.write(entries.map((m) => ({ ...m, credentials: m.credentials.map((c) => (c.apiKey === MERCHANT_A_ROTATED.apiKey ? { ...c, status: 'revoked' } : c)) })));
      service.child.kill('SIGHUP');
      expect(await until(async () => (await statusOf(service)) === 401)).toBe(true);
      // The line reaches this process's pipe a moment after the reload itself.
      expect(await until(async () => service.logs().some((l) => l.msg === 'merchants file reloaded'))).toBe(true);
      expect(service.logs()).toContainEqual(expect.objectContaining({ msg: 'merchants file reloaded', reason: 'SIGHUP', keysRevoked: [MERCHANT_A_ROTATED.apiKey] }));
      expect(service.child.exitCode).toBeNull();
    } finally {
      service.child.kill('SIGTERM');
      await service.exited;
      await service.dispose();
    }
  });
});
