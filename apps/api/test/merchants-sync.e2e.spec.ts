// Merchants in the database, shared by every instance: a change made by the
// operator's command on one instance's database is in force on every
// instance within MERCHANTS_SYNC_MAX_LAG_MS, announced by NOTIFY and, when an
// announcement is lost, found by the version check.
import { runMerchantsCommand } from '../src/merchants/merchants-command';
import { MerchantsSync } from '../src/merchants/merchants-sync';
import { openPostgres } from '../src/db/sql-clients';
import { SCHEMA } from '../src/schema';
import { signedCall } from './support/api-client';
import { startBuiltService } from './support/built-service';
import { TEST_SECRETS_KEYRING, type TestCredential } from './support/credentials';
import { createPrivateDatabase, DATABASE_URL, describeInProduction, describeWithStore } from './support/stores';
import { TestClock } from './support/test-clock';
import { startProductionTestApp, type TestApp } from './support/test-app';

const BANKS = '/payment/merchant-api/banks';
const MAX_LAG_MS = 1000;

describeInProduction('merchants shared by two instances through the database', () => {
  let database: { url: string; drop: () => Promise<void> };
  let apps: TestApp[];
  const clock = new TestClock();
  const command = async (...args: string[]) => {
    const result = await runMerchantsCommand([...args, '--json', '--actor', 'ops@test'], { PAYSIGN_MODE: 'production', SECRETS_KEYRING: TEST_SECRETS_KEYRING }, () => openPostgres(database.url, { migrations: SCHEMA }));
    expect(result.code).toBe(0);
    return JSON.parse(result.out[0] as string) as Record<string, string>;
  };
  const statusOf = async (api: TestApp, credential: TestCredential) => (await signedCall(api.baseUrl, { path: BANKS, credential, timestamp: Math.floor(clock.now() / 1000) })).status;
  /** How long after `committedAt` the app logged the load that holds version `version` or a later one; undefined if it has not yet. */
  const loadedAfter = (api: TestApp, committedAt: number, version: number): number | undefined => {
    const line = api.logs.find((l) => l.msg === 'merchants loaded' && Number(l.version) >= version && Number(l.time) >= committedAt - 5);
    return line ? Number(line.time) - committedAt : undefined;
  };
  const versionNow = async () => {
    const client = await openPostgres(database.url, { migrations: [] });
    try {
      return Number((await client.query<{ version: string }>('SELECT version FROM merchants_version')).rows[0]?.version);
    } finally {
      await client.close();
    }
  };
  /** Waits until both apps loaded the version the last change committed, and returns each one's lag after the commit. */
  const bothLoaded = async (committedAt: number): Promise<number[]> => {
    const version = await versionNow();
    for (const deadline = Date.now() + 10 * MAX_LAG_MS; apps.some((api) => loadedAfter(api, committedAt, version) === undefined) && Date.now() < deadline; ) await new Promise((r) => setImmediate(r));
    return apps.map((api) => loadedAfter(api, committedAt, version) ?? Infinity);
  };

  beforeAll(async () => {
    database = await createPrivateDatabase('paysign_sync');
    const env = { DATABASE_URL: database.url, MERCHANTS_SYNC_MAX_LAG_MS: String(MAX_LAG_MS) };
    apps = [await startProductionTestApp(env, { overrides: { clock: clock.now } }), await startProductionTestApp(env, { overrides: { clock: clock.now } })];
  });
  afterAll(async () => {
    await Promise.all(apps.map((a) => a.close()));
    await database.drop();
  });

  it('admits a merchant added by the command on both instances within MERCHANTS_SYNC_MAX_LAG_MS, and refuses its revoked key on both within it', async () => {
    const added = await command('add', '--merchant-id', 'MCH-SYNC', '--tenant-id', 'TEN-SYNC', '--name', 'Sync Shop');
    const addedAt = Date.now();
    const credential = { apiKey: added.apiKey as string, secretKey: added.secretKey as string, merchantId: 'MCH-SYNC', tenantId: 'TEN-SYNC' };
    const addLags = await bothLoaded(addedAt);
    for (const api of apps) expect(await statusOf(api, credential)).toBe(200);

    await command('revoke-key', '--api-key', credential.apiKey);
    const revokedAt = Date.now();
    const revokeLags = await bothLoaded(revokedAt);
    for (const api of apps) {
      const refused = await signedCall(api.baseUrl, { path: BANKS, credential, timestamp: Math.floor(clock.now() / 1000) });
      expect(refused.status).toBe(401);
      expect(refused.json.code).toBe('AUTH_UNKNOWN_API_KEY');
    }
    console.log(`lag from commit to load: add ${addLags.join(' ms, ')} ms; revoke ${revokeLags.join(' ms, ')} ms (MERCHANTS_SYNC_MAX_LAG_MS ${MAX_LAG_MS})`);
    for (const lag of [...addLags, ...revokeLags]) expect(lag).toBeLessThanOrEqual(MAX_LAG_MS);
    expect(JSON.stringify(apps.map((a) => a.logs))).not.toContain(credential.secretKey);
  });

  it('finds a change whose announcement was lost at its version check, within MERCHANTS_SYNC_MAX_LAG_MS', async () => {
    const added = await command('add', '--merchant-id', 'MCH-LOST', '--tenant-id', 'TEN-LOST', '--name', 'Lost Notice');
    await bothLoaded(Date.now());
    const credential = { apiKey: added.apiKey as string, secretKey: added.secretKey as string, merchantId: 'MCH-LOST', tenantId: 'TEN-LOST' };
    for (const api of apps) expect(await statusOf(api, credential)).toBe(200);
    // A revocation committed without its NOTIFY, as when the announcement is lost.
    const client = await openPostgres(database.url, { migrations: [] });
    try {
      await client.transaction(async (tx) => {
        await tx.query("UPDATE merchant_credentials SET status = 'revoked' WHERE api_key = $1", [credential.apiKey]);
        await tx.query('UPDATE merchants_version SET version = version + 1');
      });
    } finally {
      await client.close();
    }
    const lags = await bothLoaded(Date.now());
    for (const lag of lags) expect(lag).toBeLessThanOrEqual(MAX_LAG_MS);
    for (const api of apps) expect(await statusOf(api, credential)).toBe(401);
    expect(apps[0]?.logs).toContainEqual(expect.objectContaining({ msg: 'merchants loaded', reason: 'version moved' }));
  });

  it("keeps a rolled key's old key working on both until its expiry, and refuses it after, by the clock", async () => {
    const added = await command('add', '--merchant-id', 'MCH-ROLLED', '--tenant-id', 'TEN-ROLLED', '--name', 'Rolled Shop');
    const old = { apiKey: added.apiKey as string, secretKey: added.secretKey as string, merchantId: 'MCH-ROLLED', tenantId: 'TEN-ROLLED' };
    const rolled = await command('roll-key', '--api-key', old.apiKey, '--expires-in', '3600');
    await bothLoaded(Date.now());
    const fresh = { ...old, apiKey: rolled.apiKey as string, secretKey: rolled.secretKey as string };
    const expiresAt = Date.parse(rolled.rolledKeyExpiresAt as string);
    clock.advance(expiresAt - 1 - clock.now());
    for (const api of apps) expect([await statusOf(api, old), await statusOf(api, fresh)]).toEqual([200, 200]);
    clock.advance(1);
    for (const api of apps) expect([await statusOf(api, old), await statusOf(api, fresh)]).toEqual([401, 200]);
  });

  it('records when a key was last used, written in batches rather than per request', async () => {
    const added = await command('add', '--merchant-id', 'MCH-USED', '--tenant-id', 'TEN-USED', '--name', 'Used Shop');
    const credential = { apiKey: added.apiKey as string, secretKey: added.secretKey as string, merchantId: 'MCH-USED', tenantId: 'TEN-USED' };
    await bothLoaded(Date.now());
    expect((await command('show', '--merchant-id', 'MCH-USED')).keys).toEqual([expect.objectContaining({ lastUsedAt: null })]);
    const usedAt = clock.now();
    expect(await statusOf(apps[1] as TestApp, credential)).toBe(200);
    expect((await command('show', '--merchant-id', 'MCH-USED')).keys).toEqual([expect.objectContaining({ lastUsedAt: null })]);
    await (apps[1] as TestApp).app.get(MerchantsSync).flushLastUsed();
    const [key] = (await command('show', '--merchant-id', 'MCH-USED')).keys as unknown as Array<{ lastUsedAt: string }>;
    expect(Date.parse(key?.lastUsedAt ?? '')).toBeGreaterThanOrEqual(usedAt);
  });

  it('refuses every key of a suspended merchant on both instances, and admits them again once reinstated', async () => {
    const added = await command('add', '--merchant-id', 'MCH-SUSP', '--tenant-id', 'TEN-SUSP', '--name', 'Suspended Shop');
    const credential = { apiKey: added.apiKey as string, secretKey: added.secretKey as string, merchantId: 'MCH-SUSP', tenantId: 'TEN-SUSP' };
    await command('suspend', '--merchant-id', 'MCH-SUSP', '--reason', 'fraud review');
    await bothLoaded(Date.now());
    for (const api of apps) expect(await statusOf(api, credential)).toBe(401);
    await command('reinstate', '--merchant-id', 'MCH-SUSP');
    await bothLoaded(Date.now());
    for (const api of apps) expect(await statusOf(api, credential)).toBe(200);
  });
});

