// Webhook deliveries per second from the built service to local receivers:
// one instance (or --instances N sharing the database) on a fresh PostgreSQL
// database, N due events written straight into the outbox (as a burst of
// transitions would), and the time until the receivers have answered every
// one 200, at once or after --receiver-delay-ms. Events are spread over
// --merchants merchants, each with its own receiver port, so that fairness
// limits per merchant and per receiver are part of what is measured. Each
// event's latency is from the moment it was due to its arrival. CPU time per
// delivery is the service's, and the whole machine's, from /proc.
// A benchmark, not a test: it prints what it measured and never fails on timing.
// --profile DIR writes each instance's CPU profile into DIR and prints its top entries.
//   npm run -s bench:webhooks [-- --short] [-- --events 4000] [-- --merchants 16] [-- --instances 2] [-- --receiver-delay-ms 200] [-- --profile DIR] [-- --json]
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { Pool } from 'pg';
import { cpuMicros, cpuProfileFlags, machineBusyMicros, printProfile, summarizeProfile } from './cpu';
import { buildService, freePort, ROOT } from './service-build';

const { values } = parseArgs({
  options: {
    events: { type: 'string' },
    merchants: { type: 'string' },
    short: { type: 'boolean', default: false },
    instances: { type: 'string', default: '1' },
    'receiver-delay-ms': { type: 'string', default: '0' },
    profile: { type: 'string' },
    json: { type: 'boolean', default: false },
  },
});
// --short: a few events, to prove the command works; too few for figures worth quoting.
const EVENTS = Number(values.events ?? (values.short ? 200 : 4000));
const MERCHANTS = Number(values.merchants ?? (values.short ? 4 : 16));
const INSTANCES = Number(values.instances);
const RECEIVER_DELAY_MS = Number(values['receiver-delay-ms']);
const PROFILE_DIR = values.profile ? path.resolve(values.profile) : undefined;
const DATABASE_URL = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
/** Long enough for any machine; the figure is what was measured before it. */
const DEADLINE_MS = 300_000;

interface Receiver {
  port: number;
  received: () => number;
  /** When each distinct event first arrived (performance.now()). */
  arrivals: () => number[];
  close: () => Promise<void>;
}

/** Answers every POST 200, at once or after RECEIVER_DELAY_MS, noting when each distinct webhook id first arrived. */
async function startReceiver(): Promise<Receiver> {
  const seen = new Map<string, number>();
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const id = String(req.headers['webhook-id']);
      if (!seen.has(id)) seen.set(id, performance.now());
      if (RECEIVER_DELAY_MS > 0) setTimeout(() => res.writeHead(200).end(), RECEIVER_DELAY_MS);
      else res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as { port: number }).port,
    received: () => seen.size,
    arrivals: () => [...seen.values()],
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

function merchantsFile(dir: string): string[] {
  const ids = Array.from({ length: MERCHANTS }, (_, i) => `MCH-BENCH-${String(i + 1).padStart(4, '0')}`);
  const file = path.join(dir, 'merchants.json');
  fs.writeFileSync(
    file,
    JSON.stringify(
      ids.map((merchantId, i) => ({
        merchantId,
        tenantId: 'TEN-BENCH',
        name: `Bench merchant ${i + 1}`,
        webhookSecrets: [`whsec_${Buffer.from(`bench-webhook-secret-${i}-padding-padding`).toString('base64')}`],
        credentials: [{ apiKey: `pk_bench_${i}`, secretKey: `sk_bench_${i}_public_not_secret_padding` }],
      })),
    ),
  );
  return ids;
}

async function startService(databaseUrl: string, merchants: string, port: number): Promise<ChildProcess> {
  buildService();
  const profiling = PROFILE_DIR ? cpuProfileFlags(PROFILE_DIR) : [];
  const child = spawn(process.execPath, [...profiling, path.join(ROOT, 'apps/api/dist/main.js')], {
    env: { ...process.env, PAYSIGN_MODE: 'sandbox', DATABASE_URL: databaseUrl, PORT: String(port), MERCHANTS_FILE: merchants, LOG_LEVEL: 'warn' },
    stdio: 'ignore',
  });
  for (const deadline = Date.now() + 60_000; ; await new Promise((r) => setTimeout(r, 200))) {
    if (await fetch(`http://127.0.0.1:${port}/payment/health/ready`).then((r) => r.ok, () => false)) return child;
    if (Date.now() > deadline || child.exitCode !== null) throw new Error('the service did not start against the benchmark database');
  }
}

/** How long after the (first) service was spawned the events were written: where its profile's delivering begins. */
let loadStartedMs = 0;

