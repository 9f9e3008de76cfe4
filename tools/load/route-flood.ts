// What the load tools that flood one route share: the built service started on loopback, a merchant's
// signed latency measured idle and during the flood, and the flood itself (autocannon, in its own process,
// on its own core where taskset allows). A load tool prints what it measured and never fails on timing.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import { sign } from '@paysign/signing';
import { buildService, freePort, ROOT } from '../bench/service-build';

const KEY = { apiKey: 'pk_sandbox_demo', secretKey: 'sk_sandbox_demo_public_not_secret', merchantId: 'MCH-SANDBOX-0001', tenantId: 'TEN-SANDBOX' };
const BANKS = '/payment/merchant-api/banks';
const PINNED = os.availableParallelism() >= 2 && fs.existsSync('/usr/bin/taskset');
const onCore = (core: number, args: string[]): [string, string[]] => (PINNED ? ['taskset', ['-c', String(core), ...args]] : [args[0] as string, args.slice(1)]);
/** The merchant's own calls stay under its key's limits, so that only the flood is measured. */
const UNLIMITED_SIGNED = { RATE_LIMIT_PER_KEY_PER_SECOND: '100000', RATE_LIMIT_PER_KEY_BURST: '100000' };

async function startService(env: Record<string, string>): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const [command, args] = onCore(0, [process.execPath, path.join(ROOT, 'apps/api/dist/main.js')]);
  const child = spawn(command, args, { env: { ...process.env, PAYSIGN_MODE: 'sandbox', PORT: String(port), LOG_LEVEL: 'warn', ...UNLIMITED_SIGNED, ...env }, stdio: 'ignore' });
  const url = `http://127.0.0.1:${port}`;
  for (const deadline = Date.now() + 60_000; ; await new Promise((r) => setTimeout(r, 200))) {
    if (await fetch(`${url}/payment/health/ready`).then((r) => r.ok, () => false)) return { url, child };
    if (Date.now() > deadline || child.exitCode !== null) throw new Error('the service did not start');
  }
}

/**
 * Signed GETs one after another for `seconds`, from 127.0.0.2: another
 * address than the flood's, as a merchant and an attacker are, so that a
 * limit per address that blocks the flood is not what the merchant meets.
 * Their latencies in ms.
 */
async function signedLatencies(url: string, seconds: number): Promise<number[]> {
  const latencies: number[] = [];
  const { port } = new URL(url);
  for (const deadline = Date.now() + seconds * 1000; Date.now() < deadline; ) {
    const { headers } = sign({ ...KEY, nonce: randomUUID(), timestamp: Math.floor(Date.now() / 1000), method: 'GET', path: BANKS });
    const started = performance.now();
    const status = await new Promise<number>((resolve, reject) => {
      const request = http.get({ host: '127.0.0.1', port: Number(port), path: BANKS, headers: headers as Record<string, string>, localAddress: '127.0.0.2', agent: MERCHANT_AGENT }, (response) => {
        response.resume();
        response.once('end', () => resolve(response.statusCode ?? 0));
      });
      request.once('error', reject);
    });
    if (status !== 200) throw new Error(`signed GET answered ${status}`);
    latencies.push(performance.now() - started);
  }
  return latencies;
}

/** The merchant keeps its connection, as a client of the API does. */
const MERCHANT_AGENT = new http.Agent({ keepAlive: true, maxSockets: 1 });

/** autocannon in a process of its own, 16 connections for `seconds`, with `options` (its own flags: method, headers, body); what the answers were, by status. */
function floodFor(url: string, seconds: number, options: readonly string[]): Promise<string> {
  const [command, args] = onCore(1, [process.execPath, require.resolve('autocannon/autocannon.js'), '--json', '-c', '16', '-d', String(seconds), ...options, url]);
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'ignore'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve, reject) =>
    child.once('exit', () => {
      try {
        const result = JSON.parse(output) as { statusCodeStats?: Record<string, { count: number }> };
        resolve(Object.entries(result.statusCodeStats ?? {}).map(([status, { count }]) => `${count} × ${status}`).join(', '));
      } catch (error) {
        reject(error);
      }
    }),
  );
}

const p95 = (ms: number[]) => [...ms].sort((a, b) => a - b)[Math.floor(ms.length * 0.95)] ?? NaN;

/** What a flood is aimed at: its URL on the service, how it is sent, and what to call it. */
export interface FloodTarget {
  path: (url: string) => Promise<string>;
  autocannonOptions: readonly string[];
  describe: (path: string) => string;
}

/** A merchant's signed p95, idle and then during the flood of `target`, on a service started with `env`; printed under `label`. */
export async function measureFlood(label: string, env: Record<string, string>, target: FloodTarget, seconds: number): Promise<void> {
  const { url, child } = await startService(env);
  try {
    const path = await target.path(url);
    await signedLatencies(url, 1);
    const idle = p95(await signedLatencies(url, seconds));
    const flood = floodFor(`${url}${path}`, seconds + 1, target.autocannonOptions);
    const [during, statuses] = await Promise.all([signedLatencies(url, seconds), flood]);
    console.log(`${label}:`);
    console.log(`  signed GET banks p95: idle ${idle.toFixed(1)} ms, during the flood ${p95(during).toFixed(1)} ms (${(p95(during) / idle).toFixed(2)}×)`);
    console.log(`  ${target.describe(path)} over 16 connections: ${statuses}`);
  } finally {
    child.kill('SIGINT');
    await new Promise((resolve) => child.once('exit', resolve));
  }
}

/** Builds the service, and pins this process to core 0 where it can; says where each side runs. */
export function prepareFlood(): void {
  buildService();
  if (PINNED) execFileSync('taskset', ['-cp', '0', String(process.pid)], { stdio: 'ignore' });
  console.log(PINNED ? 'the service and the merchant on core 0; the flood on core 1 (taskset)' : `not pinned (${os.availableParallelism()} cores, or no taskset)`);
}
