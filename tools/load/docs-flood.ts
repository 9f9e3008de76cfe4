// A merchant's signed latency while another client floods the docs bundle
// (918 KiB of Redoc) over 16 connections: p95 of signed GET banks, idle and
// during the flood, on the built service started here on loopback, once with
// the default per-address limit on the unsigned pages and once with it lifted
// (what serving the bundle itself costs). With two or more cores the service
// and the merchant's client run on core 0, and the flood (autocannon, its own
// process) on core 1, through taskset: an attacker's CPU is neither the
// service's nor the merchant's, so only what the flood costs the service
// shows in the merchant's latency. It stops by itself.
// A load tool, not a test: it prints what it measured and never fails on timing.
//   npm run -s load:docs-flood [-- --seconds 5]
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { sign } from '@paysign/signing';
import { buildService, freePort, ROOT } from '../bench/service-build';

const { values } = parseArgs({ options: { seconds: { type: 'string', default: '5' } } });
const SECONDS = Number(values.seconds);
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

/** Signed GETs one after another for `seconds`; their latencies in ms. */
async function signedLatencies(url: string, seconds: number): Promise<number[]> {
  const latencies: number[] = [];
  for (const deadline = Date.now() + seconds * 1000; Date.now() < deadline; ) {
    const { headers } = sign({ ...KEY, nonce: randomUUID(), timestamp: Math.floor(Date.now() / 1000), method: 'GET', path: BANKS });
    const started = performance.now();
    const response = await fetch(`${url}${BANKS}`, { headers: headers as Record<string, string> });
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`signed GET answered ${response.status}`);
    latencies.push(performance.now() - started);
  }
  return latencies;
}

/** autocannon in a process of its own, 16 connections for `seconds`; what the answers were, by status. */
function floodFor(url: string, seconds: number): Promise<string> {
  const [command, args] = onCore(1, [process.execPath, require.resolve('autocannon/autocannon.js'), '--json', '-c', '16', '-d', String(seconds), url]);
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

async function measure(label: string, env: Record<string, string>): Promise<void> {
  const { url, child } = await startService(env);
  try {
    const page = await (await fetch(`${url}/payment/docs`)).text();
    const bundle = /src="([^"]*redoc\.standalone[^"]*)"/.exec(page)?.[1] ?? '/payment/docs/assets/redoc.standalone.js';
    await signedLatencies(url, 1);
    const idle = p95(await signedLatencies(url, SECONDS));
    const flood = floodFor(`${url}${bundle}`, SECONDS + 1);
    const [during, statuses] = await Promise.all([signedLatencies(url, SECONDS), flood]);
    console.log(`${label}:`);
    console.log(`  signed GET banks p95: idle ${idle.toFixed(1)} ms, during the flood ${p95(during).toFixed(1)} ms (${(p95(during) / idle).toFixed(2)}×)`);
    console.log(`  flood of ${bundle} over 16 connections: ${statuses}`);
  } finally {
    child.kill('SIGINT');
    await new Promise((resolve) => child.once('exit', resolve));
  }
}

async function main(): Promise<void> {
  buildService();
  if (PINNED) execFileSync('taskset', ['-cp', '0', String(process.pid)], { stdio: 'ignore' });
  console.log(PINNED ? 'the service and the merchant on core 0; the flood on core 1 (taskset)' : `not pinned (${os.availableParallelism()} cores, or no taskset)`);
  await measure('default limits on unsigned pages (600 per address per minute, of which 30 for the docs scripts)', {});
  await measure('limits lifted: what serving the bundle costs', { RATE_LIMIT_PUBLIC_PER_ADDRESS_PER_MINUTE: '1000000', RATE_LIMIT_DOCS_ASSETS_PER_ADDRESS_PER_MINUTE: '1000000' });
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
