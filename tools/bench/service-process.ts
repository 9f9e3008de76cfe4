// What the benchmarks that run the service's bench build share: starting and
// stopping its processes on core 0, signing requests for them, and the bare
// Fastify route that serves the same bank list as the framework's floor.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { sign } from '@paysign/signing';
import { Pool } from 'pg';
import { freePort, ROOT } from './service-build';

// The service's own build plus the bench's twins of the bank list route; see apps/api/bench/bench-server.ts.
export const MAIN = path.join(ROOT, 'apps/api/dist/bench-server.js');
const KEY = { apiKey: 'pk_sandbox_demo', secretKey: 'sk_sandbox_demo_public_not_secret', merchantId: 'MCH-SANDBOX-0001', tenantId: 'TEN-SANDBOX' };
/** The PostgreSQL the benchmarks make their private databases on. */
const ADMIN_DATABASE_URL = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
/** Where another build's bench-server.js runs from, for --against: beside this build's, so that it finds the same node_modules; removed after the run. */
export const AGAINST_MAIN = path.join(path.dirname(MAIN), 'bench-server.against.js');
/** With two or more cores and taskset, the servers run on core 0 and the load generator on core 1. */
export const PINNED = os.availableParallelism() >= 2 && fs.existsSync('/usr/bin/taskset');

/** Starts a server process on core 0 and waits until it answers. */
export async function startServer(args: string[], env: Record<string, string>, readyPath: string): Promise<{ url: string; process: ChildProcess }> {
  const port = await freePort();
  const [command, ...rest] = PINNED ? ['taskset', '-c', '0', process.execPath, ...args] : [process.execPath, ...args];
  const child = spawn(command as string, rest, { env: { ...process.env, ...env, PORT: String(port) }, stdio: ['ignore', 'ignore', 'inherit'] });
  const url = `http://127.0.0.1:${port}`;
  for (const deadline = Date.now() + 60_000; ; await new Promise((r) => setTimeout(r, 200))) {
    const up = await fetch(`${url}${readyPath}`).then((r) => r.ok, () => false);
    if (up) return { url, process: child };
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`the server ${args.join(' ')} did not start`);
  }
}

/** Stops a bare server and removes its script's directory. */
export async function stopBare(bare: { process: ChildProcess }, file: string): Promise<void> {
  await stop(bare.process);
  fs.rmSync(path.dirname(file), { recursive: true, force: true });
}

export async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGINT');
  await exited;
}

export function signed(method: string, requestPath: string, body?: string): () => { method: string; path: string; headers: Record<string, string>; body?: string } {
  return () => {
    const actualBody = body?.replace('{unique}', randomUUID().slice(0, 18));
    const { headers } = sign({ ...KEY, nonce: randomUUID(), timestamp: Math.floor(Date.now() / 1000), method, path: requestPath, body: actualBody });
    return { method, path: requestPath, headers: { ...(headers as Record<string, string>), ...(actualBody === undefined ? {} : { 'content-type': 'application/json' }) }, body: actualBody };
  };
}

/** The service as deployed in sandbox mode, with the rate limits raised out of the way: this measures the instance, not the limits. */
export const SERVICE_ENV = {
  PAYSIGN_MODE: 'sandbox',
  RATE_LIMIT_PER_KEY_PER_SECOND: '100000',
  RATE_LIMIT_PER_KEY_BURST: '100000',
  RATE_LIMIT_ENQUIRY_PER_KEY_PER_MINUTE: '1000000',
  NONCE_STORE_MAX_PER_KEY: '6000000',
};

/**
 * The bank list the signed route serves, which the bare route is to serve
 * too; the unguarded route must serve the same, or the contenders differ in
 * more than the signature check.
 */
export async function bankListOf(url: string): Promise<string> {
  const banksPath = '/payment/merchant-api/banks';
  const response = await fetch(`${url}${banksPath}`, { headers: signed('GET', banksPath)().headers });
  const banksJson = await response.text();
  if (!response.ok) throw new Error(`GET ${banksPath} answered ${response.status}: ${banksJson}`);
  const unguardedJson = await (await fetch(`${url}/payment/bench/unguarded-banks`)).text();
  if (unguardedJson !== banksJson) throw new Error('the unguarded route does not serve the bank list the signed route serves');
  return banksJson;
}

/** Bare Fastify serving `banksJson` on the bank list's path, as the framework's floor: its script, in a directory of its own that `stopBare` removes. */
export function bareServerFile(banksJson: string): string {
  const banksPath = '/payment/merchant-api/banks';
  const script = `const fastify = require(${JSON.stringify(require.resolve('fastify', { paths: [path.join(ROOT, 'apps/api')] }))})({ logger: false });
const body = ${JSON.stringify(banksJson)};
fastify.get(${JSON.stringify(banksPath)}, async (request, reply) => reply.type('application/json; charset=utf-8').send(body));
fastify.get('/ready', async () => 'ok');
fastify.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });`;
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'bench-bare-')), 'bare.js');
  fs.writeFileSync(file, script);
  return file;
}

/** How many private databases this process has made: each is named apart, so that one may be made inside another's use. */
let privateDatabases = 0;

/** Runs `use` with the URL of a fresh database on the PostgreSQL at ADMIN_DATABASE_URL, dropped afterwards. */
export async function withPrivateDatabase<T>(use: (databaseUrl: string) => Promise<T>): Promise<T> {
  const admin = new Pool({ connectionString: ADMIN_DATABASE_URL });
  const database = `paysign_bench_${process.pid}_${(privateDatabases += 1)}`;
  await admin.query(`CREATE DATABASE ${database}`);
  try {
    const url = new URL(ADMIN_DATABASE_URL);
    url.pathname = `/${database}`;
    return await use(url.toString());
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await admin.end();
  }
}

export function medianOf(sorted: readonly number[]): number {
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] as number) : Number((((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2).toFixed(2));
}
