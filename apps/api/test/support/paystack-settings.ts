import { payoutMerchantsFile } from './payout-merchants';

/** The live key the fake provider is started with: production takes only a live one. */
export const FAKE_PAYSTACK_LIVE_KEY = 'sk_live_fakepaystack0123456789abcdef0123456789';

/** Production's settings with Paystack behind all three seams, at the fake provider on `fakeUrl`. */
export function paystackEverywhere(fakeUrl: string): Record<string, string> {
  return {
    MERCHANTS_FILE: payoutMerchantsFile('https://merchant.example.com/hooks'),
    ACCOUNT_NAME_PROVIDER: 'paystack',
    PAYMENT_GATEWAY: 'paystack',
    PAYOUT_PROVIDER: 'paystack',
    PAYSTACK_SECRET_KEY: FAKE_PAYSTACK_LIVE_KEY,
    PAYSTACK_BASE_URL: fakeUrl,
    // Room for a busy machine; the tests that lose answers wait these out.
    PROVIDER_TIMEOUT_MS: '2500',
    PAYOUT_PROVIDER_TIMEOUT_MS: '4000',
    ENQUIRY_TIMEOUT_MS: '8000',
    SETTLEMENT_DELAY_SECONDS: '0',
    ENQUIRY_CACHE_TTL_SECONDS: '0',
  };
}
