// The alert drill: a test deployment on loopback (three instances of the built
// service in production mode, one of them on the Paystack fake, a Redis and a PostgreSQL database of its own,
// and a real Prometheus loading deploy/monitoring/alerts.yaml), where each
// drill breaks something as it breaks in production, waits for its alert to
// fire in Prometheus, then follows the alert's runbook (docs/runbooks.md) to
// recovery, and prints how long each took. The rules' `for:` durations are
// cut from minutes to seconds in the drill's copy, so that a drill takes
// seconds; their expressions and windows are the rules' own. A drill, not a
// test: it prints what it measured, and CI does not run it.
//   npm run -s ops:drill [-- --only PaysignInstanceDown,PaysignStoreDown]
// Needs redis-server and prometheus (Debian's packages), PostgreSQL at
// DATABASE_URL, and the built service (npx nx run api:build).
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { startFakePaystack } from '@paysign/fake-paystack';
import { sign } from '@paysign/signing';
import { Client } from 'pg';

const ROOT = path.resolve(__dirname, '../..');
const MAIN = path.join(ROOT, 'apps/api/dist/main.js');
const DATABASE_URL = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const METRICS_TOKEN = randomBytes(24).toString('base64url');
const { values } = parseArgs({ options: { only: { type: 'string' } } });
const only = values.only?.split(',');

interface Instance {
  name: string;
  port: number;
  child?: ChildProcess;
  env: Record<string, string>;
}

/** A drill: break, then follow the runbook; each step is timed. */
interface Drill {
  alert: string;
  /** Other alerts the same fault fires, each timed from it too. */
  alsoFires?: string[];
  /** What it breaks, as the report says it. */
  fault: string;
  /** What the runbook has the operator do. */
  remedy: string;
  inject(): Promise<void>;
  recover(): Promise<void>;
  /** Whether the service is well again, as the runbook's "how to confirm" checks. */
  recovered(): Promise<boolean>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

async function until(what: string, check: () => Promise<boolean>, timeoutMs: number): Promise<number> {
  const started = Date.now();
  for (;;) {
    // A check that does not answer within 5 s counts as a no: a hung request never stops the drill.
    const answered = await Promise.race([check().catch(() => false), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 5000))]);
    if (answered) return Date.now() - started;
    if (Date.now() - started > timeoutMs) throw new Error(`${what}: not within ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'alert-drill-'));
const children: ChildProcess[] = [];

function launch(command: string, args: string[], env: Record<string, string> = {}, log = 'ignore'): ChildProcess {
  const out = log === 'ignore' ? 'ignore' : fs.openSync(path.join(tmp, log), 'a');
  const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ['ignore', out, out] });
  children.push(child);
  return child;
}

async function main(): Promise<void> {
  if (!fs.existsSync(MAIN)) throw new Error(`${MAIN} is missing: run npx nx run api:build`);
  // A database and a Redis of the drill's own.
  const database = `paysign_drill_${randomUUID().slice(0, 8)}`;
  const admin = new Client({ connectionString: DATABASE_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${database}`);
  const databaseUrl = Object.assign(new URL(DATABASE_URL), { pathname: `/${database}` }).toString();
  const redisPort = await freePort();
  let redis: ChildProcess | undefined;
  const startRedis = () => (redis = launch('redis-server', ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no']));
  const stopRedis = async () => {
    const child = redis;
    redis = undefined;
    if (!child || child.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGKILL');
    });
  };
  startRedis();
  const keyring = `k1:${randomBytes(32).toString('base64')}`;
  const drillDb = async <T>(work: (db: Client) => Promise<T>): Promise<T> => {
    const db = new Client({ connectionString: databaseUrl });
    await db.connect();
    try {
      return await work(db);
    } finally {
      await db.end();
    }
  };
  const baseEnv = {
    PAYSIGN_MODE: 'production',
    DATABASE_URL: databaseUrl,
    REDIS_URL: `redis://127.0.0.1:${redisPort}`,
    SECRETS_KEYRING: keyring,
    PUBLIC_BASE_URL: 'https://pay.example.com',
    CHECKOUT_TOKEN_SECRET: randomBytes(32).toString('base64url'),
    ACCOUNT_NAME_PROVIDER: 'sandbox',
    METRICS_TOKEN,
    HEALTH_PROBE_INTERVAL_MS: '500',
    LEDGER_CHECK_INTERVAL_SECONDS: '60',
    LOG_LEVEL: 'warn',
    HOST: '127.0.0.1',
  };
  const instances: Instance[] = [];
  for (const name of ['api-1', 'api-2']) instances.push({ name, port: await freePort(), env: { ...baseEnv } });
  // A third instance on Paystack (the fake, its documented API on loopback), for the provider's alerts; one merchant's failures open no circuit alone.
  const paystackKey = `sk_live_${randomBytes(20).toString('hex')}`;
  const fake = await startFakePaystack({ secretKey: paystackKey });
  fake.addAccount({ bankCode: '058', accountNumber: '0123456785', accountName: 'ADA OBI' });
  const onPaystack: Instance = {
    name: 'api-paystack',
    port: await freePort(),
    env: { ...baseEnv, ACCOUNT_NAME_PROVIDER: 'paystack', PAYSTACK_SECRET_KEY: paystackKey, PAYSTACK_BASE_URL: fake.url, PROVIDER_CIRCUIT_SOURCES: '1', ENQUIRY_CACHE_TTL_SECONDS: '0' },
  };
  instances.push(onPaystack);
  const startInstance = async (instance: Instance) => {
    instance.child = launch(process.execPath, [MAIN], { ...instance.env, PORT: String(instance.port) }, `${instance.name}.log`);
    await until(`${instance.name} listening`, async () => (await fetch(`http://127.0.0.1:${instance.port}/payment/health/live`)).ok, 60_000);
  };
  const stopInstance = async (instance: Instance) => {
    const child = instance.child;
    if (!child || child.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGKILL');
    });
  };

