// paysign request against the real service, in-process over HTTP.
import { randomUUID } from 'node:crypto';
import * as net from 'node:net';
import { MERCHANT_A, startTestApp, type TestApp } from '@paysign/api/testing';
import { runPaysign } from '../src/cli/paysign';
import { createTestIo } from '../src/cli/testing-io';

describe('paysign request against the real service', () => {
  let api: TestApp;
  beforeAll(async () => {
    api = await startTestApp();
  });
  afterAll(() => api.close());

  const run = async (args: string[], baseUrl = api.baseUrl) => {
    const { io, out, err } = createTestIo({
      env: { PAYSIGN_BASE_URL: baseUrl, PAYSIGN_API_KEY: MERCHANT_A.apiKey, PAYSIGN_SECRET_KEY: MERCHANT_A.secretKey, PAYSIGN_MERCHANT_ID: MERCHANT_A.merchantId, PAYSIGN_TENANT_ID: MERCHANT_A.tenantId },
      now: () => Math.floor(Date.now() / 1000),
      randomUUID,
      fetch: globalThis.fetch,
    });
    const code = await runPaysign(['request', ...args], io);
    const blank = out.indexOf('');
    return { code, err, statusLine: out[0], headers: out.slice(1, blank), body: out.slice(blank + 1).join('\n') };
  };

  it('sends a signed request and prints the status, headers and body', async () => {
    const { code, statusLine, headers, body } = await run(['--method', 'POST', '--path', '/payment/merchant-api/account/inquiry', '--body', '{"bankCode":"058","accountNumber":"0123456785"}']);
    expect(code).toBe(0);
    expect(statusLine).toBe('HTTP 200 OK');
    expect(headers).toEqual(expect.arrayContaining([expect.stringMatching(/^x-request-id: [0-9a-f-]{36}$/), 'content-type: application/json; charset=utf-8']));
    expect(JSON.parse(body)).toEqual({ success: true, code: '00000000', accountName: 'ADAEZE NWOSU', message: 'Success' });
  });

  it('signs a GET without a body', async () => {
    const { code, body } = await run(['--method', 'GET', '--path', '/payment/merchant-api/banks']);
    expect(code).toBe(0);
    expect(JSON.parse(body)).toContainEqual(expect.objectContaining({ code: '058' }));
  });

  it('exits 1 on a non-2xx answer and still prints it', async () => {
    const { code, statusLine, body } = await run(['--method', 'GET', '--path', '/payment/api/payins/never-created']);
    expect(code).toBe(1);
    expect(statusLine).toBe('HTTP 404 Not Found');
    expect(JSON.parse(body)).toMatchObject({ code: 'PAYIN_NOT_FOUND' });
  });

  it('exits 1 with a clear message when nothing listens', async () => {
    const port = await closedPort();
    const { code, err } = await run(['--method', 'GET', '--path', '/payment/merchant-api/banks'], `http://127.0.0.1:${port}`);
    expect(code).toBe(1);
    expect(err.join('\n')).toMatch(new RegExp(`could not reach http://127.0.0.1:${port}/payment/merchant-api/banks: .*ECONNREFUSED.*Check --base-url`));
  });
});

/** A loopback port that was free a moment ago and has nothing listening now. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
