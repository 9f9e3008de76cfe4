// What one instance sustains, against the framework floor, side by side in one
// run: a bare Fastify route serving the same bank list, the same Nest app
// serving the same bank list on a route without the signature check (the
// build in apps/api/dist/bench-server.js adds that one route), the app's
// liveness probe, signed GET /payment/merchant-api/banks on the memory and
// on the Redis nonce store, and account enquiry and payin creation on the
// embedded (PGlite) and the PostgreSQL payin stores. Every signed request has
// a fresh nonce and a valid signature. Each run follows 3 s of the same load, not
// counted (in --rounds, each contender gets those 3 s once, before the first round).
// A benchmark, not a test: it prints what it measured and never fails on timing.
//   npm run -s bench:server [-- --json] [-- --seconds N] [-- --short]
//   npm run -s bench:server -- --memory [--seconds 60] [--rate 3000] [--plot FILE.svg] [--json]
//   npm run -s bench:server -- --rate-fraction 0.5 [--seconds N] [--profile DIR] [--json]
//   npm run -s bench:server -- --money [--seconds N] [--profile DIR] [--json]
//   npm run -s bench:server -- --rounds R [--seconds N] [--short] [--json]
//   npm run -s bench:server -- --ablate [--money] [--rounds R] [--seconds N] [--rate-fraction F] [--against FILE] [--short] [--json]
//   npm run -s bench:server -- --idle [--rounds R] [--seconds N] [--against FILE] [--short] [--json]
// --ablate: what each per-request component costs, by switching it off; see ablate.ts.
// --idle: what a service process costs while it serves nothing, on each store; see idle.ts.
// --rate-fraction F: each route offered F of its own saturation; see fixed-rate.ts.
// --money measures only payin, payout and refund creation on PostgreSQL, the
// paths that move money; --profile DIR then prints the top entries of each run.
// --rounds R measures bare Fastify, the unguarded route and the signed route
// at saturation in R interleaved rounds of SECONDS (default 3) each, the order
// turned one place each round, and prints each round's ratios and their
// median: a contender's figure moves with the machine's speed from one minute
// to the next, and runs side by side in time share more of that drift. Both
// servers stay up on core 0 throughout, the idle one included. It also prints
// each contender's server CPU per request and how busy the server and the
// generator were; see rounds.ts.
// --memory offers signed requests at a fixed rate to the memory nonce store (payins on
// a fresh PostgreSQL database at DATABASE_URL, as in production) with
// a 20 s nonce TTL, then stays idle, sampling each second the nonces held (from
// /payment/metrics) and the server's RSS and heap, and draws them with --plot.
// With two or more cores, the servers run on core 0 and the load generator
// (autocannon, 50 connections) on core 1, through taskset; the output says so.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { cpuMicros, cpuProfileFlags, printProfile, summarizeProfile } from './cpu';
import { measureAblations } from './ablate';
import { buildService } from './service-build';
import { bankListOf, bareServerFile, MAIN, PINNED, SERVICE_ENV, signed, startServer, stop, stopBare, withPrivateDatabase } from './service-process';
import { measureMemoryPlateau } from './memory-plateau';
import { measureInRounds } from './rounds';
import { measureAtFixedRate } from './fixed-rate';
import { measureIdle } from './idle';
import { moneyPaths, REFUNDABLE_PAYINS } from './money-paths';

const { values } = parseArgs({
  options: {
    json: { type: 'boolean', default: false },
    short: { type: 'boolean', default: false },
    seconds: { type: 'string' },
    memory: { type: 'boolean', default: false },
    rate: { type: 'string', default: '3000' },
    plot: { type: 'string' },
    'rate-fraction': { type: 'string' },
    profile: { type: 'string' },
    money: { type: 'boolean', default: false },
    rounds: { type: 'string' },
    ablate: { type: 'boolean', default: false },
    idle: { type: 'boolean', default: false },
    against: { type: 'string' },
  },
});
const SECONDS = Number(values.seconds ?? (values.memory ? 60 : values.short ? 1 : values.rounds !== undefined ? 3 : 8));
/** Load before each measured run, not counted: the first seconds of a fresh process run cold code. */
const WARMUP_SECONDS = values.short ? 0 : 3;
const CONNECTIONS = 50;
const REDIS_URL = process.env.REDIS_URL || 'redis://127.0.0.1:6379';

