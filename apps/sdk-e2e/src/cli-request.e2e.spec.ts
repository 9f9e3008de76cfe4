// The built paysign CLI, run as a merchant runs it, against the real service in-process.
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { MERCHANT_A, startTestApp, type TestApp } from '@paysign/api/testing';

const PAYSIGN = path.resolve(__dirname, '../../../libs/sdk/bin/paysign.js');

interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the CLI without blocking the event loop, so that the in-process service keeps answering. */
function paysign(args: string[], env: Record<string, string>): Promise<CliRun> {
  return new Promise((resolve) => {
    execFile(process.execPath, [PAYSIGN, ...args], { env: { ...process.env, ...env }, encoding: 'utf8', timeout: 30_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr });
    });
  });
}

describe('paysign request against the real service', () => {
  let api: TestApp;
  let env: Record<string, string>;
  beforeAll(async () => {
    if (!fs.existsSync(PAYSIGN.replace('bin/paysign.js', 'dist/cli.js'))) throw new Error('libs/sdk/dist is missing: nx runs sdk:build before sdk-e2e:test');
    api = await startTestApp();
    env = { PAYSIGN_BASE_URL: api.baseUrl, PAYSIGN_API_KEY: MERCHANT_A.apiKey, PAYSIGN_SECRET_KEY: MERCHANT_A.secretKey, PAYSIGN_MERCHANT_ID: MERCHANT_A.merchantId, PAYSIGN_TENANT_ID: MERCHANT_A.tenantId };
  });
  afterAll(() => api.close());

  /** The status line, the header lines and the body of a `request` run. */
  const parts = (stdout: string) => {
    const [head = '', body = ''] = stdout.split(/\n\n/, 2);
    const [statusLine, ...headers] = head.split('\n');
    return { statusLine, headers, body };
  };

  it('sends a signed request and prints the status, headers and body', async () => {
    const run = await paysign(['request', '--method', 'POST', '--path', '/payment/merchant-api/account/inquiry', '--body', '{"bankCode":"058","accountNumber":"0123456785"}'], env);
    expect(run.code).toBe(0);
    const { statusLine, headers, body } = parts(run.stdout);
    expect(statusLine).toBe('HTTP 200 OK');
    expect(headers).toEqual(expect.arrayContaining([expect.stringMatching(/^x-request-id: [0-9a-f-]{36}$/), 'content-type: application/json; charset=utf-8']));
    expect(JSON.parse(body)).toEqual({ success: true, code: '00000000', accountName: 'ADAEZE NWOSU', message: 'Success', enquiryId: expect.stringMatching(/^enq_/), expiresAt: expect.any(String) });
  });

  it('signs each run afresh, so the same command works twice', async () => {
    const args = ['request', '--method', 'GET', '--path', '/payment/merchant-api/banks'];
    for (const run of [await paysign(args, env), await paysign(args, env)]) {
      expect(run.code).toBe(0);
      expect(JSON.parse(parts(run.stdout).body)).toContainEqual(expect.objectContaining({ code: '058' }));
    }
  });

  it('exits 1 on a non-2xx answer and still prints it', async () => {
    const run = await paysign(['request', '--method', 'GET', '--path', '/payment/api/payins/never-created'], env);
    expect(run.code).toBe(1);
    const { statusLine, body } = parts(run.stdout);
    expect(statusLine).toBe('HTTP 404 Not Found');
    expect(JSON.parse(body)).toMatchObject({ code: 'PAYIN_NOT_FOUND' });
  });

  it('exits 1 with a clear message when nothing listens', async () => {
    const port = await closedPort();
    const run = await paysign(['request', '--method', 'GET', '--path', '/payment/merchant-api/banks'], { ...env, PAYSIGN_BASE_URL: `http://127.0.0.1:${port}` });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(new RegExp(`could not reach http://127.0.0.1:${port}/payment/merchant-api/banks: .*ECONNREFUSED.*Check --base-url`));
  });

  it('exits 2 on bad input, before sending anything', async () => {
    const run = await paysign(['request', '--method', 'POST', '--path', '/payment/api/payins', '--body', '{"amount":{"value":1}}'], env);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/NESTED_VALUE/);
  });

  it('verifies a request it signed, from the captured head and body', async () => {
    const signed = await paysign(['sign', '--method', 'POST', '--path', '/payment/api/payins', '--body', '{"amount":1000.50,"currency":"NGN"}'], env);
    const { headers } = JSON.parse(signed.stdout.trim().split('\n').pop() ?? '') as { headers: Record<string, string> };
    const dir = fs.mkdtempSync(path.join(api.config.dataDir, 'capture-'));
    fs.writeFileSync(path.join(dir, 'head.txt'), ['POST /payment/api/payins HTTP/1.1', ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)].join('\n'));
    fs.writeFileSync(path.join(dir, 'body.json'), '{"amount":1000.50,"currency":"NGN"}');
    const run = await paysign(['verify', '--headers', path.join(dir, 'head.txt'), '--body-file', path.join(dir, 'body.json')], env);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout.trim().split('\n').pop() ?? '')).toMatchObject({ valid: true, server: { canonicalBody: 'amount=1000.50&currency=NGN' } });
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
