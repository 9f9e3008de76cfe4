// A client that sends `Expect: 100-continue` waits for `100 Continue` before
// sending its body: a refused request must not be told to send it, and an
// admitted one must get its 100, then its answer, and never hang.
import { randomUUID } from 'node:crypto';
import { sign } from '@paysign/signing';
import { SANDBOX_ACCOUNTS } from '../src/providers/sandbox/sandbox-accounts';
import { MERCHANT_A, type TestCredential } from './support/credentials';
import { rawExchange, rawJsonBody } from './support/raw-http';
import { startTestApp, type TestApp } from './support/test-app';

const ENQUIRY = '/payment/merchant-api/account/inquiry';
const CONTINUE = /^HTTP\/1\.1 100 Continue\r\n\r\n/;
/** Long enough for any answer here; an exchange that takes it has hung. */
const WAIT_MS = 5000;
const FOUND = SANDBOX_ACCOUNTS.find((account) => account.behaviour.outcome === 'found') as (typeof SANDBOX_ACCOUNTS)[number] & { behaviour: { accountName: string } };
const FOUND_BODY = JSON.stringify({ bankCode: FOUND.bankCode, accountNumber: FOUND.accountNumber });

/** The head of a POST to the enquiry that expects 100-continue. */
function continueHead(body: string, headers: Record<string, string>): string {
  const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}`);
  return [`POST ${ENQUIRY} HTTP/1.1`, 'Host: 127.0.0.1', 'Content-Type: application/json', `Content-Length: ${Buffer.byteLength(body)}`, 'Expect: 100-continue', ...lines, '', ''].join('\r\n');
}

function signingHeaders(credential: TestCredential, body: string, timestamp = Math.floor(Date.now() / 1000)): Record<string, string> {
  return sign({ ...credential, nonce: randomUUID(), timestamp, method: 'POST', path: ENQUIRY, body }).headers as Record<string, string>;
}

describe('Expect: 100-continue', () => {
  let api: TestApp;
  beforeAll(async () => {
    api = await startTestApp();
  });
  afterAll(() => api.close());

  it.each<[string, () => Record<string, string>, string]>([
    ['no signing headers', () => ({}), 'AUTH_HEADER_MISSING'],
    ['an unknown API key', () => signingHeaders({ ...MERCHANT_A, apiKey: 'pk_unknown' }, FOUND_BODY), 'AUTH_UNKNOWN_API_KEY'],
    ['a timestamp an hour old', () => signingHeaders(MERCHANT_A, FOUND_BODY, Math.floor(Date.now() / 1000) - 3600), 'AUTH_TIMESTAMP_SKEW'],
  ])('refuses a request with %s with 401, without telling it to send its body', async (_name, headers, code) => {
    // The body is never sent: a client waiting for 100 Continue gets its answer all the same, and the service closes the connection.
    const exchange = await rawExchange(api.baseUrl, [continueHead(FOUND_BODY, headers())], WAIT_MS, { afterContinue: FOUND_BODY });
    expect(exchange.response).not.toContain('100 Continue');
    expect(exchange.response).toMatch(/^HTTP\/1\.1 401 /);
    expect(rawJsonBody(exchange.response)).toMatchObject({ code, retryable: false, requestId: expect.any(String) });
    expect(exchange.closed).toBe(true);
  });

  it.each<[string, { body: string; status: string; want: Record<string, unknown> }]>([
    ['an enquiry that is answered', { body: FOUND_BODY, status: '200 OK', want: { success: true, accountName: FOUND.behaviour.accountName } }],
    ['an enquiry with an invalid body', { body: JSON.stringify({ bankCode: FOUND.bankCode }), status: '400 Bad Request', want: { code: 'VALIDATION_FAILED' } }],
  ])('sends 100 Continue to a signed request, then its answer to %s', async (_name, { body, status, want }) => {
    // Connection: close, so that the exchange ends with the answer rather than staying open for the next request.
    const exchange = await rawExchange(api.baseUrl, [continueHead(body, { connection: 'close', ...signingHeaders(MERCHANT_A, body) })], WAIT_MS, { afterContinue: body });
    expect(exchange.response).toMatch(CONTINUE);
    const answer = exchange.response.replace(CONTINUE, '');
    expect(answer.startsWith(`HTTP/1.1 ${status}\r\n`)).toBe(true);
    expect(rawJsonBody(answer)).toMatchObject(want);
    expect(exchange.closed).toBe(true);
    expect(exchange.elapsedMs).toBeLessThan(WAIT_MS);
  });
});