interface Figures {
  rps: number;
  p50Ms: number;
  p99Ms: number;
  p999Ms: number;
  requests: number;
  non2xx: number;
}


/** One autocannon run; `request` gives each request its path, headers and body, signed afresh when needed. `overallRate` caps the requests per second. */
async function load(url: string, request: () => { method: string; path: string; headers?: Record<string, string>; body?: string }, overallRate?: number, seconds = SECONDS): Promise<Figures> {
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: seconds,
    ...(overallRate === undefined ? {} : { overallRate }),
    requests: [{ setupRequest: (original) => ({ ...original, ...request() }) as autocannon.Request }],
  });
  return { rps: Math.round(result.requests.average), p50Ms: result.latency.p50, p99Ms: result.latency.p99, p999Ms: result.latency.p99_9, requests: result.requests.total, non2xx: result.non2xx };
}

/** A run after a warm-up with the same requests; the warm-up's answers count only in non2xx. */
async function warmedLoad(url: string, request: Parameters<typeof load>[1]): Promise<Figures & { warmupRequests: number }> {
  const warmup = WARMUP_SECONDS > 0 ? await load(url, request, undefined, WARMUP_SECONDS) : undefined;
  const figures = await load(url, request);
  return { ...figures, non2xx: figures.non2xx + (warmup?.non2xx ?? 0), warmupRequests: warmup?.requests ?? 0 };
}



type RequestOf = Parameters<typeof load>[1];

