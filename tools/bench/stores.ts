// What the shared stores sustain on this machine, for sizing N instances:
// redis-benchmark on the commands a signed request sends to Redis, and pgbench
// on the statements a payin writes to PostgreSQL, against the real schema (the
// service migrates a fresh database first). A benchmark, not a test.
//   npm run -s bench:stores [-- --json] [-- --seconds N] [-- --short]
// Needs redis-cli, redis-benchmark and pgbench (Debian's redis-tools and postgresql-client). Its Redis keys go
// to database 14 and expire within a minute; its PostgreSQL database is dropped at the end.
import { execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { Pool } from 'pg';
import { buildService, freePort, ROOT } from './service-build';

const { values } = parseArgs({ options: { json: { type: 'boolean', default: false }, seconds: { type: 'string' }, short: { type: 'boolean', default: false } } });
// --short: one second each, to prove the command works; too brief for figures worth quoting.
const SECONDS = Number(values.seconds ?? (values.short ? 1 : 10));
/** Commands each redis-benchmark run sends. */
const BENCHMARK_REQUESTS = values.short ? 20_000 : 200_000;
const CLIENTS = 50;
const REDIS_URL = new URL(process.env.REDIS_URL || 'redis://127.0.0.1:6379');
const DATABASE_URL = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';

/**
 * The Redis rate-limit store's script, read from its source rather than copied,
 * so that the figure is always for the commands the service sends.
 */
function rateLimitScript(): string {
  const source = fs.readFileSync(path.join(ROOT, 'apps/api/src/rate-limit/redis-rate-limit.store.ts'), 'utf8');
  const script = /const HIT_SCRIPT = `([^`]+)`/.exec(source)?.[1];
  if (script === undefined) throw new Error('HIT_SCRIPT was not found in apps/api/src/rate-limit/redis-rate-limit.store.ts');
  return script;
}

function redisBenchmark(requests: number, command: string[]): number {
  const output = execFileSync(
    'redis-benchmark',
    ['-h', REDIS_URL.hostname, '-p', REDIS_URL.port || '6379', '--dbnum', '14', '-c', String(CLIENTS), '-n', String(requests), '-r', '100000000', '--csv', ...command],
    { encoding: 'utf8' },
  );
  // --csv: a header line, then "name","rps",...; the name is the command, whose script may span lines.
  const rps = /","([0-9.]+)"/.exec(output.slice(output.indexOf('\n') + 1))?.[1];
  if (rps === undefined) throw new Error(`redis-benchmark printed no figure: ${output}`);
  return Math.round(Number(rps));
}

function pgbench(database: string, script: string, clients: number): { tps: number; latencyMs: number } {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'pgbench-')), 'script.sql');
  fs.writeFileSync(file, script);
  const url = new URL(DATABASE_URL);
  const output = execFileSync(
    'pgbench',
    ['-h', url.hostname, '-p', url.port || '5432', '-U', decodeURIComponent(url.username) || 'postgres', '-n', '-c', String(clients), '-j', '2', '-T', String(SECONDS), '-M', 'prepared', '-f', file, database],
    { encoding: 'utf8', env: { ...process.env, PGPASSWORD: decodeURIComponent(url.password) } },
  );
  return {
    tps: Math.round(Number(/tps = ([\d.]+)/.exec(output)?.[1])),
    latencyMs: Number(/latency average = ([\d.]+) ms/.exec(output)?.[1]),
  };
}

/** Starts the built service against the database until it is ready, so that its own migrations create the schema. */
async function migrate(databaseUrl: string): Promise<void> {
  buildService();
  const port = await freePort();
  const child = spawn(process.execPath, [path.join(ROOT, 'apps/api/dist/main.js')], { env: { ...process.env, PAYSIGN_MODE: 'sandbox', DATABASE_URL: databaseUrl, PORT: String(port) }, stdio: 'ignore' });
  try {
    for (const deadline = Date.now() + 60_000; ; await new Promise((r) => setTimeout(r, 200))) {
      if (await fetch(`http://127.0.0.1:${port}/payment/health/ready`).then((r) => r.ok, () => false)) return;
      if (Date.now() > deadline || child.exitCode !== null) throw new Error('the service did not start against the benchmark database');
    }
  } finally {
    child.kill('SIGINT');
    await new Promise((resolve) => child.once('exit', resolve));
  }
}

