// SIGTERM on the built service: an in-flight request completes, a stalled one
// is cut after the grace period, and the process exits.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { sign } from '@paysign/signing';
import { signedCall } from './support/api-client';
import { MERCHANT_A, TEST_MERCHANTS_FILE } from './support/credentials';
import { freePort } from './support/private-redis';
import { rawExchange } from './support/raw-http';

const MAIN = path.resolve(__dirname, '../dist/main.js');

interface BuiltService {
  child: ChildProcess;
  baseUrl: string;
  exited: Promise<number | null>;
  dispose(): void;
}

async function startBuiltService(env: Record<string, string> = {}): Promise<BuiltService> {
  if (!fs.existsSync(MAIN)) throw new Error(`${MAIN} is missing: run \`npx nx run api:build\` (nx runs it before api:test)`);
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shutdown-'));
  const child = spawn(process.execPath, [MAIN], {
    env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, MERCHANTS_FILE: TEST_MERCHANTS_FILE, ENQUIRY_TIMEOUT_MS: '1500', REDIS_URL: '', DATABASE_URL: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code, signal) => resolve(code ?? (signal ? 0 : null))));
  let output = '';
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  await new Promise<void>((resolve, reject) => {
    const deadline = setTimeout(() => reject(new Error(`the service did not listen within 30 s:\n${output}`)), 30_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('payment service listening')) {
        clearTimeout(deadline);
        resolve();
      }
    });
    child.once('exit', () => reject(new Error(`the service exited before listening:\n${output}`)));
  });
  return { child, baseUrl: `http://127.0.0.1:${port}`, exited, dispose: () => fs.rmSync(dataDir, { recursive: true, force: true }) };
}

describe('graceful shutdown of the built service', () => {
  it('completes an in-flight request after SIGTERM, then exits', async () => {
    const service = await startBuiltService();
    // The sandbox account that never answers keeps this request in flight until the enquiry timeout.
    const inFlight = signedCall(service.baseUrl, { path: '/payment/merchant-api/account/inquiry', body: '{"bankCode":"058","accountNumber":"0000000049"}', credential: MERCHANT_A });
    await new Promise((r) => setTimeout(r, 300));
    const started = Date.now();
    service.child.kill('SIGTERM');

    const response = await inFlight;
    expect(response.status).toBe(504);
    expect(response.json.code).toBe('UPSTREAM_TIMEOUT');
    expect(await service.exited).toBe(0);
    expect(Date.now() - started).toBeLessThan(10_000);
    await expect(fetch(`${service.baseUrl}/payment/health`)).rejects.toThrow();
    service.dispose();
  });

  it('exits within the grace period while a request whose body never finishes holds its connection', async () => {
    const service = await startBuiltService({ SHUTDOWN_GRACE_MS: '1000', REQUEST_TIMEOUT_MS: '60000', HEADERS_TIMEOUT_MS: '60000' });
    const body = JSON.stringify({ amount: 100, currency: 'NGN', customerEmail: 'ada@example.com', reference: `stall-${randomUUID()}` });
    const { headers } = sign({ ...MERCHANT_A, nonce: randomUUID(), timestamp: Math.floor(Date.now() / 1000), method: 'POST', path: '/payment/api/payins', body });
    const head = ['POST /payment/api/payins HTTP/1.1', 'Host: 127.0.0.1', 'Content-Type: application/json', `Content-Length: ${body.length}`, ...Object.entries(headers).map(([n, v]) => `${n}: ${v}`), '', ''].join('\r\n');
    const stalled = rawExchange(service.baseUrl, [head, body.slice(0, 5)], 20_000);
    await new Promise((r) => setTimeout(r, 300));
    const started = Date.now();
    service.child.kill('SIGTERM');

    expect(await service.exited).toBe(0);
    expect(Date.now() - started).toBeLessThan(5000);
    expect((await stalled).closed).toBe(true);
    service.dispose();
  });
});
