import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { MerchantRegistry } from './merchant-registry';
import { fingerprintOf, runMerchantsCommand } from './merchants-command';

describe('the merchants command', () => {
  let dir: string;
  let file: string;
  const run = (...argv: string[]) => runMerchantsCommand(['--file', file, ...argv], {});
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
    expect(run('rotate-key')).toEqual({ code: 2, out: ['rotate-key needs --merchant-id.'] });
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
});
