import * as path from 'node:path';

export const TEST_MERCHANTS_FILE = path.join(__dirname, 'merchants.test.json');

export interface TestCredential {
  apiKey: string;
  secretKey: string;
  merchantId: string;
  tenantId: string;
}

export const MERCHANT_A: TestCredential = { apiKey: 'pk_test_a', secretKey: 'sk_test_a_0123456789abcdef0123456789', merchantId: 'MCH-A', tenantId: 'TEN-A' };
export const MERCHANT_A_ROTATED: TestCredential = { ...MERCHANT_A, apiKey: 'pk_test_a_rotated', secretKey: 'sk_test_a_rotated_0123456789abcdef0123' };
export const MERCHANT_B: TestCredential = { apiKey: 'pk_test_b', secretKey: 'sk_test_b_0123456789abcdef0123456789', merchantId: 'MCH-B', tenantId: 'TEN-B' };
