import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createPrivateDatabase, DATABASE_URL, describeWithStore } from '../../test/support/stores';
import { TEST_MERCHANTS_FILE } from '../../test/support/credentials';
import { installPaths, SOURCE_DIR } from '../config/install-paths';
import { openPostgres } from '../db/sql-clients';
import { SCHEMA } from '../schema';
import { parseKeyring } from '../config/keyring-config';
import { Keyring } from '../secrets/keyring';
import { MerchantRegistry } from './merchant-registry';
import { MerchantStore } from './merchant-store';
import { runMerchantsCommand } from './merchants-command';

const SANDBOX_MERCHANTS_FILE = installPaths(SOURCE_DIR).sandboxMerchantsFile;
const newKey = (id: string) => `${id}:${randomBytes(32).toString('base64')}`;

describeWithStore('PostgreSQL', DATABASE_URL, 'the merchants commands, against the database', () => {
  let database: { url: string; drop: () => Promise<void> };
  let keyring: string;
  const env = () => ({ SECRETS_KEYRING: keyring });
  const run = (args: string[], extra: Record<string, string> = {}) => runMerchantsCommand([...args, '--actor', 'ops@test'], { ...env(), ...extra }, () => openPostgres(database.url, { migrations: SCHEMA }));
  const json = async (args: string[], extra: Record<string, string> = {}) => {
    const result = await run([...args, '--json'], extra);
    expect(result).toMatchObject({ code: 0 });
    expect(result.out).toHaveLength(1);
    return JSON.parse(result.out[0] as string) as Record<string, unknown>;
  };
  /** The merchants as an instance of the service loads them, by `at`'s clock. */
  const registryAt = async (at = Date.now(), mode: 'sandbox' | 'production' = 'sandbox') => {
    const client = await openPostgres(database.url, { migrations: SCHEMA });
    try {
      const problems: string[] = [];
      const loaded = await new MerchantStore(client, new Keyring(parseKeyring(keyring, problems)), mode).loadAll();
      return { registry: new MerchantRegistry(loaded.entries, () => at), refused: loaded.refused };
    } finally {
      await client.close();
    }
  };

  beforeEach(async () => {
    database = await createPrivateDatabase('paysign_merchants');
    keyring = newKey('k1');
  });
  afterEach(() => database.drop());

  it('adds a merchant whose key and secret it prints once, and which the service then admits', async () => {
    const added = await json(['add', '--merchant-id', 'MCH-NEW', '--tenant-id', 'TEN-NEW', '--name', 'New Shop']);
    expect(added).toMatchObject({ merchantId: 'MCH-NEW', tenantId: 'TEN-NEW', roles: ['payouts:create', 'refunds:create', 'webhooks:manage', 'settlements:manage'] });
    expect(added.apiKey).toMatch(/^pk_test_[0-9a-f]{24}$/);
    expect(added.secretKey).toMatch(/^sk_test_[A-Za-z0-9_-]{43}$/);
    const { registry } = await registryAt();
    expect(registry.secretFor(added.apiKey as string)).toBe(added.secretKey);
    expect(registry.hasRole(added.apiKey as string, 'webhooks:manage')).toBe(true);

    const shown = await json(['show', '--merchant-id', 'MCH-NEW']);
    expect(JSON.stringify(shown)).not.toContain(added.secretKey as string);
    expect(shown).toMatchObject({ status: 'active', keys: [{ apiKey: added.apiKey, status: 'active', expiresAt: null, lastUsedAt: null }] });
    const human = await run(['add', '--merchant-id', 'MCH-NEW', '--tenant-id', 'TEN-NEW', '--name', 'Again']);
    expect(human).toEqual({ code: 2, out: ['Merchant MCH-NEW already exists; give it another key with roll-key.'] });
  });

  it('rolls a key with an overlap: the old key works until its expiry and not after, and the new one has its roles', async () => {
    const added = await json(['add', '--merchant-id', 'MCH-ROLL', '--tenant-id', 'TEN-ROLL', '--name', 'Roll Shop', '--roles', 'payouts:create,webhooks:manage']);
    const before = Date.now();
    const rolled = await json(['roll-key', '--api-key', added.apiKey as string, '--expires-in', '3600']);
    expect(rolled).toMatchObject({ merchantId: 'MCH-ROLL', roles: ['payouts:create', 'webhooks:manage'], rolledKey: added.apiKey });
    const expiresAt = Date.parse(rolled.rolledKeyExpiresAt as string);
    expect(expiresAt).toBeGreaterThanOrEqual(before + 3_600_000);
    expect(expiresAt).toBeLessThan(Date.now() + 3_600_000 + 1000);

    const { registry } = await registryAt(expiresAt - 1);
    expect(registry.secretFor(added.apiKey as string)).toBe(added.secretKey);
    expect(registry.secretFor(rolled.apiKey as string)).toBe(rolled.secretKey);
    expect(registry.hasRole(rolled.apiKey as string, 'refunds:create')).toBe(false);
    const after = (await registryAt(expiresAt)).registry;
    expect(after.secretFor(added.apiKey as string)).toBeUndefined();
    expect(after.secretFor(rolled.apiKey as string)).toBe(rolled.secretKey);

    // rotate-key is the same command; 0 ends the old key at once.
    const again = await json(['rotate-key', '--api-key', rolled.apiKey as string, '--expires-in', '0']);
    expect((await registryAt()).registry.secretFor(rolled.apiKey as string)).toBeUndefined();
    expect((await registryAt()).registry.secretFor(again.apiKey as string)).toBe(again.secretKey);
    expect(await run(['roll-key', '--api-key', rolled.apiKey as string])).toMatchObject({ code: 2, out: [expect.stringContaining('is revoked or expired')] });
    expect(await run(['roll-key', '--api-key', again.apiKey as string, '--expires-in', '604801'])).toMatchObject({ code: 2, out: [expect.stringContaining('to 604800 (7 days)')] });
  });

  it('refuses to roll a key holding both four-eyes roles unless forced, and then warns', async () => {
    const added = await json(['add', '--merchant-id', 'MCH-4E', '--tenant-id', 'TEN-4E', '--name', 'Four Eyes', '--roles', 'payouts:create,payouts:approve']);
    expect(await run(['roll-key', '--api-key', added.apiKey as string])).toMatchObject({ code: 2, out: [expect.stringContaining('four eyes in name only')] });
    const forced = await json(['roll-key', '--api-key', added.apiKey as string, '--force-four-eyes-off', '--expires-in', '60']);
    expect(forced.warning).toContain('Four eyes is off');
  });

  it('revokes a key, suspends and reinstates a merchant, each in force at the next load, and audits who did it', async () => {
    const added = await json(['add', '--merchant-id', 'MCH-SUS', '--tenant-id', 'TEN-SUS', '--name', 'Suspended Shop']);
    const second = await json(['roll-key', '--api-key', added.apiKey as string]);
    await json(['revoke-key', '--api-key', added.apiKey as string]);
    let { registry } = await registryAt();
    expect(registry.secretFor(added.apiKey as string)).toBeUndefined();
    expect(registry.secretFor(second.apiKey as string)).toBe(second.secretKey);

    await json(['suspend', '--merchant-id', 'MCH-SUS', '--reason', 'chargeback review']);
    ({ registry } = await registryAt());
    expect(registry.secretFor(second.apiKey as string)).toBeUndefined();
    expect(registry.merchantTakingPayments('MCH-SUS')).toBeUndefined();
    await json(['reinstate', '--merchant-id', 'MCH-SUS']);
    expect((await registryAt()).registry.secretFor(second.apiKey as string)).toBe(second.secretKey);

    const { records } = (await json(['audit', '--merchant-id', 'MCH-SUS'])) as { records: Array<Record<string, unknown>> };
    expect(records.map((r) => r.action)).toEqual(['add', 'roll-key', 'revoke-key', 'suspend', 'reinstate']);
    expect(records[1]).toMatchObject({ merchantId: 'MCH-SUS', subject: added.apiKey, detail: { newKey: second.apiKey, expiresAt: null } });
    expect(records[3]).toMatchObject({ actor: 'ops@test', channel: 'command', detail: { reason: 'chargeback review' } });
    const all = (await json(['audit'])) as { records: Array<Record<string, unknown>> };
    expect(all.records.map((r) => r.action)).toEqual(['add', 'roll-key', 'revoke-key', 'suspend', 'reinstate']);
    expect(JSON.stringify(all)).not.toContain(second.secretKey as string);
  });

  it("imports today's merchants files idempotently, with a dry run that writes nothing", async () => {
    const dry = await json(['import', TEST_MERCHANTS_FILE, '--dry-run']);
    expect(dry).toMatchObject({ dryRun: true, unchanged: 0 });
    expect(dry.changes).toEqual(expect.arrayContaining(['added merchant MCH-A', 'added key pk_live_a to MCH-A', 'added merchant MCH-B']));
    expect((await json(['list'])).merchants).toEqual([]);

    const real = await json(['import', TEST_MERCHANTS_FILE]);
    expect(real.changes).toEqual(dry.changes);
    const again = await json(['import', TEST_MERCHANTS_FILE]);
    expect(again).toMatchObject({ changes: [], unchanged: 2 });
    const sandbox = await json(['import', SANDBOX_MERCHANTS_FILE]);
    expect(sandbox.changes).toEqual(expect.arrayContaining(['added merchant MCH-SANDBOX-0001']));
    expect(await json(['import', SANDBOX_MERCHANTS_FILE])).toMatchObject({ changes: [] });

    const { registry } = await registryAt();
    expect(registry.secretFor('pk_live_a')).toBe('sk_test_a_0123456789abcdef0123456789');
    expect(registry.feesOf('MCH-B').payinBasisPoints).toBe(200n);
    expect(registry.optedInTo('MCH-B', 'payin.attempt_failed')).toBe(true);
    expect(registry.signingSecretsOf('MCH-A')).toHaveLength(2);
    expect(registry.secretFor('pk_sandbox_demo')).toBeDefined();
    // A file never brings back a key revoked since it was imported.
    await json(['revoke-key', '--api-key', 'pk_live_a_rotated']);
    expect((await json(['import', TEST_MERCHANTS_FILE])).changes).toEqual([]);
    expect((await registryAt()).registry.secretFor('pk_live_a_rotated')).toBeUndefined();
    const human = await run(['import', TEST_MERCHANTS_FILE]);
    expect(human).toEqual({ code: 0, out: [`${TEST_MERCHANTS_FILE}: 0 change(s), 2 merchant(s) unchanged.`] });
  });

  it('keeps no secret in clear in a pg_dump, and a ciphertext moved to another row does not open', async () => {
    const a = await json(['add', '--merchant-id', 'MCH-D1', '--tenant-id', 'TEN-D1', '--name', 'Dump One']);
    const b = await json(['add', '--merchant-id', 'MCH-D2', '--tenant-id', 'TEN-D2', '--name', 'Dump Two']);
    await json(['import', TEST_MERCHANTS_FILE]);
    const dump = execFileSync('pg_dump', ['--data-only', database.url], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    expect(dump).toContain('MCH-D1');
    for (const secret of [a.secretKey, b.secretKey, 'sk_test_a_0123456789abcdef0123456789', 'whsec_dGVzdC13ZWJob29rLXNlY3JldC1vZi1tZXJjaGFudC1h']) expect(dump).not.toContain(secret as string);

    const client = await openPostgres(database.url, { migrations: SCHEMA });
    try {
      await client.query('UPDATE merchant_credentials SET secret_sealed = (SELECT secret_sealed FROM merchant_credentials WHERE api_key = $1) WHERE api_key = $2', [a.apiKey, b.apiKey]);
    } finally {
      await client.close();
    }
    const { registry, refused } = await registryAt();
    expect(refused).toEqual([{ merchantId: 'MCH-D2', reason: expect.stringContaining(`merchant MCH-D2 credential ${String(b.apiKey)} does not open`) }]);
    expect(registry.secretFor(b.apiKey as string)).toBeUndefined();
    expect(registry.secretFor(a.apiKey as string)).toBe(a.secretKey);
  });

  it('rewraps every secret under a new first key, after which the old key may leave the keyring', async () => {
    const added = await json(['add', '--merchant-id', 'MCH-RW', '--tenant-id', 'TEN-RW', '--name', 'Rewrap Shop']);
    await json(['import', TEST_MERCHANTS_FILE]);
    const old = keyring;
    const next = newKey('k2');
    keyring = `${next},${old}`;
    expect((await registryAt()).registry.secretFor(added.apiKey as string)).toBe(added.secretKey);
    const rewrapped = await json(['rewrap']);
    // MCH-RW's key, MCH-A's two keys and two webhook secrets, MCH-B's key and webhook secret.
    expect(rewrapped).toEqual({ keyId: 'k2', rewrapped: 7 });
    keyring = next;
    const { registry, refused } = await registryAt();
    expect(refused).toEqual([]);
    expect(registry.secretFor(added.apiKey as string)).toBe(added.secretKey);
    expect(registry.secretFor('pk_live_b')).toBe('sk_test_b_0123456789abcdef0123456789');
    expect(registry.signingSecretsOf('MCH-A')).toHaveLength(2);
  });

  it('mints live keys in production, and refuses to run there without SECRETS_KEYRING', async () => {
    expect(await runMerchantsCommand(['list'], { PAYSIGN_MODE: 'production' }, () => openPostgres(database.url, { migrations: SCHEMA }))).toMatchObject({ code: 2, out: [expect.stringContaining('SECRETS_KEYRING is required in production mode')] });
    const added = await json(['add', '--merchant-id', 'MCH-LIVE', '--tenant-id', 'TEN-LIVE', '--name', 'Live Shop'], { PAYSIGN_MODE: 'production' });
    expect(added.apiKey).toMatch(/^pk_live_[0-9a-f]{24}$/);
    const { registry } = await registryAt(Date.now(), 'production');
    expect(registry.secretFor(added.apiKey as string)).toBe(added.secretKey);
  });

  it('refuses an operator\'s mistake with a message and exit code 2, writing nothing', async () => {
    expect(await run(['add', '--merchant-id', 'MCH BAD', '--tenant-id', 'T', '--name', 'N'])).toMatchObject({ code: 2, out: [expect.stringContaining('--merchant-id must be')] });
    expect(await run(['add', '--merchant-id', 'MCH-R', '--tenant-id', 'T', '--name', 'N', '--roles', 'payouts:everything'])).toMatchObject({ code: 2, out: [expect.stringContaining('unknown: payouts:everything')] });
    expect(await run(['revoke-key', '--api-key', 'pk_test_nothing'])).toEqual({ code: 2, out: ["No key pk_test_nothing; merchants show lists a merchant's keys."] });
    expect(await run(['frobnicate'])).toMatchObject({ code: 2, out: [expect.stringContaining('Unknown command "frobnicate"')] });
    expect((await json(['list'])).merchants).toEqual([]);
  });
});