// One payin created (the INSERT the payin repository runs), and one moved out of
// PENDING with its webhook event (the UPDATE and INSERT of one transition, here in one statement).
const CREATE_PAYIN = `\\set n random(1, 1000000000)
INSERT INTO payins (merchant_id, reference, status, amount_minor, currency, customer_email, customer_name, gateway, narration, notify_url, redirect_url,
                    request_fingerprint, created_at, expires_at, checkout_seed, checkout_token_hash)
VALUES ('MCH-BENCH', 'bench-' || :n || '-' || :client_id, 'PENDING', 150050, 'NGN', 'ada@example.com', 'Ada Obi', 'card', 'Order 1042',
        'https://merchant.example.com/hooks', 'https://merchant.example.com/done', md5(:n::text), now(), now() + interval '30 minutes', md5(:n::text), md5(:client_id::text || :n))
ON CONFLICT (merchant_id, reference) DO NOTHING;
`;
const TRANSITION = `WITH moved AS (
  UPDATE payins SET status = 'SUCCESSFUL', paid_at = now(), version = version + 1
  WHERE (merchant_id, reference) = (SELECT merchant_id, reference FROM payins WHERE status = 'PENDING' LIMIT 1 FOR UPDATE SKIP LOCKED) AND status = 'PENDING'
  RETURNING merchant_id, reference, notify_url, version)
INSERT INTO outbox_events (id, merchant_id, object_type, object_id, type, version, payload, notify_url, created_at, status, next_attempt_at)
SELECT 'evt_' || md5(random()::text), merchant_id, 'payin', reference, 'payin.successful', version, '{}', notify_url, now(), 'pending', now() FROM moved;
`;

async function main(): Promise<void> {
  const nonceSetsPerSec = redisBenchmark(BENCHMARK_REQUESTS, ['SET', 'paysign:nonce:pk_bench:__rand_int__', '1', 'NX', 'PX', '60000']);
  // One hit against a signed request's two rules (burst and sustained), with limits no hit reaches, so that both are counted.
  const hitKeys = ['paysign:rate:{pk_bench___rand_int__}:key-burst', 'paysign:rate:{pk_bench___rand_int__}:key-burst:blocked', 'paysign:rate:{pk_bench___rand_int__}:key-sustained', 'paysign:rate:{pk_bench___rand_int__}:key-sustained:blocked'];
  // By its digest, as the service sends it once Redis holds it.
  const scriptSha1 = execFileSync('redis-cli', ['-h', REDIS_URL.hostname, '-p', REDIS_URL.port || '6379', 'SCRIPT', 'LOAD', rateLimitScript()], { encoding: 'utf8' }).trim();
  const rateLimitScriptsPerSec = redisBenchmark(BENCHMARK_REQUESTS, ['EVALSHA', scriptSha1, '4', ...hitKeys, '1000', '1000000', '10000', '10000000']);

  const admin = new Pool({ connectionString: DATABASE_URL });
  const database = `paysign_bench_stores_${process.pid}`;
  await admin.query(`CREATE DATABASE ${database}`);
  let create: { tps: number; latencyMs: number };
  let transition: { tps: number; latencyMs: number };
  try {
    const url = new URL(DATABASE_URL);
    url.pathname = `/${database}`;
    await migrate(url.toString());
    create = pgbench(database, CREATE_PAYIN, 16);
    transition = pgbench(database, TRANSITION, 16);
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await admin.end();
  }

  // A signed request sends Redis one SET NX PX and one rate-limit script (its burst and sustained limits).
  const signedRequestsPerSec = Math.round(1 / (1 / nonceSetsPerSec + 1 / rateLimitScriptsPerSec));
  const result = {
    node: process.version,
    seconds: SECONDS,
    redis: { clients: CLIENTS, nonceSetsPerSec, rateLimitScriptsPerSec, signedRequestsPerSec },
    postgres: { clients: 16, payinCreatesPerSec: create.tps, payinCreateLatencyMs: create.latencyMs, transitionsWithEventPerSec: transition.tps, transitionLatencyMs: transition.latencyMs },
  };
  if (!values.json) {
    console.log(`Redis at ${REDIS_URL.host}, ${CLIENTS} clients (redis-benchmark):`);
    console.log(`  SET NX PX (a nonce claim)        ${nonceSetsPerSec}/s`);
    console.log(`  rate-limit script (2 limits)    ${rateLimitScriptsPerSec}/s`);
    console.log(`  signed requests (1 SET + 1 script) ${signedRequestsPerSec}/s before Redis saturates`);
    console.log(`PostgreSQL, 16 clients, ${SECONDS} s each (pgbench, the service's schema):`);
    console.log(`  payin create (1 INSERT)          ${create.tps}/s, ${create.latencyMs} ms average`);
    console.log(`  transition + webhook event       ${transition.tps}/s, ${transition.latencyMs} ms average`);
    return;
  }
  console.log(JSON.stringify(result));
}

void main().catch((error: Error) => {
  console.error(error.message);
  process.exit(1);
});