  // Prometheus, loading the rules with `for:` in seconds rather than minutes.
  const rules = fs.readFileSync(path.join(ROOT, 'deploy/monitoring/alerts.yaml'), 'utf8').replace(/^(\s+for: )(\d+)m$/gm, '$1$2s');
  fs.writeFileSync(path.join(tmp, 'rules.yaml'), rules);
  fs.writeFileSync(path.join(tmp, 'token'), METRICS_TOKEN);
  const promPort = await freePort();
  const writePrometheusConfig = (targets: Instance[]) => fs.writeFileSync(
    path.join(tmp, 'prometheus.yml'),
    [
      'global: { scrape_interval: 1s, evaluation_interval: 1s }',
      'rule_files: [rules.yaml]',
      'scrape_configs:',
      '  - job_name: paysign',
      '    metrics_path: /payment/metrics',
      `    authorization: { credentials_file: ${path.join(tmp, 'token')} }`,
      '    static_configs:',
      `      - targets: [${targets.map((i) => `'127.0.0.1:${i.port}'`).join(', ')}]`,
      '',
    ].join('\n'),
  );
  writePrometheusConfig(instances);
  let prometheus: ChildProcess | undefined;
  // Prometheus reads its configuration again on SIGHUP, as after a change of service discovery.
  const reconfigure = async (targets: Instance[]) => {
    writePrometheusConfig(targets);
    prometheus?.kill('SIGHUP');
  };

