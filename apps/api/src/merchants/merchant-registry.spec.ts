import { validateMerchants, MerchantRegistry } from './merchant-registry';
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
    ['a credential that is not an object', { given: [{ ...valid, credentials: ['pk_1'] }], want: 'merchants[0].credentials[0] must be an object' }],
  ])('refuses %s, naming the entry', (_name, { given, want }) => {
    expect(() => validateMerchants(given, 'merchants.json')).toThrow(want);
  });

  const productionValid = { ...valid, credentials: [{ apiKey: 'pk_live_1', secretKey: 's'.repeat(32) }] };

  it.each<[string, { given: unknown; want: string }]>([
    ['a public sandbox key', { given: [{ ...productionValid, credentials: [{ apiKey: 'pk_sandbox_demo', secretKey: 's'.repeat(32) }] }], want: 'merchants[0].credentials[0].apiKey pk_sandbox_demo is a public sandbox key, refused in production mode' }],
    ['a secret of 31 characters', { given: [{ ...productionValid, credentials: [{ apiKey: 'pk_live_1', secretKey: 's'.repeat(31) }] }], want: 'merchants[0].credentials[0].secretKey must be a string of at least 32 characters in production mode' }],
  ])('refuses %s in production mode', (_name, { given, want }) => {
    expect(() => validateMerchants(given, 'merchants.json', { mode: 'production' })).toThrow(want);
    expect(() => validateMerchants([productionValid], 'merchants.json', { mode: 'production' })).not.toThrow();
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