describeInProduction('a keyring rotation on a running service', () => {
  it('rewraps every secret under a new first key while the service keeps verifying, and a service with the new key alone verifies after', async () => {
    const database = await createPrivateDatabase('paysign_rewrap');
    const oldKeyring = TEST_SECRETS_KEYRING;
    const both = `k2:${Buffer.from('second-keyring-key-0123456789abc').toString('base64')},${oldKeyring}`;
    const newOnly = both.split(',')[0] as string;
    const command = async (keyring: string, ...args: string[]) => {
      const result = await runMerchantsCommand([...args, '--json'], { PAYSIGN_MODE: 'production', SECRETS_KEYRING: keyring }, () => openPostgres(database.url, { migrations: SCHEMA }));
      expect(result.code).toBe(0);
      return JSON.parse(result.out[0] as string) as Record<string, unknown>;
    };
    const opened: TestApp[] = [];
    try {
      const added = await command(oldKeyring, 'add', '--merchant-id', 'MCH-KEYS', '--tenant-id', 'TEN-KEYS', '--name', 'Keyring Shop');
      const credential = { apiKey: added.apiKey as string, secretKey: added.secretKey as string, merchantId: 'MCH-KEYS', tenantId: 'TEN-KEYS' };
      const rolling = await startProductionTestApp({ DATABASE_URL: database.url, SECRETS_KEYRING: both });
      opened.push(rolling);
      // Signed requests one after another for as long as the rewrap runs, and through the load it announces.
      let rewrapping = true;
      const statuses: number[] = [];
      const traffic = (async () => {
        while (rewrapping || statuses.length < 20) statuses.push((await signedCall(rolling.baseUrl, { path: BANKS, credential })).status);
      })();
      const rewrapped = await command(both, 'rewrap');
      await rolling.app.get(MerchantsSync).refresh('test');
      rewrapping = false;
      await traffic;
      expect(rewrapped).toMatchObject({ keyId: 'k2' });
      expect(new Set(statuses)).toEqual(new Set([200]));
      const renewed = await startProductionTestApp({ DATABASE_URL: database.url, SECRETS_KEYRING: newOnly });
      opened.push(renewed);
      expect((await signedCall(renewed.baseUrl, { path: BANKS, credential })).status).toBe(200);
      expect(renewed.logs.some((l) => l.msg === 'merchants left out at boot: their keys are refused until they are mended')).toBe(false);
    } finally {
      for (const app of opened) await app.close();
      await database.drop();
    }
  });
});

describeWithStore('PostgreSQL', DATABASE_URL, 'SIGHUP to the built service', () => {
  it('loads the merchants from the database at once', async () => {
    // A version check far slower than the test, so that only the signal can explain the load.
    const service = await startBuiltService({ MERCHANTS_SYNC_MAX_LAG_MS: '60000' });
    try {
      service.child.kill('SIGHUP');
      for (const deadline = Date.now() + 10_000; !service.logs().some((l) => l.msg === 'merchants loaded' && l.reason === 'SIGHUP') && Date.now() < deadline; ) await new Promise((r) => setImmediate(r));
      expect(service.logs()).toContainEqual(expect.objectContaining({ msg: 'merchants loaded', reason: 'SIGHUP' }));
      expect(service.child.exitCode).toBeNull();
    } finally {
      service.child.kill('SIGTERM');
      await service.exited;
      await service.dispose();
    }
  });
});