async function main(): Promise<void> {
  const admin = new Pool({ connectionString: DATABASE_URL });
  const database = `paysign_bench_webhooks_${process.pid}`;
  await admin.query(`CREATE DATABASE ${database}`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-webhooks-'));
  const receivers = await Promise.all(Array.from({ length: MERCHANTS }, startReceiver));
  const services: ChildProcess[] = [];
  const url = new URL(DATABASE_URL);
  url.pathname = `/${database}`;
  const db = new Pool({ connectionString: url.toString() });
  // An idle connection the server ends (the benchmark's database dropped WITH (FORCE) at the end) is no failure of the run, and
  // unheard it would crash the command; a query's own failure still rejects that query.
  for (const pool of [admin, db]) pool.on('error', () => undefined);
  try {
    const merchantIds = merchantsFile(dir);
    const spawnedAt = performance.now();
    for (let i = 0; i < INSTANCES; i++) services.push(await startService(url.toString(), path.join(dir, 'merchants.json'), await freePort()));
    const rows = Array.from({ length: EVENTS }, (_, i) => {
      const m = i % MERCHANTS;
      return [`evt_${randomUUID().replace(/-/g, '')}`, merchantIds[m], `bench-${i}`, `http://127.0.0.1:${receivers[m]!.port}/hooks`];
    });
    const serviceCpu = () => services.reduce((sum, service) => sum + cpuMicros(service.pid as number), 0);
    const cpuBefore = { service: serviceCpu(), machine: machineBusyMicros() };
    const started = performance.now();
    loadStartedMs = started - spawnedAt;
    await db.query(
      `INSERT INTO outbox_events (id, merchant_id, object_type, object_id, type, version, payload, notify_url, created_at, status, next_attempt_at)
       SELECT id, merchant_id, 'payin', object_id, 'payin.successful', 2, '{"type":"payin.successful"}', notify_url, now(), 'pending', now()
       FROM unnest($1::text[], $2::text[], $3::text[], $4::text[]) AS e(id, merchant_id, object_id, notify_url)`,
      [rows.map((r) => r[0]), rows.map((r) => r[1]), rows.map((r) => r[2]), rows.map((r) => r[3])],
    );
    const total = () => receivers.reduce((sum, r) => sum + r.received(), 0);
    while (total() < EVENTS && performance.now() - started < DEADLINE_MS) await new Promise((r) => setTimeout(r, 20));
    const seconds = (performance.now() - started) / 1000;
    const delivered = total();
    const cpuPerDelivery = (micros: number) => Math.round(micros / Math.max(1, delivered));
    const cpu = { serviceMicrosPerDelivery: cpuPerDelivery(serviceCpu() - cpuBefore.service), machineMicrosPerDelivery: cpuPerDelivery(machineBusyMicros() - cpuBefore.machine) };
    const latencies = receivers.flatMap((r) => r.arrivals()).map((at) => at - started).sort((a, b) => a - b);
    const percentile = (p: number) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? Number.NaN);
    const result = {
      node: process.version,
      events: EVENTS,
      merchants: MERCHANTS,
      instances: INSTANCES,
      receiverDelayMs: RECEIVER_DELAY_MS,
      delivered,
      seconds: Math.round(seconds * 100) / 100,
      deliveriesPerSec: Math.round(delivered / seconds),
      latencyMs: { p50: percentile(50), p99: percentile(99), max: percentile(100) },
      cpu,
    };
    if (values.json) console.log(JSON.stringify(result));
    else {
      const answering = RECEIVER_DELAY_MS > 0 ? `answering 200 after ${RECEIVER_DELAY_MS} ms` : 'answering 200 at once';
      console.log(`${INSTANCES === 1 ? 'One instance' : `${INSTANCES} instances sharing it`}, PostgreSQL, ${MERCHANTS} merchants, each with its own receiver on 127.0.0.1 ${answering}:`);
      console.log(`  ${delivered} of ${EVENTS} events delivered in ${result.seconds} s: ${result.deliveriesPerSec} deliveries/s`);
      console.log(`  from due to delivered: p50 ${result.latencyMs.p50} ms, p99 ${result.latencyMs.p99} ms, the last ${result.latencyMs.max} ms`);
      console.log(`  CPU per delivery: the service ${cpu.serviceMicrosPerDelivery} µs; the whole machine (service, PostgreSQL, receivers, this command) ${cpu.machineMicrosPerDelivery} µs`);
    }
  } finally {
    for (const service of services) service.kill('SIGINT');
    await Promise.all(services.filter((service) => service.exitCode === null).map((service) => new Promise((resolve) => service.once('exit', resolve))));
    await db.end();
    await Promise.all(receivers.map((r) => r.close()));
    await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await admin.end();
    fs.rmSync(dir, { recursive: true, force: true });
  }
  if (PROFILE_DIR && !values.json) printProfile('the service while it delivered', summarizeProfile(PROFILE_DIR, loadStartedMs));
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