  const firing = async (alert: string): Promise<boolean> => {
    const body = (await (await fetch(`http://127.0.0.1:${promPort}/api/v1/alerts`)).json()) as { data: { alerts: Array<{ labels: { alertname: string }; state: string }> } };
    return body.data.alerts.some((a) => a.labels.alertname === alert && a.state === 'firing');
  };
  const ready = async (instance: Instance) => (await fetch(`http://127.0.0.1:${instance.port}/payment/health/ready`)).status === 200;
  const signedBanks = (instance: Instance, credential: { apiKey: string; secretKey: string; merchantId: string; tenantId: string }, tamper = false) => {
    const { headers } = sign({ ...credential, nonce: randomUUID(), timestamp: Math.floor(Date.now() / 1000), method: 'GET', path: '/payment/merchant-api/banks', body: undefined });
    const sent = { ...(headers as Record<string, string>) };
    if (tamper) sent['X-Signature'] = 'f'.repeat(64);
    return fetch(`http://127.0.0.1:${instance.port}/payment/merchant-api/banks`, { headers: sent });
  };
  const signedPost = (instance: Instance, credential: { apiKey: string; secretKey: string; merchantId: string; tenantId: string }, route: string, body: string) => {
    const { headers } = sign({ ...credential, nonce: randomUUID(), timestamp: Math.floor(Date.now() / 1000), method: 'POST', path: route, body });
    return fetch(`http://127.0.0.1:${instance.port}${route}`, { method: 'POST', headers: { ...(headers as Record<string, string>), 'content-type': 'application/json' }, body });
  };

