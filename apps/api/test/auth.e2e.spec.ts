import * as net from 'node:net';
import { sign } from '@paysign/signing';
import { signedCall, send } from './support/api-client';
import { MERCHANT_A, MERCHANT_A_ROTATED, MERCHANT_B } from './support/credentials';
import { MerchantRegistry } from '../src/merchants/merchant-registry';
import { describeInProduction } from './support/stores';
import { startProductionTestApp, startTestApp, type TestApp } from './support/test-app';

const NOW = 1767225600;
const BANKS = '/payment/merchant-api/banks';
const ENQUIRY = '/payment/merchant-api/account/inquiry';
const ENQUIRY_BODY = '{"bankCode":"058","accountNumber":"0123456785"}';

/** Raw HTTP, for what fetch cannot send: `write` writes to the connected socket; resolves with all the server answered. */
function overSocket(baseUrl: string, write: (socket: net.Socket) => void): Promise<string> {
  const { port } = new URL(baseUrl);
  return new Promise<string>((resolve, reject) => {
    const socket = net.connect(Number(port), '127.0.0.1', () => write(socket));
    let data = '';
    socket.on('data', (chunk) => (data += chunk));
    socket.on('end', () => resolve(data));
    socket.on('error', reject);
  });
}

describe('signature check over real HTTP', () => {
  let api: TestApp;
  beforeAll(async () => {
    api = await startTestApp({}, { overrides: { clock: () => NOW * 1000 } });
  });
  afterAll(() => api.close());

  it('admits a correctly signed GET and POST', async () => {
    expect((await signedCall(api.baseUrl, { path: BANKS, credential: MERCHANT_A, timestamp: NOW })).status).toBe(200);
    expect((await signedCall(api.baseUrl, { path: ENQUIRY, body: ENQUIRY_BODY, credential: MERCHANT_A, timestamp: NOW })).status).toBe(200);
  });

  it('admits a rotated credential of the same merchant', async () => {
    expect((await signedCall(api.baseUrl, { path: BANKS, credential: MERCHANT_A_ROTATED, timestamp: NOW })).status).toBe(200);
  });

  it.each<[string, { skew: number; want: number }]>([
    ['300 s behind: admitted', { skew: -300, want: 200 }],
    ['300 s ahead: admitted', { skew: 300, want: 200 }],
    ['301 s behind: refused', { skew: -301, want: 401 }],
    ['301 s ahead: refused', { skew: 301, want: 401 }],
  ])('a client clock %s', async (_name, { skew, want }) => {
    const response = await signedCall(api.baseUrl, { path: BANKS, credential: MERCHANT_A, timestamp: NOW + skew });
    expect(response.status).toBe(want);
    if (want === 401) expect(response.json).toMatchObject({ code: 'AUTH_TIMESTAMP_SKEW', serverTime: NOW });
  });

  it.each<[string, { given: Parameters<typeof signedCall>[1]; code: string }]>([
    ['a missing header', { given: { path: BANKS, credential: MERCHANT_A, timestamp: NOW, headers: { 'X-Tenant-ID': undefined } }, code: 'AUTH_HEADER_MISSING' }],
    ['a malformed nonce', { given: { path: BANKS, credential: MERCHANT_A, timestamp: NOW, headers: { 'X-Nonce': 'not/valid' } }, code: 'AUTH_HEADER_MALFORMED' }],
    ['an upper-case signature', { given: { path: BANKS, credential: MERCHANT_A, timestamp: NOW, headers: { 'X-Signature': 'A'.repeat(64) } }, code: 'AUTH_HEADER_MALFORMED' }],
    ['an unknown API key', { given: { path: BANKS, credential: { ...MERCHANT_A, apiKey: 'pk_unknown' }, timestamp: NOW }, code: 'AUTH_UNKNOWN_API_KEY' }],
    ['a stale timestamp', { given: { path: BANKS, credential: MERCHANT_A, timestamp: NOW - 1000 }, code: 'AUTH_TIMESTAMP_SKEW' }],
    ['a wrong secret', { given: { path: BANKS, credential: { ...MERCHANT_A, secretKey: 'sk_wrong_wrong_wrong' }, timestamp: NOW }, code: 'AUTH_SIGNATURE_MISMATCH' }],
    ['a body other than the signed one', { given: { path: ENQUIRY, body: ENQUIRY_BODY, signedBody: '{"bankCode":"058","accountNumber":"0000000018"}', credential: MERCHANT_A, timestamp: NOW }, code: 'AUTH_SIGNATURE_MISMATCH' }],
    ['another merchant ID', { given: { path: BANKS, credential: { ...MERCHANT_A, merchantId: 'MCH-B' }, timestamp: NOW }, code: 'AUTH_MERCHANT_MISMATCH' }],
    ['another tenant ID', { given: { path: BANKS, credential: { ...MERCHANT_B, tenantId: 'TEN-A' }, timestamp: NOW }, code: 'AUTH_MERCHANT_MISMATCH' }],
  ])('refuses %s with 401', async (_name, { given, code }) => {
    const response = await signedCall(api.baseUrl, given);
    expect(response.status).toBe(401);
    expect(response.json).toMatchObject({ code, retryable: false, requestId: response.headers.get('x-request-id') });
  });

  it('refuses a replayed nonce with 401 AUTH_NONCE_REPLAYED', async () => {
    const call = { path: BANKS, credential: MERCHANT_A, timestamp: NOW, nonce: 'replay-me-1' };
    expect((await signedCall(api.baseUrl, call)).status).toBe(200);
    expect((await signedCall(api.baseUrl, call)).json).toMatchObject({ code: 'AUTH_NONCE_REPLAYED' });
  });

  it('scopes nonces to the API key', async () => {
    expect((await signedCall(api.baseUrl, { path: BANKS, credential: MERCHANT_A, timestamp: NOW, nonce: 'shared-nonce' })).status).toBe(200);
    expect((await signedCall(api.baseUrl, { path: BANKS, credential: MERCHANT_B, timestamp: NOW, nonce: 'shared-nonce' })).status).toBe(200);
  });

  it('does not burn a nonce on a request that failed verification', async () => {
    const nonce = 'not-burned';
    expect((await signedCall(api.baseUrl, { path: BANKS, credential: { ...MERCHANT_A, secretKey: 'sk_wrong_wrong_wrong' }, timestamp: NOW, nonce })).status).toBe(401);
    expect((await signedCall(api.baseUrl, { path: BANKS, credential: MERCHANT_A, timestamp: NOW, nonce })).status).toBe(200);
  });

  it('refuses a header sent twice', async () => {
    const first = await signedCall(api.baseUrl, { path: BANKS, credential: MERCHANT_A, timestamp: NOW, nonce: 'dup-1' });
    expect(first.status).toBe(200);
    // Raw HTTP, so the header really goes twice on the wire.
    const raw = await overSocket(api.baseUrl, (socket) => {
      socket.end(`GET ${BANKS} HTTP/1.1\r\nHost: x\r\nX-API-KEY: pk_live_a\r\nX-Nonce: a\r\nX-Nonce: b\r\nX-Timestamp: ${NOW}\r\nX-Signature: ${'a'.repeat(64)}\r\nX-Merchant-ID: MCH-A\r\nX-Tenant-ID: TEN-A\r\nConnection: close\r\n\r\n`);
    });
    expect(raw).toMatch(/^HTTP\/1\.1 401/);
    expect(raw).toContain('"code":"AUTH_HEADER_MALFORMED"');
    expect(raw).toContain('X-Nonce was sent 2 times');
  });

  it('signs the query string: changing it breaks the signature', async () => {
    const signed = await signedCall(api.baseUrl, { path: `${BANKS}?page=1`, signedBody: undefined, credential: MERCHANT_A, timestamp: NOW, nonce: 'q-1' });
    expect(signed.status).toBe(200);
    const { headers } = sign({ ...MERCHANT_A, nonce: 'q-2', timestamp: NOW, method: 'GET', path: `${BANKS}?page=1` });
    const tampered = await send(api.baseUrl, { method: 'GET', path: `${BANKS}?page=2`, headers: headers as Record<string, string> });
    expect(tampered.json).toMatchObject({ code: 'AUTH_SIGNATURE_MISMATCH' });
  });

  it('returns the server-side canonical body, hash and base string on a mismatch in sandbox mode, and no secret', async () => {
    const response = await signedCall(api.baseUrl, { path: ENQUIRY, body: ENQUIRY_BODY, credential: { ...MERCHANT_A, secretKey: 'sk_wrong_wrong_wrong' }, timestamp: NOW, nonce: 'dbg-1' });
    expect(response.json).toMatchObject({
      code: 'AUTH_SIGNATURE_MISMATCH',
      debug: { canonicalBody: 'accountNumber=0123456785&bankCode=058', baseString: `pk_live_a\ndbg-1\n${NOW}\nPOST\n${ENQUIRY}\n${(response.json.debug as { bodySha256Hex: string }).bodySha256Hex}` },
    });
    expect(JSON.stringify(response.json)).not.toContain(MERCHANT_A.secretKey);
  });

  it('leaves operations open that the contract marks unsigned', async () => {
    expect((await send(api.baseUrl, { method: 'GET', path: '/payment/health' })).status).toBe(200);
  });
});

