import { sign, type SignInput } from './sign';
import type { HeaderBag } from './header-bag';
import { checkSigningHeaders, verify, type VerifyInput } from './verify';

const NOW = 1767225600;
const CREDENTIAL = { apiKey: 'pk_test_verify', secretKey: 'sk_test_verify' };
const BODY = '{"bankCode":"058","accountNumber":"0123456785"}';

function signedRequest(overrides: Partial<SignInput> = {}) {
  const input: SignInput = {
    ...CREDENTIAL,
    nonce: 'nonce-1',
    timestamp: NOW,
    method: 'POST',
    path: '/payment/merchant-api/account/inquiry',
    body: BODY,
    merchantId: 'MCH-1',
    tenantId: 'TEN-1',
    ...overrides,
  };
  const { headers } = sign(input);
  const bag: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) if (value !== undefined) bag[name.toLowerCase()] = value;
  return { method: input.method, path: input.path, body: input.body, headers: bag };
}

function verifyAt(request: ReturnType<typeof signedRequest>, changes: Partial<VerifyInput> = {}) {
  return verify({
    ...request,
    now: NOW,
    secretFor: (apiKey) => (apiKey === CREDENTIAL.apiKey ? CREDENTIAL.secretKey : undefined),
    ...changes,
  });
}

function withHeader(name: string, value: string | string[] | undefined): Partial<VerifyInput> {
  const headers: Record<string, string | string[] | undefined> = { ...signedRequest().headers, [name]: value };
  if (value === undefined) delete headers[name];
  return { headers: headers as HeaderBag };
}

