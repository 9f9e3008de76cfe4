import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

export const TEST_MERCHANTS_FILE = path.join(__dirname, 'merchants.test.json');

/** The keyring of production test apps: a key of the tests' own, not the public sandbox one. */
export const TEST_SECRETS_KEYRING = `test-1:${Buffer.from('test-secrets-keyring-key-0123456').toString('base64')}`;

export interface TestCredential {
  apiKey: string;
  secretKey: string;
  merchantId: string;
  tenantId: string;
}

export const MERCHANT_A: TestCredential = { apiKey: 'pk_live_a', secretKey: 'sk_test_a_0123456789abcdef0123456789', merchantId: 'MCH-A', tenantId: 'TEN-A' };
export const MERCHANT_A_ROTATED: TestCredential = { ...MERCHANT_A, apiKey: 'pk_live_a_rotated', secretKey: 'sk_test_a_rotated_0123456789abcdef0123' };
export const MERCHANT_B: TestCredential = { apiKey: 'pk_live_b', secretKey: 'sk_test_b_0123456789abcdef0123456789', merchantId: 'MCH-B', tenantId: 'TEN-B' };

/**
 * Two merchants with API keys of their own, in a merchants file of their own:
 * for suites whose counts live in the shared Redis (rate limits), so that no
 * other suite or earlier run shares their keys.
 */
export function freshMerchants(): { file: string; merchantA: TestCredential; merchantB: TestCredential } {
  const run = randomUUID();
  const merchantA = { ...MERCHANT_A, apiKey: `pk_live_a_${run}` };
  const merchantB = { ...MERCHANT_B, apiKey: `pk_live_b_${run}` };
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'merchants-')), 'merchants.json');
  const entry = (c: TestCredential, name: string) => ({ merchantId: c.merchantId, tenantId: c.tenantId, name, credentials: [{ apiKey: c.apiKey, secretKey: c.secretKey }] });
  fs.writeFileSync(file, JSON.stringify([entry(merchantA, 'Merchant A'), entry(merchantB, 'Merchant B')]));
  return { file, merchantA, merchantB };
}

/** The webhook secrets of merchants.test.json: merchant A holds two, as during a rotation. */
export const WEBHOOK_SECRETS_A = ['whsec_dGVzdC13ZWJob29rLXNlY3JldC1vZi1tZXJjaGFudC1h', 'whsec_cm90YXRlZC10ZXN0LXdlYmhvb2stc2VjcmV0LW9mLWE='] as const;
export const WEBHOOK_SECRET_B = 'whsec_dGVzdC13ZWJob29rLXNlY3JldC1vZi1tZXJjaGFudC1i';

/** A real 1×1 PNG, as a data URL: a logo for branded test merchants. */
export const TEST_LOGO = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

/**
 * The test merchants, with merchant A branded: a display name, a logo, and a
 * light colour white text does not read on, which the service darkens.
 */
export function brandedMerchantsFile(): string {
  const merchants = JSON.parse(fs.readFileSync(TEST_MERCHANTS_FILE, 'utf8')) as Array<Record<string, unknown>>;
  const branded = merchants.map((merchant) => (merchant.merchantId === MERCHANT_A.merchantId ? { ...merchant, displayName: 'Ada Stores', brandColor: '#FFD400', logo: TEST_LOGO } : merchant));
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'branded-merchants-')), 'merchants.json');
  fs.writeFileSync(file, JSON.stringify(branded));
  return file;
}
