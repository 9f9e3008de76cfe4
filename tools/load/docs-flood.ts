// A merchant's signed latency while another client floods the docs bundle
// (918 KiB of Redoc) over 16 connections: p95 of signed GET banks, idle and
// during the flood, on the built service started here on loopback, once with
// the default per-address limit on the unsigned pages and once with it lifted
// (what serving the bundle itself costs). It stops by itself.
// A load tool, not a test: it prints what it measured and never fails on timing.
//   npm run -s load:docs-flood [-- --seconds 5]
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { sign } from '@paysign/signing';
import autocannon from 'autocannon';
import { buildService, freePort, ROOT } from '../bench/service-build';

const { values } = parseArgs({ options: { seconds: { type: 'string', default: '5' } } });
const SECONDS = Number(values.seconds);
const KEY = { apiKey: 'pk_sandbox_demo', secretKey: 'sk_sandbox_demo_public_not_secret', merchantId: 'MCH-SANDBOX-0001', tenantId: 'TEN-SANDBOX' };
const BANKS = '/payment/merchant-api/banks';
/** The merchant's own calls stay under its key's limits, so that only the flood is measured. */
const UNLIMITED_SIGNED = { RATE_LIMIT_PER_KEY_PER_SECOND: '100000', RATE_LIMIT_PER_KEY_BURST: '100000' };

async function startService(env: Record<string, string>): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(process.execPath, [path.join(ROOT, 'apps/api/dist/main.js')], { env: { ...process.env, PAYSIGN_MODE: 'sandbox', PORT: String(port), LOG_LEVEL: 'warn', ...UNLIMITED_SIGNED, ...env }, stdio: 'ignore' });
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

const p95 = (ms: number[]) => [...ms].sort((a, b) => a - b)[Math.floor(ms.length * 0.95)] ?? NaN;

async function measure(label: string, env: Record<string, string>): Promise<void> {
  const { url, child } = await startService(env);
  try {
    const page = await (await fetch(`${url}/payment/docs`)).text();
    const bundle = /src="([^"]*redoc\.standalone[^"]*)"/.exec(page)?.[1] ?? '/payment/docs/assets/redoc.standalone.js';
    await signedLatencies(url, 1);
    const idle = p95(await signedLatencies(url, SECONDS));
    const flood = autocannon({ url: `${url}${bundle}`, connections: 16, duration: SECONDS + 1 });
    const [during, floodResult] = await Promise.all([signedLatencies(url, SECONDS), flood]);
    const statuses = Object.entries(floodResult.statusCodeStats ?? {}).map(([status, { count }]) => `${count} × ${status}`).join(', ');
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
  await measure('default limit on unsigned pages (600 per address per minute)', {});
  await measure('limit lifted: what serving the bundle costs', { RATE_LIMIT_PUBLIC_PER_ADDRESS_PER_MINUTE: '1000000' });
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
