// SIGTERM on the built service: an in-flight request completes, then the process exits.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { signedCall } from './support/api-client';
import { MERCHANT_A, TEST_MERCHANTS_FILE } from './support/credentials';
import { freePort } from './support/private-redis';

const MAIN = path.resolve(__dirname, '../dist/main.js');

describe('graceful shutdown of the built service', () => {
  it('completes an in-flight request after SIGTERM, then exits', async () => {
    if (!fs.existsSync(MAIN)) throw new Error(`${MAIN} is missing: run \`npx nx run api:build\` (nx runs it before api:test)`);
    const port = await freePort();
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shutdown-'));
    const child = spawn(process.execPath, [MAIN], {
      env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, MERCHANTS_FILE: TEST_MERCHANTS_FILE, ENQUIRY_TIMEOUT_MS: '1500', REDIS_URL: '', DATABASE_URL: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code, signal) => resolve(code ?? (signal ? 0 : null))));
    let output = '';
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    await new Promise<void>((resolve, reject) => {
      const deadline = setTimeout(() => reject(new Error(`the service did not listen within 15 s:\n${output}`)), 15_000);
      child.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('payment service listening')) {
          clearTimeout(deadline);
          resolve();
        }
      });
      child.once('exit', () => reject(new Error(`the service exited before listening:\n${output}`)));
    });

    const baseUrl = `http://127.0.0.1:${port}`;
    // The sandbox account that never answers keeps this request in flight until the enquiry timeout.
    const inFlight = signedCall(baseUrl, { path: '/payment/merchant-api/account/inquiry', body: '{"bankCode":"058","accountNumber":"0000000049"}', credential: MERCHANT_A });
    await new Promise((r) => setTimeout(r, 300));
    const started = Date.now();
    child.kill('SIGTERM');

    const response = await inFlight;
    expect(response.status).toBe(504);
    expect(response.json.code).toBe('UPSTREAM_TIMEOUT');
    expect(await exited).toBe(0);
    expect(Date.now() - started).toBeLessThan(10_000);
    await expect(fetch(`${baseUrl}/payment/health`)).rejects.toThrow();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
});