describe('an API key revoked while its request is on its way', () => {
  let api: TestApp;
  beforeAll(async () => {
    api = await startTestApp({}, { overrides: { clock: () => NOW * 1000 } });
  });
  afterAll(() => api.close());

  it('is refused: the signature check does not keep the secret the head was checked with', async () => {
    const { headers } = sign({ ...MERCHANT_A, nonce: 'revoked-1', timestamp: NOW, method: 'POST', path: ENQUIRY, body: ENQUIRY_BODY });
    const head = [`POST ${ENQUIRY} HTTP/1.1`, 'Host: x', 'Content-Type: application/json', `Content-Length: ${ENQUIRY_BODY.length}`, 'Connection: close']
      .concat(Object.entries(headers).map(([name, value]) => `${name}: ${value}`))
      .join('\r\n');
    const raw = await overSocket(api.baseUrl, (socket) => {
      socket.write(`${head}\r\n\r\n`);
      // The head passes the pre-filter; then every merchant goes before the body arrives.
      setTimeout(() => {
        api.app.get(MerchantRegistry).replace([]);
        socket.end(ENQUIRY_BODY);
      }, 300);
    });
    expect(raw).toMatch(/^HTTP\/1\.1 401/);
    expect(raw).toContain('"code":"AUTH_UNKNOWN_API_KEY"');
  });
});

describeInProduction('signature check in production mode', () => {
  let api: TestApp;
  beforeAll(async () => {
    api = await startProductionTestApp();
  });
  afterAll(() => api.close());

  it('reports a mismatch without the debug values', async () => {
    const response = await signedCall(api.baseUrl, { path: BANKS, credential: { ...MERCHANT_A, secretKey: 'sk_wrong_wrong_wrong' } });
    expect(response.json.code).toBe('AUTH_SIGNATURE_MISMATCH');
    expect(response.json).not.toHaveProperty('debug');
  });
});