  try {
    for (const instance of instances) await startInstance(instance);
    prometheus = launch('prometheus', [`--config.file=${path.join(tmp, 'prometheus.yml')}`, `--storage.tsdb.path=${path.join(tmp, 'tsdb')}`, `--web.listen-address=127.0.0.1:${promPort}`], {}, 'prometheus.log');
    await until('prometheus ready', async () => (await fetch(`http://127.0.0.1:${promPort}/-/ready`)).ok, 30_000);
    const merchant = await merchantCommand(baseEnv, ['add', '--merchant-id', 'MCH-DRILL', '--tenant-id', 'TEN-DRILL', '--name', 'Drill Shop', '--json']);
    const credential = { apiKey: merchant.apiKey as string, secretKey: merchant.secretKey as string, merchantId: 'MCH-DRILL', tenantId: 'TEN-DRILL' };
    const [first, second] = instances as [Instance, Instance];
    let badClient: NodeJS.Timeout | undefined;
    let traffic: NodeJS.Timeout | undefined;
    const steady = (send: () => Promise<unknown>, everyMs: number) => setInterval(() => void send().catch(() => undefined), everyMs);
    const enquire = () =>
      signedPost(onPaystack, credential, '/payment/merchant-api/account/inquiry', JSON.stringify({ bankCode: '058', accountNumber: '0123456785' }));

    const drills: Drill[] = [
      {
        alert: 'PaysignInstanceDown',
        fault: 'api-2 killed (SIGKILL)',
        remedy: 'restart the instance (kubectl rollout restart, or its process manager)',
        inject: () => stopInstance(second),
        recover: () => startInstance(second),
        recovered: () => ready(second),
      },
      {
        alert: 'PaysignStoreDown',
        fault: 'Redis killed',
        remedy: 'bring Redis back; the instances recover by themselves',
        inject: stopRedis,
        recover: async () => void startRedis(),
        recovered: async () => (await ready(first)) && (await ready(second)),
      },
      {
        alert: 'PaysignSignatureFailureSpike',
        fault: 'a client signing every request wrongly, 20 a second',
        remedy: "find the key in the `request completed` lines' apiKey and stop the client (here: it stops)",
        inject: async () => {
          badClient = setInterval(() => void signedBanks(first, credential, true).catch(() => undefined), 50);
        },
        recover: async () => clearInterval(badClient),
        recovered: async () => (await signedBanks(first, credential)).status === 200,
      },
      {
        alert: 'PaysignMerchantsLoadRefused',
        fault: "api-2 restarted with a SECRETS_KEYRING that lacks the key sealing the merchants' secrets",
        remedy: 'put the key back after the first, restart, then merchants rewrap',
        inject: async () => {
          await stopInstance(second);
          second.env.SECRETS_KEYRING = `k2:${randomBytes(32).toString('base64')}`;
          await startInstance(second);
        },
        recover: async () => {
          second.env.SECRETS_KEYRING = `${second.env.SECRETS_KEYRING},${keyring}`;
          await stopInstance(second);
          await startInstance(second);
          await merchantCommand({ ...baseEnv, SECRETS_KEYRING: second.env.SECRETS_KEYRING }, ['rewrap', '--json']);
        },
        recovered: async () => (await signedBanks(second, credential)).status === 200,
      },
      {
        alert: 'PaysignHigh5xxRate',
        fault: 'Redis killed under steady signed traffic (10 requests a second), answered 503 STORE_UNAVAILABLE',
        remedy: "read the outcome label (STORE_UNAVAILABLE: a store's runbook), bring Redis back",
        inject: async () => {
          traffic = steady(() => signedBanks(first, credential), 100);
          await stopRedis();
        },
        recover: async () => void startRedis(),
        recovered: async () => (await signedBanks(first, credential)).status === 200,
      },
      {
        alert: 'PaysignRateLimitSaturation',
        fault: 'one key sending 300 signed requests a second, above its 100 a second',
        remedy: "find the key in the 429s' apiKey, and have its merchant slow down (here: it stops)",
        inject: async () => {
          clearInterval(traffic);
          traffic = steady(() => Promise.all([signedBanks(first, credential), signedBanks(first, credential), signedBanks(first, credential)]), 10);
        },
        recover: async () => clearInterval(traffic),
        recovered: async () => (await signedBanks(first, credential)).status === 200,
      },
      {
        alert: 'PaysignProviderFailing',
        alsoFires: ['PaysignProviderCircuitOpen'],
        fault: 'Paystack answering 500 to every call, under an enquiry a second',
        remedy: "check Paystack's status page; wait, the circuit retries alone (here: Paystack recovers)",
        inject: async () => {
          fake.faults.serverErrors = { count: 1_000_000 };
          traffic = steady(enquire, 1000);
        },
        recover: async () => {
          fake.faults.serverErrors = { count: 0 };
        },
        recovered: async () => (await enquire()).status === 200,
      },
      {
        alert: 'PaysignProviderKeyRefused',
        fault: 'api-paystack restarted with a PAYSTACK_SECRET_KEY Paystack does not know',
        remedy: 'put the key from the Paystack dashboard back in the Secret, restart',
        inject: async () => {
          await stopInstance(onPaystack);
          onPaystack.env.PAYSTACK_SECRET_KEY = `sk_live_${randomBytes(20).toString('hex')}`;
          await startInstance(onPaystack);
        },
        recover: async () => {
          clearInterval(traffic);
          traffic = undefined;
          await stopInstance(onPaystack);
          onPaystack.env.PAYSTACK_SECRET_KEY = paystackKey;
          await startInstance(onPaystack);
        },
        recovered: async () => (await enquire()).status === 200,
      },
      {
        alert: 'PaysignAllInstancesDown',
        fault: "every instance gone from Prometheus's targets (as when service discovery no longer finds the pods)",
        remedy: 'find where the pods went (kubectl get pods, the Deployment and its ServiceMonitor) and bring them back',
        inject: () => reconfigure([]),
        recover: () => reconfigure(instances),
        recovered: async () => !(await firing('PaysignAllInstancesDown')),
      },
      {
        alert: 'PaysignLedgerBroken',
        fault: 'an entry written around the ledger (the next scheduled check finds its journal unbalanced)',
        remedy: 'npm run ledger:check names the rows; here the entry is taken back out, and the next check holds',
        inject: async () => {
          await drillDb(async (db) => {
            await db.query("INSERT INTO ledger_accounts (id, merchant_id, currency, kind, balance_minor) VALUES ('platform:NGN:provider_settlement', NULL, 'NGN', 'provider_settlement', NULL) ON CONFLICT DO NOTHING");
            await db.query(
              `WITH journal AS (INSERT INTO ledger_journals (type, merchant_id, currency, object_type, object_id, created_at) VALUES ('settlement', 'MCH-DRILL', 'NGN', 'payin', 'drill-broken', now()) RETURNING id)
               INSERT INTO ledger_entries (journal_id, account_id, merchant_id, kind, currency, type, amount_minor, object_type, object_id, created_at)
               SELECT journal.id, 'platform:NGN:provider_settlement', NULL, 'provider_settlement', 'NGN', 'settlement', 100, 'payin', 'drill-broken', now() FROM journal`,
            );
          });
        },
        recover: async () => {
          await drillDb(async (db) => {
            await db.query('ALTER TABLE ledger_entries DISABLE TRIGGER USER');
            await db.query("DELETE FROM ledger_entries WHERE object_id = 'drill-broken'");
            await db.query("DELETE FROM ledger_journals WHERE object_id = 'drill-broken'");
            await db.query('ALTER TABLE ledger_entries ENABLE TRIGGER USER');
          });
        },
        recovered: async () => !(await firing('PaysignLedgerBroken')),
      },
    ].filter((drill) => !only || only.includes(drill.alert));

    const rows: string[] = [];
    for (const drill of drills) {
      const injected = Date.now();
      console.error(`drill ${drill.alert}: ${drill.fault}`);
      await drill.inject();
      const toFire = await until(`${drill.alert} firing`, () => firing(drill.alert), 240_000).then(() => Date.now() - injected, () => undefined);
      const alsoFired = await Promise.all((drill.alsoFires ?? []).map(async (alert) => ({ alert, at: (await firing(alert).catch(() => false)) ? 'by then' : 'no' })));
      const remedyStarted = Date.now();
      await drill.recover();
      const toRecover = await until(`${drill.alert} recovery`, drill.recovered, 240_000).then(() => Date.now() - remedyStarted, () => undefined);
      for (const also of alsoFired) rows.push(`${also.alert.padEnd(30)} ${(also.at === 'by then' ? 'with it' : 'did not fire').padStart(12)} ${''.padStart(14)}  the same fault as ${drill.alert}`);
      rows.push(`${drill.alert.padEnd(30)} ${(toFire === undefined ? 'did not fire' : `${(toFire / 1000).toFixed(1)} s`).padStart(12)} ${(toRecover === undefined ? 'not recovered' : `${(toRecover / 1000).toFixed(1)} s`).padStart(14)}  ${drill.fault}; runbook: ${drill.remedy}`);
      // The next drill starts from a quiet deployment: this alert's condition gone (its windows aside).
      await until('all instances ready', async () => (await ready(first)) && (await ready(second)) && (await ready(onPaystack)), 60_000).catch(() => undefined);
    }
    console.log(`Alert drill: 3 instances (production mode, one on the Paystack fake), Redis and PostgreSQL of their own, Prometheus evaluating deploy/monitoring/alerts.yaml every 1 s with each for: cut from minutes to seconds.`);
    console.log(`${'alert'.padEnd(30)} ${'to fire'.padStart(12)} ${'to recover'.padStart(14)}  what broke; what the runbook had done`);
    for (const row of rows) console.log(row);
  } finally {
    await fake.close();
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    await new Promise((resolve) => setTimeout(resolve, 500));
    await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`).catch(() => undefined);
    await admin.end();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

/** `node main.js merchants …` with the deployment's environment, its one JSON object. */
async function merchantCommand(env: Record<string, string>, args: string[]): Promise<Record<string, unknown>> {
  const child = spawn(process.execPath, [MAIN, 'merchants', ...args, '--actor', 'drill'], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  if (code !== 0) throw new Error(`merchants ${args.join(' ')} exited ${code}`);
  return JSON.parse(out) as Record<string, unknown>;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