describe('verify', () => {
  it('accepts a correctly signed request and returns what it verified', () => {
    expect(verifyAt(signedRequest())).toEqual({
      ok: true,
      headers: { apiKey: 'pk_test_verify', nonce: 'nonce-1', timestamp: String(NOW), signature: expect.stringMatching(/^[0-9a-f]{64}$/), merchantId: 'MCH-1', tenantId: 'TEN-1' },
      canonicalBody: 'accountNumber=0123456785&bankCode=058',
      bodySha256Hex: expect.stringMatching(/^[0-9a-f]{64}$/),
      baseString: expect.stringContaining('\nPOST\n/payment/merchant-api/account/inquiry\n'),
    });
  });

  it.each<[string, { given: Partial<VerifyInput>; want: Record<string, unknown> }]>([
    ['a missing header', { given: withHeader('x-nonce', undefined), want: { code: 'AUTH_HEADER_MISSING', header: 'X-Nonce' } }],
    ['a repeated header', { given: withHeader('x-nonce', ['a', 'b']), want: { code: 'AUTH_HEADER_MALFORMED', header: 'X-Nonce' } }],
    ['a nonce outside the grammar', { given: withHeader('x-nonce', 'has space'), want: { code: 'AUTH_HEADER_MALFORMED', header: 'X-Nonce' } }],
    ['a nonce of 129 characters', { given: withHeader('x-nonce', 'n'.repeat(129)), want: { code: 'AUTH_HEADER_MALFORMED' } }],
    ['a timestamp with a sign', { given: withHeader('x-timestamp', `+${NOW}`), want: { code: 'AUTH_HEADER_MALFORMED', header: 'X-Timestamp' } }],
    ['a timestamp in milliseconds with a dot', { given: withHeader('x-timestamp', `${NOW}.0`), want: { code: 'AUTH_HEADER_MALFORMED' } }],
    ['an upper-case signature', { given: withHeader('x-signature', 'A'.repeat(64)), want: { code: 'AUTH_HEADER_MALFORMED', header: 'X-Signature' } }],
    ['a short signature', { given: withHeader('x-signature', 'a'.repeat(63)), want: { code: 'AUTH_HEADER_MALFORMED' } }],
    ['an API key with a control character', { given: withHeader('x-api-key', 'pk\ttest'), want: { code: 'AUTH_HEADER_MALFORMED', header: 'X-API-KEY' } }],
    ['an empty merchant ID', { given: withHeader('x-merchant-id', ''), want: { code: 'AUTH_HEADER_MALFORMED', header: 'X-Merchant-ID' } }],
    ['an unknown API key', { given: { secretFor: () => undefined }, want: { code: 'AUTH_UNKNOWN_API_KEY' } }],
    ['a clock 301 s ahead of the client', { given: { now: NOW + 301 }, want: { code: 'AUTH_TIMESTAMP_SKEW', serverTime: NOW + 301, skewSeconds: -301 } }],
    ['a clock 301 s behind the client', { given: { now: NOW - 301 }, want: { code: 'AUTH_TIMESTAMP_SKEW', serverTime: NOW - 301, skewSeconds: 301 } }],
    ['a body that is not the signed one', { given: { body: '{"bankCode":"058","accountNumber":"0123456786"}' }, want: { code: 'AUTH_SIGNATURE_MISMATCH' } }],
    ['a body that re-serialises 1000.50', { given: { body: '{"bankCode":"058","accountNumber":"0123456785","amount":1000.5}' }, want: { code: 'AUTH_SIGNATURE_MISMATCH' } }],
    ['another path', { given: { path: '/payment/merchant-api/account/inquiry?x=1' }, want: { code: 'AUTH_SIGNATURE_MISMATCH' } }],
    ['another method', { given: { method: 'PUT' }, want: { code: 'AUTH_SIGNATURE_MISMATCH' } }],
    ['another secret', { given: { secretFor: () => 'sk_other' }, want: { code: 'AUTH_SIGNATURE_MISMATCH' } }],
    ['a nested body', { given: { body: '{"a":{"b":1}}' }, want: { code: 'NESTED_VALUE' } }],
    ['invalid UTF-8', { given: { body: Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d]) }, want: { code: 'INVALID_UTF8' } }],
  ])('refuses %s', (_name, { given, want }) => {
    expect(verifyAt(signedRequest(), given)).toMatchObject({ ok: false, ...want });
  });

  it.each([
    ['300 s ahead', NOW + 300],
    ['300 s behind', NOW - 300],
  ])('accepts a clock %s at the edge of the window', (_name, now) => {
    expect(verifyAt(signedRequest(), { now })).toMatchObject({ ok: true });
  });

  it('returns the server-side intermediate values on a mismatch, and no secret', () => {
    const result = verifyAt(signedRequest(), { secretFor: () => 'sk_other' });
    expect(result).toMatchObject({
      code: 'AUTH_SIGNATURE_MISMATCH',
      debug: { canonicalBody: 'accountNumber=0123456785&bankCode=058', bodySha256Hex: expect.any(String), baseString: expect.any(String) },
    });
    expect(JSON.stringify(result)).not.toContain('sk_');
  });

  it('checks the timestamp before the body, so a stale request learns nothing about it', () => {
    expect(verifyAt(signedRequest(), { now: NOW + 1000, body: '[' })).toMatchObject({ code: 'AUTH_TIMESTAMP_SKEW' });
  });

  describe('given the result of checkSigningHeaders for the request', () => {
    const secretFor = (apiKey: string) => (apiKey === CREDENTIAL.apiKey ? CREDENTIAL.secretKey : undefined);
    const checkedAt = (request: ReturnType<typeof signedRequest>) => {
      const checked = checkSigningHeaders({ headers: request.headers, now: NOW, secretFor });
      if (!checked.ok) throw new Error(`the headers did not pass: ${checked.code}`);
      return checked;
    };

    it('verifies the body and signature as verify does from the headers', () => {
      const request = signedRequest();
      const { headers: _headers, ...withoutHeaders } = request;
      expect(verify({ ...withoutHeaders, checkedHeaders: checkedAt(request) })).toEqual(verifyAt(request));
    });

    it('still refuses a signature that does not match the body', () => {
      const request = signedRequest();
      expect(verify({ method: request.method, path: request.path, body: '{"bankCode":"058","accountNumber":"0000000000"}', checkedHeaders: checkedAt(request) })).toMatchObject({
        ok: false,
        code: 'AUTH_SIGNATURE_MISMATCH',
      });
    });
  });
});
