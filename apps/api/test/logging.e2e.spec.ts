import { signedCall } from './support/api-client';
import { MERCHANT_A } from './support/credentials';
import { startTestApp, type TestApp } from './support/test-app';

describe('request logs', () => {
  let api: TestApp;
  beforeAll(async () => {
    api = await startTestApp();
  });
  afterAll(() => api.close());

  it('log one line per request with id, merchant and outcome, and never a secret, signature or body', async () => {
    const body = '{"amount":77.5,"currency":"NGN","customerEmail":"secret.customer@example.com","reference":"log-1","narration":"very private narration"}';
    const created = await signedCall(api.baseUrl, { path: '/payment/api/payins', body, credential: MERCHANT_A, nonce: 'log-nonce-1' });
    const refused = await signedCall(api.baseUrl, { path: '/payment/merchant-api/banks', credential: { ...MERCHANT_A, secretKey: 'sk_wrong_wrong_wrong' } });

    const lines = api.logs.filter((l) => l.msg === 'request completed');
    expect(lines).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ requestId: created.headers.get('x-request-id'), merchantId: 'MCH-A', outcome: 'OK', status: 201 }),
        expect.objectContaining({ requestId: refused.headers.get('x-request-id'), outcome: 'AUTH_SIGNATURE_MISMATCH', status: 401 }),
      ]),
    );
    const everything = JSON.stringify(api.logs);
    for (const forbidden of [MERCHANT_A.secretKey, 'sk_wrong_wrong_wrong', 'secret.customer@example.com', 'very private narration', 'log-nonce-1']) {
      expect(everything).not.toContain(forbidden);
    }
    expect(everything).not.toMatch(/[0-9a-f]{64}/);
  });
});
