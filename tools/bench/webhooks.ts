// Webhook deliveries per second from one instance to a fast local receiver:
// the built service on a fresh PostgreSQL database, N due events written
// straight into the outbox (as a burst of transitions would), and the time
// until the receiver has answered every one 200. Events are spread over
// --merchants merchants, each with its own receiver port, so that fairness
// limits per merchant and per receiver are part of what is measured.
// A benchmark, not a test: it prints what it measured and never fails on timing.
//   npm run -s bench:webhooks [-- --events 2000] [-- --merchants 4] [-- --json]
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { Pool } from 'pg';
import { buildService, freePort, ROOT } from './service-build';

const { values } = parseArgs({
  options: {
    events: { type: 'string', default: '2000' },
    merchants: { type: 'string', default: '4' },
    json: { type: 'boolean', default: false },
  },
});
const EVENTS = Number(values.events);
const MERCHANTS = Number(values.merchants);
const DATABASE_URL = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
/** Long enough for any machine; the figure is what was measured before it. */
const DEADLINE_MS = 300_000;

interface Receiver {
  port: number;
  received: () => number;
  close: () => Promise<void>;
}

/** Answers every POST 200 at once, counting distinct webhook ids. */
async function startReceiver(): Promise<Receiver> {
  const seen = new Set<string>();
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      seen.add(String(req.headers['webhook-id']));
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as { port: number }).port,
    received: () => seen.size,
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
  const child = spawn(process.execPath, [path.join(ROOT, 'apps/api/dist/main.js')], {
    env: { ...process.env, PAYSIGN_MODE: 'sandbox', DATABASE_URL: databaseUrl, PORT: String(port), MERCHANTS_FILE: merchants, LOG_LEVEL: 'warn' },
    stdio: 'ignore',
  });
  for (const deadline = Date.now() + 60_000; ; await new Promise((r) => setTimeout(r, 200))) {
    if (await fetch(`http://127.0.0.1:${port}/payment/health/ready`).then((r) => r.ok, () => false)) return child;
    if (Date.now() > deadline || child.exitCode !== null) throw new Error('the service did not start against the benchmark database');
  }
}

async function main(): Promise<void> {
  const admin = new Pool({ connectionString: DATABASE_URL });
  const database = `paysign_bench_webhooks_${process.pid}`;
  await admin.query(`CREATE DATABASE ${database}`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-webhooks-'));
  const receivers = await Promise.all(Array.from({ length: MERCHANTS }, startReceiver));
  let service: ChildProcess | undefined;
  const url = new URL(DATABASE_URL);
  url.pathname = `/${database}`;
  const db = new Pool({ connectionString: url.toString() });
  try {
    const merchantIds = merchantsFile(dir);
    service = await startService(url.toString(), path.join(dir, 'merchants.json'), await freePort());
    const rows = Array.from({ length: EVENTS }, (_, i) => {
      const m = i % MERCHANTS;
      return [`evt_${randomUUID().replace(/-/g, '')}`, merchantIds[m], `bench-${i}`, `http://127.0.0.1:${receivers[m]!.port}/hooks`];
    });
    const started = performance.now();
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
    const result = { node: process.version, events: EVENTS, merchants: MERCHANTS, delivered, seconds: Math.round(seconds * 100) / 100, deliveriesPerSec: Math.round(delivered / seconds) };
    if (values.json) console.log(JSON.stringify(result));
    else {
      console.log(`One instance, PostgreSQL, ${MERCHANTS} merchants, each with its own receiver on 127.0.0.1 answering 200 at once:`);
      console.log(`  ${delivered} of ${EVENTS} events delivered in ${result.seconds} s: ${result.deliveriesPerSec} deliveries/s`);
    }
  } finally {
    service?.kill('SIGINT');
    if (service && service.exitCode === null) await new Promise((resolve) => service!.once('exit', resolve));
    await db.end();
    await Promise.all(receivers.map((r) => r.close()));
    await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await admin.end();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
