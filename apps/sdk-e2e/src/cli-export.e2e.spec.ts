// The built paysign CLI exporting a report through a proxy that cuts the
// connection mid-stream, run as a person runs it, against the real service
// in-process: the file it writes is the uncut export, byte for byte.
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { MERCHANT_A, SqlClient, seedPayins, startTestApp, type TestApp } from '@paysign/api/testing';

const PAYSIGN = path.resolve(__dirname, '../../../libs/sdk/bin/paysign.js');
const WINDOW = ['--from', '2026-01-01T00:00:00Z', '--to', '2026-02-01T00:00:00Z'];

/** Runs the CLI without blocking the event loop, so that the in-process service and proxy keep answering. */
function paysign(args: string[], baseUrl: string): Promise<{ code: number; stdout: Buffer; stderr: string }> {
  const env = { PAYSIGN_BASE_URL: baseUrl, PAYSIGN_API_KEY: MERCHANT_A.apiKey, PAYSIGN_SECRET_KEY: MERCHANT_A.secretKey, PAYSIGN_MERCHANT_ID: MERCHANT_A.merchantId, PAYSIGN_TENANT_ID: MERCHANT_A.tenantId };
  return new Promise((resolve) => {
    execFile(process.execPath, [PAYSIGN, ...args], { env: { ...process.env, ...env }, encoding: 'buffer', maxBuffer: 64 * 1024 * 1024, timeout: 60_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr: stderr.toString('utf8') });
    });
  });
}

/**
 * A TCP proxy to the service that cuts each of its first `cuts` connections
 * (both sides destroyed) once `cutAfterBytes` of the answer have passed, at
 * a different place each time; later connections pass whole.
 */
async function cuttingProxy(target: URL, cutAfterBytes: number[]): Promise<{ url: string; connections: () => number; close: () => Promise<void> }> {
  let connections = 0;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const limit = cutAfterBytes[connections++];
    const upstream = net.connect(Number(target.port), target.hostname);
    sockets.add(client).add(upstream);
    let passed = 0;
    client.pipe(upstream);
    upstream.on('data', (chunk: Buffer) => {
      if (limit !== undefined && passed + chunk.length >= limit) {
        client.write(chunk.subarray(0, limit - passed));
        client.destroy();
        upstream.destroy();
        return;
      }
      passed += chunk.length;
      client.write(chunk);
    });
    upstream.on('end', () => client.end());
    for (const socket of [client, upstream]) socket.on('error', () => undefined).on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    connections: () => connections,
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

describe('paysign export against the real service', () => {
  let api: TestApp;
  beforeAll(async () => {
    if (!fs.existsSync(PAYSIGN.replace('bin/paysign.js', 'dist/cli.js'))) throw new Error('libs/sdk/dist is missing: nx runs sdk:build before sdk-e2e:test');
    // Batches of 100: the cuts fall inside the stream, between and within batches.
    api = await startTestApp({ REPORT_BATCH_ROWS: '100' });
    await seedPayins(api.app.get<SqlClient>(SqlClient), { merchantId: MERCHANT_A.merchantId, count: 3000, from: new Date('2026-01-01T00:00:00Z'), spacingMs: 500 });
  });
  afterAll(() => api.close());

  it('resumes a transfer cut mid-stream after the last complete row, and writes what an uncut export writes, byte for byte', async () => {
    const uncut = await paysign(['export', 'payins', ...WINDOW], api.baseUrl);
    expect([uncut.code, uncut.stderr]).toEqual([0, 'paysign export: payins: 3000 rows, ' + uncut.stdout.length + ' bytes.\n']);
    expect(uncut.stdout.toString('utf8').split('\r\n')).toHaveLength(3002);

    // Three cuts: inside the first batch, inside a quoted field's neighbourhood further on, and deep in the stream.
    const proxy = await cuttingProxy(new URL(api.baseUrl), [20_000, 90_000, 250_000]);
    try {
      const cut = await paysign(['export', 'payins', ...WINDOW, '--retry-delay-ms', '10'], proxy.url);
      expect(cut.code).toBe(0);
      expect(proxy.connections()).toBe(4);
      expect(cut.stderr.match(/transfer cut after [0-9]+ rows/g)).toHaveLength(3);
      expect(cut.stdout.equals(uncut.stdout)).toBe(true);
    } finally {
      await proxy.close();
    }
  });

  it('gives up after the tries it was given, says how far it got, and leaves complete rows only', async () => {
    // Some rows, then connections cut inside the answer's head: no progress.
    const proxy = await cuttingProxy(new URL(api.baseUrl), [5_000, ...Array.from({ length: 10 }, () => 100)]);
    try {
      const cut = await paysign(['export', 'payins', ...WINDOW, '--retries', '2', '--retry-delay-ms', '10'], proxy.url);
      expect(cut.code).toBe(1);
      expect(cut.stderr).toMatch(/gave up after 2 tries in a row without a new record: .*\. [0-9]+ complete rows were written; the last row's cursor is [A-Za-z0-9_-]+\. Run again to download the whole report\./);
      const text = cut.stdout.toString('utf8');
      expect(text.endsWith('\r\n')).toBe(true);
      expect(text.startsWith('reference,status,amount,')).toBe(true);
      expect(text.split('\r\n').length).toBeGreaterThan(3);
    } finally {
      await proxy.close();
    }
  });

  it('refuses a window the report refuses, with its reason, and retries nothing', async () => {
    const refused = await paysign(['export', 'payins', '--from', '2026-02-01T00:00:00Z', '--to', '2026-01-01T00:00:00Z'], api.baseUrl);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('paysign export: VALIDATION_FAILED: The request has 1 invalid field: to must be later than from.');
    expect(refused.stdout.length).toBe(0);
  });
});
