import { validateMerchants, MerchantRegistry } from './merchant-registry';
import { SANDBOX_MERCHANTS_FILE } from '../config/app-config';

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
  ])('refuses %s, naming the entry', (_name, { given, want }) => {
    expect(() => validateMerchants(given, 'merchants.json')).toThrow(want);
  });
});
