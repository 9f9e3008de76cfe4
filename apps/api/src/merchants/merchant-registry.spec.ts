import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import pino from 'pino';
import { validateMerchants, MerchantRegistry } from './merchant-registry';
import { MerchantsFileWatcher, fileVersion } from './merchants-file-watcher';
import { installPaths, SOURCE_DIR } from '../config/install-paths';

const SANDBOX_MERCHANTS_FILE = installPaths(SOURCE_DIR).sandboxMerchantsFile;

const valid = { merchantId: 'MCH-1', tenantId: 'TEN-1', name: 'Shop', credentials: [{ apiKey: 'pk_1', secretKey: 'sk_1_long_enough_secret' }] };

describe('merchants file', () => {
  it('loads the documented sandbox merchant with two credentials', () => {
    const registry = MerchantRegistry.fromFile(SANDBOX_MERCHANTS_FILE);
    expect(registry.merchantFor('pk_sandbox_demo')).toEqual({ merchantId: 'MCH-SANDBOX-0001', tenantId: 'TEN-SANDBOX', name: 'Sandbox Demo Merchant' });
    expect(registry.merchantFor('pk_sandbox_demo_rotated')?.merchantId).toBe('MCH-SANDBOX-0001');
  });

  it.each<[string, { given: unknown; want: string }]>([
    ['not an array', { given: {}, want: 'must hold a JSON array' }],
    ['an empty array', { given: [], want: 'the array is empty' }],
    ['a missing tenant', { given: [{ ...valid, tenantId: undefined }], want: 'merchants[0].tenantId must be 1 to 128 visible ASCII characters' }],
    ['a short secret', { given: [valid, { ...valid, merchantId: 'MCH-2', credentials: [{ apiKey: 'pk_2', secretKey: 'short' }] }], want: 'merchants[1].credentials[0].secretKey must be a string of at least 16 characters' }],
    ['a shared API key', { given: [valid, { ...valid, merchantId: 'MCH-2' }], want: 'merchants[1].credentials[0].apiKey is used by another credential' }],
    ['a typo in a field name', { given: [{ ...valid, tenantID: 'x' }], want: 'merchants[0] has unknown field(s) tenantID' }],
    ['no credentials', { given: [{ ...valid, credentials: [] }], want: 'merchants[0].credentials must be a non-empty array' }],
    ['an unknown credential field', { given: [{ ...valid, credentials: [{ apiKey: 'pk_1', secretKey: 'sk_1_long_enough_secret', active: false }] }], want: 'merchants[0].credentials[0] has unknown field(s) active' }],
    ['a credential status other than active or revoked', { given: [{ ...valid, credentials: [{ apiKey: 'pk_1', secretKey: 'sk_1_long_enough_secret', status: 'paused' }] }], want: 'merchants[0].credentials[0].status must be "active" or "revoked"' }],
    ['a right-to-left override in the name the checkout page shows', { given: [{ ...valid, name: 'Shop \u202Egnp.exe' }], want: 'merchants[0].name holds U+202E, an invisible or formatting character' }],
    ['a name of braille blanks', { given: [{ ...valid, name: '\u2800\u2800' }], want: 'merchants[0].name must hold at least one visible character' }],
    ['a credential that is not an object', { given: [{ ...valid, credentials: ['pk_1'] }], want: 'merchants[0].credentials[0] must be an object' }],
    ['an event that is not opt-in', { given: [{ ...valid, webhookOptInEvents: ['payin.successful'] }], want: 'merchants[0].webhookOptInEvents must be an array of the opt-in events: payin.attempt_failed' }],
    ['opt-in events as a string', { given: [{ ...valid, webhookOptInEvents: 'payin.attempt_failed' }], want: 'merchants[0].webhookOptInEvents must be an array of the opt-in events' }],
    ['an opt-in event named twice', { given: [{ ...valid, webhookOptInEvents: ['payin.attempt_failed', 'payin.attempt_failed'] }], want: 'merchants[0].webhookOptInEvents names an event twice' }],
  ])('refuses %s, naming the entry', (_name, { given, want }) => {
    expect(() => validateMerchants(given, 'merchants.json')).toThrow(want);
  });

  /** Made by openssl rand -base64 32 and openssl rand -base64 24. */
  const RANDOM_SECRET = 'T1ebXeOkKzXQKxpd9h+4VRw/ssrPo+OOe+DWSGB3ot0=';
  const RANDOM_WEBHOOK_SECRET = 'whsec_/cVysmsGjdXt2QT59gjvToFGchrzgHPI';
  const productionValid = { ...valid, credentials: [{ apiKey: 'pk_live_1', secretKey: RANDOM_SECRET }], webhookSecrets: [RANDOM_WEBHOOK_SECRET] };
  /** Valid in form (the base64 of 24 bytes), but the bytes are 24 × "a". */
  const REPEATED_WEBHOOK_SECRET = `whsec_${Buffer.from('a'.repeat(24)).toString('base64')}`;

  it.each<[string, { given: unknown; want: string }]>([
    ['a public sandbox key', { given: [{ ...productionValid, credentials: [{ apiKey: 'pk_sandbox_demo', secretKey: RANDOM_SECRET }] }], want: 'merchants[0].credentials[0].apiKey pk_sandbox_demo is a public sandbox key, refused in production mode' }],
    ['a test key the merchants tool minted outside production', { given: [{ ...productionValid, credentials: [{ apiKey: 'pk_test_0123456789abcdef01234567', secretKey: RANDOM_SECRET }] }], want: `merchants[0].credentials[0].apiKey pk_test_0123456789abcdef01234567 of merchant ${valid.merchantId} is a test key, refused in production mode` }],
    ['a secret of 31 characters', { given: [{ ...productionValid, credentials: [{ apiKey: 'pk_live_1', secretKey: RANDOM_SECRET.slice(0, 31) }] }], want: 'merchants[0].credentials[0].secretKey must be a string of at least 32 characters in production mode' }],
    ['a secret of 32 × a', { given: [{ ...productionValid, credentials: [{ apiKey: 'pk_live_1', secretKey: 'a'.repeat(32) }] }], want: 'merchants[0].credentials[0].secretKey is too predictable for production mode' }],
    ['a repeated word as the second key\'s secret', { given: [{ ...productionValid, credentials: [productionValid.credentials[0], { apiKey: 'pk_live_2', secretKey: 'password-'.repeat(4) }] }], want: 'merchants[0].credentials[1].secretKey is too predictable for production mode' }],
    ['a webhook secret of repeated bytes', { given: [{ ...productionValid, webhookSecrets: [RANDOM_WEBHOOK_SECRET, REPEATED_WEBHOOK_SECRET] }], want: 'merchants[0].webhookSecrets[1] is too predictable for production mode' }],
  ])('refuses %s in production mode', (_name, { given, want }) => {
    expect(() => validateMerchants(given, 'merchants.json', { mode: 'production' })).toThrow(want);
    expect(() => validateMerchants([productionValid], 'merchants.json', { mode: 'production' })).not.toThrow();
  });

  it('takes guessable secrets in sandbox mode, whose secrets are public anyway', () => {
    const sandbox = { ...valid, credentials: [{ apiKey: 'pk_1', secretKey: 'a'.repeat(32) }], webhookSecrets: [REPEATED_WEBHOOK_SECRET] };
    expect(() => validateMerchants([sandbox], 'merchants.json')).not.toThrow();
  });

  it('never quotes a refused secret', () => {
    const weak = 'password-'.repeat(4);
    let message = '';
    try {
      validateMerchants([{ ...productionValid, credentials: [{ apiKey: 'pk_live_1', secretKey: weak }], webhookSecrets: [REPEATED_WEBHOOK_SECRET] }], 'merchants.json', { mode: 'production' });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain('too predictable');
    expect(message).not.toContain(weak);
    expect(message).not.toContain(REPEATED_WEBHOOK_SECRET);
  });

  it('refuses a reload with a guessable secret in production mode, and keeps the merchants in force', () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'merchants-strength-')), 'merchants.json');
    fs.writeFileSync(file, JSON.stringify([productionValid]));
    const registry = MerchantRegistry.fromFile(file, { mode: 'production' });
    const logged: Array<Record<string, unknown>> = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => logged.push(JSON.parse(line) as Record<string, unknown>) });
    const watcher = new MerchantsFileWatcher(registry, { file, mode: 'production', intervalMs: 0, logger });

    fs.writeFileSync(file, JSON.stringify([{ ...productionValid, credentials: [{ apiKey: 'pk_live_1', secretKey: 'a'.repeat(32) }] }]));
    expect(watcher.reload('SIGHUP')).toBe(false);
    expect(registry.secretFor('pk_live_1')).toBe(RANDOM_SECRET);
    expect(logged).toContainEqual(expect.objectContaining({ msg: 'merchants file refused: the merchants already in force stay in force', err: expect.stringContaining('credentials[0].secretKey is too predictable') }));
  });

  it('applies a merchant\'s branding from the file, and refuses a reload with a remote logo, keeping the branding in force', () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'merchants-brand-')), 'merchants.json');
    fs.writeFileSync(file, JSON.stringify([{ ...valid, displayName: 'Shop & Co', brandColor: '#0B5CAD' }]));
    const registry = MerchantRegistry.fromFile(file);
    expect(registry.brandingOf('MCH-1')).toEqual({ displayName: 'Shop & Co', brandColor: '#0b5cad', logo: undefined });
    const logged: Array<Record<string, unknown>> = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => logged.push(JSON.parse(line) as Record<string, unknown>) });
    const watcher = new MerchantsFileWatcher(registry, { file, mode: 'sandbox', intervalMs: 0, logger });

    fs.writeFileSync(file, JSON.stringify([{ ...valid, displayName: 'Shop & Co', logo: 'https://cdn.example.com/logo.png' }]));
    expect(watcher.reload('SIGHUP')).toBe(false);
    expect(registry.brandingOf('MCH-1').brandColor).toBe('#0b5cad');
    expect(logged).toContainEqual(expect.objectContaining({ err: expect.stringContaining('merchants[0].logo must be a PNG or JPEG embedded as a data URL') }));
  });

  it('reloads at start a file changed after it was read, as while the service started', () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'merchants-')), 'merchants.json');
    fs.writeFileSync(file, JSON.stringify([valid]));
    const versionRead = fileVersion(file);
    const registry = MerchantRegistry.fromFile(file);
    fs.writeFileSync(file, JSON.stringify([{ ...valid, credentials: [...valid.credentials, { apiKey: 'pk_2', secretKey: 'sk_2_long_enough_secret' }] }]));
    const watcher = new MerchantsFileWatcher(registry, { file, mode: 'sandbox', intervalMs: 60_000, logger: pino({ level: 'silent' }), versionRead });
    try {
      expect(registry.secretFor('pk_2')).toBeUndefined();
      watcher.start();
      expect(registry.secretFor('pk_2')).toBe('sk_2_long_enough_secret');
    } finally {
      watcher.stop();
    }
  });

  it('sends an opt-in event only to the merchants that asked for it', () => {
    const registry = new MerchantRegistry(validateMerchants([{ ...valid, webhookOptInEvents: ['payin.attempt_failed'] }, { ...valid, merchantId: 'MCH-2', credentials: [{ apiKey: 'pk_2', secretKey: 'sk_2_long_enough_secret' }] }], 'merchants.json'));
    expect(registry.optedInTo('MCH-1', 'payin.attempt_failed')).toBe(true);
    expect(registry.optedInTo('MCH-2', 'payin.attempt_failed')).toBe(false);
    expect(registry.optedInTo('MCH-GONE', 'payin.attempt_failed')).toBe(false);
    // A reload says whose opt-ins changed.
    expect(registry.replace(validateMerchants([valid, { ...valid, merchantId: 'MCH-2', credentials: [{ apiKey: 'pk_2', secretKey: 'sk_2_long_enough_secret' }] }], 'merchants.json')).webhookOptInsChanged).toEqual(['MCH-1']);
    expect(registry.optedInTo('MCH-1', 'payin.attempt_failed')).toBe(false);
  });

  it('refuses the sandbox merchants file in production mode', () => {
    expect(() => MerchantRegistry.fromFile(SANDBOX_MERCHANTS_FILE, { mode: 'production' })).toThrow(/public sandbox key, refused in production mode/);
  });

  it('treats a revoked key as unknown, and keeps the merchant\'s other keys', () => {
    const registry = new MerchantRegistry([{ ...valid, credentials: [{ apiKey: 'pk_old', secretKey: 'sk_old_long_enough', status: 'revoked' }, { apiKey: 'pk_new', secretKey: 'sk_new_long_enough', status: 'active' }] }]);
    expect(registry.secretFor('pk_old')).toBeUndefined();
    expect(registry.merchantFor('pk_old')).toBeUndefined();
    expect(registry.secretFor('pk_new')).toBe('sk_new_long_enough');
  });

  const key = (apiKey: string, status: 'active' | 'revoked') => ({ apiKey, secretKey: `${apiKey}_long_enough_secret`, status });

  it.each<[string, { given: Array<ReturnType<typeof key>>; want: boolean }]>([
    ['one active key', { given: [key('pk_1', 'active')], want: true }],
    ['one key revoked and one active, as during a rotation', { given: [key('pk_1', 'revoked'), key('pk_2', 'active')], want: true }],
    ['every key revoked', { given: [key('pk_1', 'revoked'), key('pk_2', 'revoked')], want: false }],
  ])('says whether a merchant with %s takes payments', (_name, { given, want }) => {
    const registry = new MerchantRegistry([{ ...valid, credentials: given }]);
    expect(registry.merchantTakingPayments('MCH-1')).toEqual(want ? { merchantId: 'MCH-1', tenantId: 'TEN-1', name: 'Shop' } : undefined);
  });

  it('takes no payment for a merchant removed from the file', () => {
    const registry = new MerchantRegistry([valid, { ...valid, merchantId: 'MCH-2', credentials: [key('pk_2', 'active')] }]);
    registry.replace([valid]);
    expect(registry.merchantTakingPayments('MCH-2')).toBeUndefined();
    expect(registry.merchantTakingPayments('MCH-1')?.name).toBe('Shop');
  });
});
