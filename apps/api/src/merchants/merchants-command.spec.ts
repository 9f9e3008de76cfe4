import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { commandProcess } from '../../test/support/merchants-command-processes';
import { MerchantRegistry } from './merchant-registry';
import { fingerprintOf, runMerchantsCommand } from './merchants-command';
import { lockPathOf } from './merchants-file-lock';

/** Changing a file's owner, and running a process as another user, need root; elsewhere these tests are skipped, and say so. */
const asRoot = process.getuid?.() === 0;
const itAsRoot = asRoot ? it : it.skip;
if (!asRoot) console.warn('SKIPPED the merchants command tests about file owners: they need root.');
/** A user and group that exist everywhere and own nothing here. */
const NOBODY = 65534;

describe('the merchants command', () => {
  let dir: string;
  let file: string;
  const run = (...argv: string[]) => runMerchantsCommand(['--file', file, ...argv], { PAYSIGN_MODE: 'sandbox' });
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'merchants-command-'));
    file = path.join(dir, 'merchants.json');
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('adds a merchant with a generated key, printed once, in a file the service loads, readable by its owner only', () => {
    const added = run('add', '--merchant-id', 'MCH-1', '--tenant-id', 'TEN-1', '--name', 'Ada Stores');
    expect(added.code).toBe(0);
    const apiKey = /API key \(X-API-KEY\): (pk_test_[0-9a-f]{24})$/.exec(added.out[1] as string)?.[1] as string;
    const secret = added.out[3] as string;
    expect(secret).toMatch(/^sk_test_[A-Za-z0-9_-]{43}$/);
    expect(added.out.filter((line) => line.includes(secret))).toHaveLength(1);
    expect(MerchantRegistry.fromFile(file).secretFor(apiKey)).toBe(secret);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.readdirSync(dir)).toEqual(['merchants.json']);
  });

  it("takes the mode from the file's keys when none is named, and refuses to guess it for a file whose keys do not say", () => {
    const unnamed = (...argv: string[]) => runMerchantsCommand(['--file', file, ...argv], {});
    const guessed = unnamed('add', '--merchant-id', 'MCH-1', '--tenant-id', 'TEN-1', '--name', 'Ada Stores');
    expect(guessed.code).toBe(2);
    expect(guessed.out.join('\n')).toContain('Say --mode sandbox or --mode production (or set PAYSIGN_MODE)');
    expect(fs.existsSync(file)).toBe(false);
    expect(runMerchantsCommand(['--file', file, '--mode', 'production', 'add', '--merchant-id', 'MCH-1', '--tenant-id', 'TEN-1', '--name', 'Ada Stores'], {}).code).toBe(0);
    // Live keys say production: the next key is live too, without --mode, and production's validator accepts the file.
    const rotated = unnamed('rotate-key', '--merchant-id', 'MCH-1');
    expect(rotated.code).toBe(0);
    expect(rotated.out.join('\n')).toMatch(/pk_live_[0-9a-f]{24}/);
    expect(() => MerchantRegistry.fromFile(file, { mode: 'production' })).not.toThrow();
    const sandboxOnLive = runMerchantsCommand(['--file', file, 'add', '--merchant-id', 'MCH-2', '--tenant-id', 'TEN-2', '--name', 'Bola Foods'], { PAYSIGN_MODE: 'sandbox' });
    expect(sandboxOnLive.code).toBe(2);
    expect(sandboxOnLive.out.join('\n')).toContain('holds live keys (pk_live_)');
  });

  it('rolls a production file out of the test keys an earlier tool wrote into it, one key per write, each test key revoked as it is rolled', () => {
    run('add', '--merchant-id', 'MCH-1', '--tenant-id', 'TEN-1', '--name', 'Ada Stores');
    run('add', '--merchant-id', 'MCH-2', '--tenant-id', 'TEN-2', '--name', 'Bola Foods');
    const [first, second] = (JSON.parse(fs.readFileSync(file, 'utf8')) as Array<{ credentials: Array<{ apiKey: string }> }>).map((entry) => entry.credentials[0]?.apiKey as string);
    expect(() => MerchantRegistry.fromFile(file, { mode: 'production' })).toThrow(`${first} of merchant MCH-1 is a test key, refused in production mode`);
    const rolled = runMerchantsCommand(['--file', file, '--mode', 'production', 'rotate-key', '--api-key', first as string], {});
    expect(rolled.code).toBe(0);
    expect(rolled.out[0]).toContain(`revoked the test key, which production refuses`);
    // The other merchant's test key still stands: the file is not yet one production takes.
    expect(() => MerchantRegistry.fromFile(file, { mode: 'production' })).toThrow(`${second} of merchant MCH-2 is a test key`);
    expect(runMerchantsCommand(['--file', file, '--mode', 'production', 'rotate-key', '--api-key', second as string], {}).code).toBe(0);
    const registry = MerchantRegistry.fromFile(file, { mode: 'production' });
    expect([registry.secretFor(first as string), registry.secretFor(second as string)]).toEqual([undefined, undefined]);
  });

  it('rotates, revokes, and adds and removes webhook secrets, the registry seeing each step', () => {
    run('add', '--merchant-id', 'MCH-1', '--tenant-id', 'TEN-1', '--name', 'Ada Stores');
    const first = JSON.parse(fs.readFileSync(file, 'utf8'))[0].credentials[0].apiKey as string;
    const rotated = run('rotate-key', '--merchant-id', 'MCH-1');
    const second = /(pk_test_[0-9a-f]{24})/.exec(rotated.out[1] as string)?.[1] as string;
    expect(MerchantRegistry.fromFile(file).secretFor(first)).toBeDefined();
    expect(MerchantRegistry.fromFile(file).secretFor(second)).toBe(rotated.out[3]);
    expect(run('revoke-key', '--api-key', first).code).toBe(0);
    expect(MerchantRegistry.fromFile(file).secretFor(first)).toBeUndefined();

    const added = run('add-webhook-secret', '--merchant-id', 'MCH-1');
    const secret = added.out[1] as string;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(MerchantRegistry.fromFile(file).webhookSecretsOf('MCH-1')).toEqual([secret]);
    const listed = run('list').out.join('\n');
    expect(listed).toContain(`webhook secret ${fingerprintOf(secret)}`);
    expect(listed).toContain(`key ${first} revoked`);
    expect(listed).not.toContain(secret);
    expect(listed).not.toContain('sk_test_');
    // Opt-in events are shown once set in the file.
    fs.writeFileSync(file, JSON.stringify(JSON.parse(fs.readFileSync(file, 'utf8')).map((entry: object) => ({ ...entry, webhookOptInEvents: ['payin.attempt_failed'] }))));
    expect(run('list').out).toContain('  opted in to payin.attempt_failed');
    expect(run('remove-webhook-secret', '--merchant-id', 'MCH-1', '--fingerprint', fingerprintOf(secret)).code).toBe(0);
    expect(MerchantRegistry.fromFile(file).webhookSecretsOf('MCH-1')).toEqual([]);
  });

  it('refuses what the service would refuse, naming it, and leaves the file as it was', () => {
    run('add', '--merchant-id', 'MCH-1', '--tenant-id', 'TEN-1', '--name', 'Ada Stores');
    const before = fs.readFileSync(file, 'utf8');
    expect(run('add', '--merchant-id', 'MCH-1', '--tenant-id', 'TEN-1', '--name', 'Again')).toEqual({ code: 2, out: [`Merchant MCH-1 is already in ${file}; use rotate-key to give it another key.`] });
    expect(run('add', '--merchant-id', 'MCH-2', '--tenant-id', 'TEN-2', '--name', 'Ada\u200B')).toMatchObject({ code: 2, out: [expect.stringContaining('Nothing was written: MERCHANTS_FILE')] });
    expect(run('revoke-key', '--api-key', 'pk_nobody')).toEqual({ code: 2, out: [`No key pk_nobody in ${file}.`] });
    expect(run('rotate-key')).toEqual({ code: 2, out: ['rotate-key needs --api-key, the key to roll (or --merchant-id, for a merchant with a single active key).'] });
    expect(run('frobnicate').code).toBe(2);
    expect(runMerchantsCommand(['list'], {}).out[0]).toContain('--file');
    expect(fs.readFileSync(file, 'utf8')).toBe(before);
  });

  it('makes live-style keys under --mode production, which the service takes in production', () => {
    const added = run('add', '--mode', 'production', '--merchant-id', 'MCH-1', '--tenant-id', 'TEN-1', '--name', 'Ada Stores');
    expect(added.out[1]).toMatch(/pk_live_[0-9a-f]{24}$/);
    expect(added.out[3]).toMatch(/^sk_live_/);
    expect(() => MerchantRegistry.fromFile(file, { mode: 'production' })).not.toThrow();
  });

  /** A merchant whose keys are given, each as its roles in the file (undefined: none written, the defaults). */
  const merchantWithKeys = (...roles: Array<string[] | undefined>): string[] => {
    run('add', '--merchant-id', 'MCH-1', '--tenant-id', 'TEN-1', '--name', 'Ada Stores');
    const keys = roles.map((_, i) => `pk_test_${String(i).padStart(24, '0')}`);
    const [entry] = JSON.parse(fs.readFileSync(file, 'utf8'));
    entry.credentials = keys.map((apiKey, i) => ({ apiKey, secretKey: `sk_test_${'k'.repeat(40)}${i}`, ...(roles[i] ? { roles: roles[i] } : {}) }));
    fs.writeFileSync(file, JSON.stringify([entry]));
    return keys;
  };
  const newKeyOf = (result: { out: string[] }) => /(pk_test_[0-9a-f]{24})$/.exec(result.out[1] as string)?.[1] as string;

  it('gives a rotated key exactly the roles of the key it rolls, not those of the merchant\'s first key', () => {
    const [approver, clerk] = merchantWithKeys(['payouts:approve'], ['payouts:create']);
    const rotated = run('rotate-key', '--api-key', clerk as string);
    expect(rotated.code).toBe(0);
    const registry = MerchantRegistry.fromFile(file);
    expect(registry.hasRole(newKeyOf(rotated), 'payouts:create')).toBe(true);
    expect(registry.hasRole(newKeyOf(rotated), 'payouts:approve')).toBe(false);
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))[0].credentials[2].roles).toEqual(['payouts:create']);
    expect(rotated.out[0]).toContain(`in place of ${clerk}, with its roles (payouts:create)`);
    // And the approver's successor approves, and creates nothing.
    const rotatedApprover = run('rotate-key', '--api-key', approver as string);
    expect(MerchantRegistry.fromFile(file).hasRole(newKeyOf(rotatedApprover), 'payouts:create')).toBe(false);
  });

  it('rotates by merchant only when it has a single active key, and otherwise lists its keys', () => {
    const [first, second] = merchantWithKeys(undefined, ['payouts:approve']);
    const before = fs.readFileSync(file, 'utf8');
    expect(run('rotate-key', '--merchant-id', 'MCH-1')).toEqual({
      code: 2,
      out: [`MCH-1 has 2 active keys; name the one to roll with --api-key:\n  ${first} (payouts:create, refunds:create)\n  ${second} (payouts:approve)`],
    });
    expect(run('rotate-key', '--merchant-id', 'MCH-2', '--api-key', first as string)).toEqual({ code: 2, out: [`${first} is a key of MCH-1, not of MCH-2.`] });
    expect(fs.readFileSync(file, 'utf8')).toBe(before);
    expect(run('revoke-key', '--api-key', second as string).code).toBe(0);
    expect(run('rotate-key', '--api-key', second as string)).toEqual({ code: 2, out: [`${second} is revoked; rotate one of the active keys of MCH-1 (list shows them).`] });
    const rotated = run('rotate-key', '--merchant-id', 'MCH-1');
    expect(rotated.code).toBe(0);
    expect(rotated.out[0]).toContain(`in place of ${first}`);
  });

  it('refuses to rotate a key holding both payouts:create and payouts:approve unless four eyes is forced off, and then warns', () => {
    const [both] = merchantWithKeys(['payouts:create', 'payouts:approve']);
    const before = fs.readFileSync(file, 'utf8');
    const refused = run('rotate-key', '--api-key', both as string);
    expect(refused.code).toBe(2);
    expect(refused.out[0]).toContain('--force-four-eyes-off');
    expect(fs.readFileSync(file, 'utf8')).toBe(before);
    const forced = run('rotate-key', '--api-key', both as string, '--force-four-eyes-off');
    expect(forced.code).toBe(0);
    expect(forced.out.at(-1)).toMatch(/^Warning: four eyes is off: /);
    expect(MerchantRegistry.fromFile(file).hasRole(newKeyOf(forced), 'payouts:approve')).toBe(true);
  });

  it('never combines payouts:create and payouts:approve on a key it adds', () => {
    const added = run('add', '--merchant-id', 'MCH-1', '--tenant-id', 'TEN-1', '--name', 'Ada Stores');
    const apiKey = newKeyOf(added);
    expect(MerchantRegistry.fromFile(file).hasRole(apiKey, 'payouts:create')).toBe(true);
    expect(MerchantRegistry.fromFile(file).hasRole(apiKey, 'payouts:approve')).toBe(false);
  });

  itAsRoot('keeps the owner, group and permissions of the file it edits when run as root', () => {
    run('add', '--merchant-id', 'MCH-1', '--tenant-id', 'TEN-1', '--name', 'Ada Stores');
    fs.chownSync(file, 0, NOBODY);
    fs.chmodSync(file, 0o640);
    expect(run('add-webhook-secret', '--merchant-id', 'MCH-1').code).toBe(0);
    expect(fs.statSync(file)).toMatchObject({ uid: 0, gid: NOBODY });
    expect(fs.statSync(file).mode & 0o7777).toBe(0o640);
    fs.chownSync(file, NOBODY, NOBODY);
    expect(run('add-webhook-secret', '--merchant-id', 'MCH-1').code).toBe(0);
    expect(fs.statSync(file)).toMatchObject({ uid: NOBODY, gid: NOBODY });
  });

  itAsRoot('writes nothing, and says whom to run as, when its user cannot give the new file the old one\'s owner', () => {
    run('add', '--merchant-id', 'MCH-1', '--tenant-id', 'TEN-1', '--name', 'Ada Stores');
    // nobody may write the file and its directory, but cannot make a file owned by root.
    fs.chmodSync(dir, 0o777);
    fs.chownSync(file, 0, NOBODY);
    fs.chmodSync(file, 0o660);
    const before = fs.readFileSync(file, 'utf8');
    // The command runs as nobody in this process, switched for its synchronous run only: a child process would need a Node binary and a checkout nobody can read.
    const { setegid, seteuid } = process as Required<Pick<NodeJS.Process, 'setegid' | 'seteuid'>>;
    setegid(NOBODY);
    seteuid(NOBODY);
    let result: ReturnType<typeof runMerchantsCommand>;
    try {
      result = runMerchantsCommand(['--file', file, 'add-webhook-secret', '--merchant-id', 'MCH-1'], { PAYSIGN_MODE: 'sandbox' });
    } finally {
      seteuid(0);
      setegid(0);
    }
    expect(result.code).toBe(2);
    expect(result.out[0]).toContain(`Nothing was written: ${file} belongs to uid 0 and gid ${NOBODY}`);
    expect(result.out[0]).toContain('Run the command as root or as uid 0');
    expect(fs.readFileSync(file, 'utf8')).toBe(before);
    expect(fs.statSync(file)).toMatchObject({ uid: 0, gid: NOBODY });
    expect(fs.readdirSync(dir)).toEqual(['merchants.json']);
  }, 60_000);

  it('waits for an edit that holds the file, and gives up after its wait naming the holder', () => {
    run('add', '--merchant-id', 'MCH-1', '--tenant-id', 'TEN-1', '--name', 'Ada Stores');
    const before = fs.readFileSync(file, 'utf8');
    // This process is alive: its lock is not stale.
    fs.writeFileSync(lockPathOf(file), `${process.pid}\n`);
    let now = 0;
    const waits: number[] = [];
    const lock = { waitMs: 1000, now: () => now, pause: (ms: number) => ((now += ms), waits.push(ms)) };
    const result = runMerchantsCommand(['--file', file, 'add-webhook-secret', '--merchant-id', 'MCH-1'], {}, { lock });
    expect(result.code).toBe(2);
    expect(result.out[0]).toBe(
      `Nothing was written: ${file} is being edited by process ${process.pid} (lock ${lockPathOf(file)}), which did not finish within 1 s. Wait for it and run the command again; if no merchants command is running, remove ${lockPathOf(file)}.`,
    );
    expect(waits.reduce((a, b) => a + b, 0)).toBe(1000);
    expect(fs.readFileSync(file, 'utf8')).toBe(before);
    // The holder's lock is left alone.
    expect(fs.readFileSync(lockPathOf(file), 'utf8')).toBe(`${process.pid}\n`);
  });

  it('takes over the lock of an edit whose process is gone, and releases it', () => {
    run('add', '--merchant-id', 'MCH-1', '--tenant-id', 'TEN-1', '--name', 'Ada Stores');
    fs.writeFileSync(lockPathOf(file), '4000000\n');
    const lock = { isAlive: (pid: number) => pid !== 4_000_000, pause: () => { throw new Error('a dead holder is not waited for'); } };
    expect(runMerchantsCommand(['--file', file, 'add-webhook-secret', '--merchant-id', 'MCH-1'], {}, { lock }).code).toBe(0);
    expect(MerchantRegistry.fromFile(file).webhookSecretsOf('MCH-1')).toHaveLength(1);
    expect(fs.readdirSync(dir)).toEqual(['merchants.json']);
  });

  it('loses no edit when several processes edit the file at once', async () => {
    run('add', '--merchant-id', 'MCH-0', '--tenant-id', 'TEN-0', '--name', 'Shop 0');
    const EDITORS = 6;
    const editors = Array.from({ length: EDITORS }, (_, i) =>
      i % 2 === 0 ? commandProcess(['--file', file, 'add', '--merchant-id', `MCH-${i + 1}`, '--tenant-id', `TEN-${i + 1}`, '--name', `Shop ${i + 1}`]) : commandProcess(['--file', file, 'add-webhook-secret', '--merchant-id', 'MCH-0']),
    );
    // Every process has started and read nothing yet; then all are let go at once.
    await Promise.all(editors.map((editor) => editor.ready));
    for (const editor of editors) editor.go();
    const results = await Promise.all(editors.map((editor) => editor.done));
    expect(results.map((result) => result.code)).toEqual(Array(EDITORS).fill(0));
    const registry = MerchantRegistry.fromFile(file);
    const entries = JSON.parse(fs.readFileSync(file, 'utf8')) as Array<{ merchantId: string }>;
    expect(entries.map((entry) => entry.merchantId).sort()).toEqual(['MCH-0', 'MCH-1', 'MCH-3', 'MCH-5']);
    expect(registry.webhookSecretsOf('MCH-0')).toHaveLength(EDITORS / 2);
    expect(fs.readdirSync(dir)).toEqual(['merchants.json']);
  }, 60_000);
});
