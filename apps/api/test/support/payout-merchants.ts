import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { MERCHANT_A, MERCHANT_B, WEBHOOK_SECRETS_A, WEBHOOK_SECRET_B, type TestCredential } from './credentials';

/** Merchant A's second and third keys, for four eyes: one approves only, one may create and approve. */
export const APPROVER_A: TestCredential = { ...MERCHANT_A, apiKey: 'pk_live_a_approver', secretKey: 'sk_test_a_approver_0123456789abcdef01' };
export const CREATOR_APPROVER_A: TestCredential = { ...MERCHANT_A, apiKey: 'pk_live_a_both', secretKey: 'sk_test_a_both_0123456789abcdef012345' };

export interface PayoutMerchantsOptions {
  /** Merchant A's `payoutApproval`; none when left out. */
  approvalA?: { required: boolean; thresholdNaira?: number };
}

/**
 * Merchants A and B of the test credentials, charged no payin fee so that a
 * payin funds exactly its amount, and ₦25 a payout; their events go to
 * `webhookUrl` (a port nothing listens on, unless a test gives its receiver).
 * Merchant A also holds APPROVER_A (payouts:approve) and CREATOR_APPROVER_A
 * (both roles); its own key has the default roles, everything but approving.
 */
export function payoutMerchantsFile(webhookUrl = 'http://127.0.0.1:9/hooks', options: PayoutMerchantsOptions = {}): string {
  const entry = (c: TestCredential, name: string, webhookSecrets: readonly string[]) => ({
    merchantId: c.merchantId,
    tenantId: c.tenantId,
    name,
    webhookSecrets,
    webhookUrl,
    fees: { payinPercent: 0, payout: 25 },
    credentials: [{ apiKey: c.apiKey, secretKey: c.secretKey }] as Array<Record<string, unknown>>,
  });
  const a = {
    ...entry(MERCHANT_A, 'Merchant A', WEBHOOK_SECRETS_A),
    ...(options.approvalA ? { payoutApproval: options.approvalA } : {}),
  };
  a.credentials.push(
    { apiKey: APPROVER_A.apiKey, secretKey: APPROVER_A.secretKey, roles: ['payouts:approve'] },
    { apiKey: CREATOR_APPROVER_A.apiKey, secretKey: CREATOR_APPROVER_A.secretKey, roles: ['payouts:create', 'payouts:approve'] },
  );
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'payout-merchants-')), 'merchants.json');
  fs.writeFileSync(file, JSON.stringify([a, entry(MERCHANT_B, 'Merchant B', [WEBHOOK_SECRET_B])]));
  return file;
}
