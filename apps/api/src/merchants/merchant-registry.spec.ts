import { MerchantRegistry } from './merchant-registry';
import { validateMerchants } from './merchants-file';
import { installPaths, SOURCE_DIR } from '../config/install-paths';

const SANDBOX_MERCHANTS_FILE = installPaths(SOURCE_DIR).sandboxMerchantsFile;

const valid = { merchantId: 'MCH-1', tenantId: 'TEN-1', name: 'Shop', credentials: [{ apiKey: 'pk_1', secretKey: 'sk_1_long_enough_secret' }] };

describe('the merchants in force', () => {
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

  it('applies a merchant\'s branding, and refuses a remote logo', () => {
    const registry = new MerchantRegistry(validateMerchants([{ ...valid, displayName: 'Shop & Co', brandColor: '#0B5CAD' }], 'merchants.json'));
    expect(registry.brandingOf('MCH-1')).toEqual({ displayName: 'Shop & Co', brandColor: '#0b5cad', logo: undefined });
    expect(() => validateMerchants([{ ...valid, displayName: 'Shop & Co', logo: 'https://cdn.example.com/logo.png' }], 'merchants.json')).toThrow('merchants[0].logo must be a PNG or JPEG embedded as a data URL');
  });

  it('refuses a rolled key from its expiry on, by its clock, without waiting for a load', () => {
    let now = Date.parse('2026-11-27T10:00:00Z');
    const registry = new MerchantRegistry([{ ...valid, credentials: [{ apiKey: 'pk_old', secretKey: 'sk_old_long_enough', expiresAt: new Date(now + 1000) }, { apiKey: 'pk_new', secretKey: 'sk_new_long_enough' }] }], () => now);
    expect(registry.secretFor('pk_old')).toBe('sk_old_long_enough');
    now += 999;
    expect(registry.hasRole('pk_old', 'payouts:create')).toBe(true);
    now += 1;
    expect(registry.secretFor('pk_old')).toBeUndefined();
    expect(registry.merchantFor('pk_old')).toBeUndefined();
    expect(registry.hasRole('pk_old', 'payouts:create')).toBe(false);
    expect(registry.secretFor('pk_new')).toBe('sk_new_long_enough');
  });

  it('refuses every key of a suspended merchant, and takes no payment for it', () => {
    const registry = new MerchantRegistry([{ ...valid, status: 'suspended' }]);
    expect(registry.secretFor('pk_1')).toBeUndefined();
    expect(registry.merchantTakingPayments('MCH-1')).toBeUndefined();
    registry.replace([{ ...valid, status: 'active' }]);
    expect(registry.secretFor('pk_1')).toBe('sk_1_long_enough_secret');
  });

  it('notes each key used since the last write, once, for the store to record in batches', () => {
    let now = 1000;
    const registry = new MerchantRegistry([valid], () => now);
    registry.secretFor('pk_1');
    now = 2000;
    registry.secretFor('pk_1');
    registry.secretFor('pk_unknown');
    expect(registry.takeUsed()).toEqual(new Map([['pk_1', 1000]]));
    expect(registry.takeUsed().size).toBe(0);
  });

  describe('where events go', () => {
    const at = new Date('2026-11-27T10:00:00Z');
    const endpoint = (id: string, enabledEvents: string[], options: { enabled?: boolean; secrets?: Array<{ secret: string; expiresAt?: Date }> } = {}) => ({
      id,
      url: `https://${id}.example.com/hooks`,
      enabledEvents,
      description: null,
      enabled: options.enabled ?? true,
      secrets: (options.secrets ?? [{ secret: `whsec_${id}` }]).map((s) => ({ ...s, fingerprint: id, createdAt: at })),
      createdAt: at,
      updatedAt: at,
    });

    it('fans an event out to every enabled endpoint that takes its type, and to the notifyUrl alone when the object names one', () => {
      const registry = new MerchantRegistry([{ ...valid, webhookEndpoints: [endpoint('we_all', ['*']), endpoint('we_refunds', ['refund.failed']), endpoint('we_off', ['*'], { enabled: false })] }]);
      expect(registry.eventTargets('MCH-1', 'refund.failed')).toEqual([
        { notifyUrl: 'https://we_all.example.com/hooks', endpointId: 'we_all' },
        { notifyUrl: 'https://we_refunds.example.com/hooks', endpointId: 'we_refunds' },
      ]);
      expect(registry.eventTargets('MCH-1', 'payin.successful').map((t) => t.endpointId)).toEqual(['we_all']);
      expect(registry.eventTargets('MCH-1', 'payin.successful', 'https://order.example.com/1')).toEqual([{ notifyUrl: 'https://order.example.com/1' }]);
      expect(registry.eventTargets('MCH-GONE', 'payin.successful')).toEqual([]);
    });

    it('sends an opt-in event to * only when the merchant opted in, and always to an endpoint that names it', () => {
      const registry = new MerchantRegistry([
        { ...valid, webhookEndpoints: [endpoint('we_all', ['*']), endpoint('we_named', ['payin.attempt_failed'])] },
        { ...valid, merchantId: 'MCH-2', credentials: [{ apiKey: 'pk_2', secretKey: 'sk_2_long_enough_secret' }], webhookOptInEvents: ['payin.attempt_failed'], webhookEndpoints: [endpoint('we_2', ['*'])] },
      ]);
      expect(registry.eventTargets('MCH-1', 'payin.attempt_failed').map((t) => t.endpointId)).toEqual(['we_named']);
      expect(registry.eventTargets('MCH-1', 'payin.attempt_failed', 'https://order.example.com/1')).toEqual([]);
      expect(registry.eventTargets('MCH-2', 'payin.attempt_failed').map((t) => t.endpointId)).toEqual(['we_2']);
    });

    it('signs with the endpoint\'s live secrets, and a notifyUrl with those of the oldest enabled endpoint, else the file\'s secrets', () => {
      let now = at.getTime();
      const rolling = endpoint('we_1', ['*'], { secrets: [{ secret: 'whsec_old', expiresAt: new Date(now + 1000) }, { secret: 'whsec_new' }] });
      const registry = new MerchantRegistry([{ ...valid, webhookSecrets: ['whsec_file'], webhookEndpoints: [endpoint('we_0', ['*'], { enabled: false }), rolling] }], () => now);
      expect(registry.signingSecretsOf('MCH-1', 'we_1')).toEqual(['whsec_old', 'whsec_new']);
      expect(registry.signingSecretsOf('MCH-1')).toEqual(['whsec_old', 'whsec_new']);
      now += 1000;
      expect(registry.signingSecretsOf('MCH-1', 'we_1')).toEqual(['whsec_new']);
      expect(registry.signingSecretsOf('MCH-1', 'we_deleted')).toEqual([]);
      expect(registry.signingSecretsOf('MCH-1', 'we_0')).toEqual([]);
      const withoutEndpoints = new MerchantRegistry([{ ...valid, webhookSecrets: ['whsec_file'] }]);
      expect(withoutEndpoints.signingSecretsOf('MCH-1')).toEqual(['whsec_file']);
      expect(withoutEndpoints.canSignNotifications('MCH-1')).toBe(true);
      expect(new MerchantRegistry([valid]).canSignNotifications('MCH-1')).toBe(false);
    });
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

  it('takes no payment for a merchant no longer known', () => {
    const registry = new MerchantRegistry([valid, { ...valid, merchantId: 'MCH-2', credentials: [key('pk_2', 'active')] }]);
    registry.replace([valid]);
    expect(registry.merchantTakingPayments('MCH-2')).toBeUndefined();
    expect(registry.merchantTakingPayments('MCH-1')?.name).toBe('Shop');
  });
});