/** Starts the service, runs each load against it, and stops it; `onStart` reads from it first. */
async function measureService(
  env: Record<string, string>,
  runs: Record<string, RequestOf>,
  onStart?: (url: string) => Promise<void>,
  options: { nodeFlags?: string[]; onRun?: (name: string) => void } = {},
): Promise<Record<string, Figures & { cpuMicrosPerRequest: number }>> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-server-'));
  const service = await startServer([...(options.nodeFlags ?? []), MAIN], { ...SERVICE_ENV, DATA_DIR: dataDir, ...env }, '/payment/health/ready');
  try {
    await onStart?.(service.url);
    const figures: Record<string, Figures & { cpuMicrosPerRequest: number }> = {};
    for (const [name, request] of Object.entries(runs)) {
      options.onRun?.(name);
      // The warm-up's CPU is counted with its requests: the server's time per request over both runs.
      const before = cpuMicros(service.process.pid as number);
      const run = await warmedLoad(service.url, request);
      const cpu = cpuMicros(service.process.pid as number) - before;
      figures[name] = { ...run, cpuMicrosPerRequest: Math.round(cpu / Math.max(1, run.requests + run.warmupRequests)) };
    }
    return figures;
  } finally {
    await stop(service.process);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

function wholeNumberOption(name: string, text: string, min: number, max: number): number {
  const value = /^[0-9]{1,4}$/.test(text) ? Number(text) : Number.NaN;
  if (!(value >= min && value <= max)) throw new Error(`${name} takes a whole number from ${min} to ${max}, such as 5`);
  return value;
}

/** --money: payin, payout and refund creation on PostgreSQL, one merchant, as the full run measures them. */
async function measureMoneyPaths(): Promise<void> {
  const profileDir = values.profile ? path.resolve(values.profile) : undefined;
  const { payinCreate, payoutCreate, refundCreate, fundAndEnquire } = moneyPaths();
  const spawnedAt = performance.now();
  // When each run began, after the service was spawned: a run's profile is the samples until the next began.
  const runStartMs: Record<string, number> = {};
  const figures = await withPrivateDatabase((databaseUrl) =>
    measureService({ DATABASE_URL: databaseUrl }, { payinCreate, payoutCreate, refundCreate }, fundAndEnquire, {
      nodeFlags: profileDir ? cpuProfileFlags(profileDir) : [],
      onRun: (name) => (runStartMs[name] = performance.now() - spawnedAt),
    }),
  );
  const result = {
    node: process.version,
    mode: 'money',
    secondsPerRun: SECONDS,
    warmupSecondsPerRun: WARMUP_SECONDS,
    connections: CONNECTIONS,
    cores: PINNED ? 'server on core 0, load generator on core 1 (taskset)' : `not pinned (${os.availableParallelism()} cores, or no taskset)`,
    payinCreate: figures.payinCreate as Figures & { cpuMicrosPerRequest: number },
    payoutCreate: figures.payoutCreate as Figures & { cpuMicrosPerRequest: number },
    refundCreate: figures.refundCreate as Figures & { cpuMicrosPerRequest: number },
  };
  if (values.json) {
    console.log(JSON.stringify(result));
    return;
  }
  console.log(`PostgreSQL, one merchant, ${CONNECTIONS} connections, ${SECONDS} s each after ${WARMUP_SECONDS} s of warm-up; ${result.cores}`);
  console.log(`${'contender'.padEnd(28)}${'req/s'.padStart(8)}${'p50 ms'.padStart(8)}${'p99 ms'.padStart(8)}${'CPU µs/req'.padStart(12)}${'non-2xx'.padStart(9)}`);
  for (const [name, f] of [['payin create', result.payinCreate], ['payout create', result.payoutCreate], [`refund create, ${REFUNDABLE_PAYINS} payins`, result.refundCreate]] as const) {
    console.log(`${name.padEnd(28)}${String(f.rps).padStart(8)}${String(f.p50Ms).padStart(8)}${String(f.p99Ms).padStart(8)}${String(f.cpuMicrosPerRequest).padStart(12)}${String(f.non2xx).padStart(9)}`);
  }
  if (values.short) console.log('(short mode: too brief for figures worth quoting)');
  if (profileDir) {
    printProfile('the service, payin create at saturation', summarizeProfile(profileDir, runStartMs.payinCreate, 20, runStartMs.payoutCreate), true);
    printProfile('the service, payout create at saturation', summarizeProfile(profileDir, runStartMs.payoutCreate, 20, runStartMs.refundCreate), true);
    printProfile('the service, refund create at saturation', summarizeProfile(profileDir, runStartMs.refundCreate, 20), true);
  }
}

async function main(): Promise<void> {
  // Checked before the build, which takes a minute: a mistyped option fails at once.
  const modes = (['memory', 'money', 'rounds', 'rate-fraction'] as const).filter((mode) => values[mode] !== undefined && values[mode] !== false);
  if (values.against !== undefined && !values.ablate && !values.idle) throw new Error('--against belongs to --ablate or --idle: give one of them');
  if (values.against !== undefined && !fs.existsSync(values.against)) throw new Error(`--against ${values.against}: no such file; give a copy of an earlier build's apps/api/dist/bench-server.js`);
  if (values.idle) {
    const others = (['memory', 'money', 'rate-fraction', 'ablate', 'profile'] as const).filter((option) => values[option] !== undefined && values[option] !== false);
    if (others.length > 0) throw new Error(`--idle takes --rounds, --seconds, --against, --short and --json, not --${others.join(' or --')}`);
    const idleRounds = values.rounds === undefined ? (values.short ? 1 : 3) : wholeNumberOption('--rounds', values.rounds, 1, 100);
    const idleSeconds = values.seconds === undefined ? (values.short ? 3 : 20) : wholeNumberOption('--seconds', values.seconds, 1, 3600);
    buildService();
    return measureIdle({ rounds: idleRounds, seconds: idleSeconds, warmupSeconds: values.short ? 3 : 10, against: values.against, json: values.json, short: values.short });
  }
  if (values.ablate) {
    const ablateRounds = values.rounds === undefined ? (values.short ? 1 : 5) : wholeNumberOption('--rounds', values.rounds, 1, 100);
    const ablateFraction = values['rate-fraction'] === undefined ? 0.5 : Number(values['rate-fraction']);
    if (!(ablateFraction > 0 && ablateFraction <= 1)) throw new Error('--rate-fraction takes a number above 0 and at most 1, such as 0.5');
    if (values.memory) throw new Error('--ablate takes --rounds, --seconds, --rate-fraction and --money, not --memory');
    buildService();
    if (PINNED) execFileSync('taskset', ['-cp', '1', String(process.pid)], { stdio: 'ignore' });
    const seconds = Number(values.seconds ?? (values.short ? 1 : 3));
    return measureAblations({ rounds: ablateRounds, seconds, fraction: ablateFraction, warmupSeconds: WARMUP_SECONDS, connections: CONNECTIONS, json: values.json, short: values.short, against: values.against, money: values.money });
  }
  if (modes.length > 1) throw new Error(`--${modes.join(' and --')} are separate runs: give one of them`);
  const rounds = values.rounds === undefined ? undefined : wholeNumberOption('--rounds', values.rounds, 1, 100);
  const fraction = values['rate-fraction'] === undefined ? undefined : Number(values['rate-fraction']);
  if (fraction !== undefined && !(fraction > 0 && fraction <= 1)) throw new Error('--rate-fraction takes a number above 0 and at most 1, such as 0.5');
  buildService();
  // The load generator takes core 1; the servers it starts take core 0.
  if (PINNED) execFileSync('taskset', ['-cp', '1', String(process.pid)], { stdio: 'ignore' });
  if (values.memory) return measureMemoryPlateau({ rate: Number(values.rate), seconds: SECONDS, plot: values.plot, json: values.json, load: (url, request, rate) => load(url, request, rate) });
  if (values.money) return measureMoneyPaths();
  if (rounds !== undefined) return measureInRounds({ rounds, seconds: SECONDS, warmupSeconds: WARMUP_SECONDS, connections: CONNECTIONS, json: values.json, short: values.short, load: (url, request, seconds) => load(url, request, undefined, seconds) });
  if (fraction !== undefined) return measureAtFixedRate({ fraction, seconds: SECONDS, connections: CONNECTIONS, json: values.json, profile: values.profile, saturate: warmedLoad });

  const banksPath = '/payment/merchant-api/banks';
  const enquiry = signed('POST', '/payment/merchant-api/account/inquiry', '{"bankCode":"058","accountNumber":"0123456785"}');
  const { payinCreate: create, payoutCreate, fundAndEnquire } = moneyPaths();

  // The bank list the service serves is what the bare Fastify route serves, so it is read from the service first.
  let banksJson = '';
  const memory = await measureService(
    {},
    {
      unguarded: () => ({ method: 'GET', path: '/payment/bench/unguarded-banks' }),
      healthLive: () => ({ method: 'GET', path: '/payment/health/live' }),
      guarded: signed('GET', banksPath),
      enquiry,
      payinCreate: create,
      payoutCreate,
    },
    async (url) => {
      await fundAndEnquire(url);
      banksJson = await bankListOf(url);
    },
  );
  const bareFile = bareServerFile(banksJson);
  const bare = await startServer([bareFile], {}, '/ready');
  let bareFigures: Figures;
  try {
    bareFigures = await warmedLoad(bare.url, () => ({ method: 'GET', path: banksPath }));
  } finally {
    await stopBare(bare, bareFile);
  }
  const redis = await measureService({ REDIS_URL }, { guarded: signed('GET', banksPath) });

  const postgres = await withPrivateDatabase((databaseUrl) => measureService({ DATABASE_URL: databaseUrl }, { enquiry, payinCreate: create, payoutCreate }, fundAndEnquire));

  const ratio = (a: number, b: number) => Number((a / b).toFixed(2));
  const m = memory as Record<'unguarded' | 'healthLive' | 'guarded' | 'enquiry' | 'payinCreate' | 'payoutCreate', Figures>;
  const result = {
    node: process.version,
    mode: values.short ? 'short' : 'full',
    secondsPerRun: SECONDS,
    warmupSecondsPerRun: WARMUP_SECONDS,
    connections: CONNECTIONS,
    cores: PINNED ? 'server on core 0, load generator on core 1 (taskset)' : `not pinned (${os.availableParallelism()} cores, or no taskset)`,
    unguardedRoute: 'GET /payment/bench/unguarded-banks: the same app and the same bank list JSON as the signed route, without the signature check',
    bareRps: bareFigures.rps,
    unguardedRps: m.unguarded.rps,
    healthLiveRps: m.healthLive.rps,
    guardedRps: m.guarded.rps,
    guardedP99Ms: m.guarded.p99Ms,
    guardedRedisRps: (redis.guarded as Figures).rps,
    guardedRedisP99Ms: (redis.guarded as Figures).p99Ms,
    enquiry: { pgliteRps: m.enquiry.rps, postgresRps: (postgres.enquiry as Figures).rps },
    payinCreate: { pgliteRps: m.payinCreate.rps, postgresRps: (postgres.payinCreate as Figures).rps },
    payoutCreate: { pgliteRps: m.payoutCreate.rps, postgresRps: (postgres.payoutCreate as Figures).rps },
    non2xx: bareFigures.non2xx + Object.values(memory).reduce((n, f) => n + f.non2xx, 0) + (redis.guarded as Figures).non2xx + Object.values(postgres).reduce((n, f) => n + f.non2xx, 0),
    ratios: {
      guardedToUnguarded: ratio(m.guarded.rps, m.unguarded.rps),
      guardedToBare: ratio(m.guarded.rps, bareFigures.rps),
      redisToMemory: ratio((redis.guarded as Figures).rps, m.guarded.rps),
    },
  };
  if (!values.json) {
    console.log(`requests per second, ${CONNECTIONS} connections, ${SECONDS} s each after ${WARMUP_SECONDS} s of warm-up; ${result.cores}`);
    const rows: Array<[string, number, number | string]> = [
      ['bare Fastify, bank list', result.bareRps, bareFigures.p99Ms],
      ['Nest, bank list without the guard', result.unguardedRps, m.unguarded.p99Ms],
      ['Nest, liveness probe', result.healthLiveRps, m.healthLive.p99Ms],
      ['signed bank list, memory nonces', result.guardedRps, result.guardedP99Ms],
      ['signed bank list, Redis nonces', result.guardedRedisRps, result.guardedRedisP99Ms],
      ['account enquiry, PGlite', result.enquiry.pgliteRps, m.enquiry.p99Ms],
      ['account enquiry, PostgreSQL', result.enquiry.postgresRps, (postgres.enquiry as Figures).p99Ms],
      ['payin create, PGlite', result.payinCreate.pgliteRps, m.payinCreate.p99Ms],
      ['payin create, PostgreSQL', result.payinCreate.postgresRps, (postgres.payinCreate as Figures).p99Ms],
      ['payout create, PGlite', result.payoutCreate.pgliteRps, m.payoutCreate.p99Ms],
      ['payout create, PostgreSQL', result.payoutCreate.postgresRps, (postgres.payoutCreate as Figures).p99Ms],
    ];
    console.log(`${'contender'.padEnd(36)}${'req/s'.padStart(10)}${'p99 ms'.padStart(10)}`);
    for (const [name, rps, p99] of rows) console.log(`${name.padEnd(36)}${String(rps).padStart(10)}${String(p99).padStart(10)}`);
    console.log(`guarded/unguarded ${result.ratios.guardedToUnguarded}, guarded/bare ${result.ratios.guardedToBare}, Redis/memory ${result.ratios.redisToMemory}; non-2xx answers: ${result.non2xx}`);
    if (values.short) console.log('(short mode: too brief for figures worth quoting)');
    return;
  }
  console.log(JSON.stringify(result));
}

void main().catch((error: Error) => {
  console.error(error.message);
  process.exit(1);
});
