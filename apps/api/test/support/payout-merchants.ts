import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { MERCHANT_A, MERCHANT_B, WEBHOOK_SECRETS_A, WEBHOOK_SECRET_B, type TestCredential } from './credentials';

/**
 * Merchants A and B of the test credentials, charged no payin fee so that a
 * payin funds exactly its amount, and ₦25 a payout; their events go to
 * `webhookUrl` (a port nothing listens on, unless a test gives its receiver).
 */
export function payoutMerchantsFile(webhookUrl = 'http://127.0.0.1:9/hooks'): string {
  const entry = (c: TestCredential, name: string, webhookSecrets: readonly string[]) => ({
    merchantId: c.merchantId,
    tenantId: c.tenantId,
    name,
    webhookSecrets,
    webhookUrl,
    fees: { payinPercent: 0, payout: 25 },
    credentials: [{ apiKey: c.apiKey, secretKey: c.secretKey }],
  });
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'payout-merchants-')), 'merchants.json');
  fs.writeFileSync(file, JSON.stringify([entry(MERCHANT_A, 'Merchant A', WEBHOOK_SECRETS_A), entry(MERCHANT_B, 'Merchant B', [WEBHOOK_SECRET_B])]));
  return file;
}
