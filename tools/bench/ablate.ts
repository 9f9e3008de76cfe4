// bench:server -- --ablate: what each per-request component costs, found by
// taking it away. One process of the bench build per variant, each with one
// component switched off (BENCH_ABLATE, read by apps/api/bench/bench-server.ts
// only), all up at once on core 0; a fixed rate (FRACTION of the full
// service's signed route at saturation) offered to each variant's unguarded
// and signed bank list in turn, in interleaved rounds, the order turned one
// place each round; the server's CPU time per request of each run, from /proc.
// A component's cost in a round is the full service's CPU per request minus
// that of the variant without it; the table gives each cost's median over the
// rounds with the rounds' lowest and highest. Nest's routing is measured the
// same way: the same handler as a plain Fastify route under the same hooks.
// A benchmark, not a test: it prints what it measured and never fails on timing.
// --against FILE adds the full service of another build (FILE: a copy of its
// apps/api/dist/bench-server.js, such as one kept before a change) to the same
// rounds, so that a change's before and after are measured side by side; it
// runs from beside this build's, to find the same files and packages.
// --money adds two columns, the payin create and the payout create: every
// process then runs on one private PostgreSQL database (as production does; a
// pool of 4 and the merchants' LISTEN connection each, so that they fit
// PostgreSQL's 100), each create is offered FRACTION of its own saturation,
// found as the signed route's is, and the payouts draw on one balance funded
// before the rounds. The processes' jobs poll that one database together, and
// send the payouts made. Two more runs are offered the payin create's rate:
// bare Fastify's bank list, and the create's floor (create-floor.ts), bare
// Fastify sending the create's one INSERT through pg.
//   npm run -s bench:server -- --ablate [--money] [--rounds R] [--seconds N] [--rate-fraction F] [--against FILE] [--json]
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import autocannon from 'autocannon';
import { COMPONENTS, EVERY_COMPONENT } from './ablation-components';
import { createFloorRequest, createFloorServerFile } from './create-floor';
import { cpuMicros } from './cpu';
import { moneyPaths, type MoneyPaths } from './money-paths';
import { pacedLoad, type PacedRequest } from './paced-load';
import { AGAINST_MAIN, bankListOf, bareServerFile, MAIN, medianOf, PINNED, SERVICE_ENV, signed, startServer, stop, stopBare, withPrivateDatabase } from './service-process';

type Route = 'unguarded' | 'signed' | 'create' | 'payout';
const EVERY_ROUTE = ['unguarded', 'signed', 'create', 'payout'] as const;
/** The routes that move money, measured with --money only. */
const CREATES: readonly Route[] = ['create', 'payout'];
/** The routes a component is measured on: a signed route's components are the creates' too. */
const ROUTES_OF = { both: EVERY_ROUTE, signed: ['signed', 'create', 'payout'], creates: CREATES } as const;

interface Variant {
  name: string;
  ablate: string[];
  /** The bench build it runs; default this checkout's. */
  main?: string;
  /** Each run: its name in the results, and the request it sends. */
  runs: Array<{ key: string; route: Route; request: () => PacedRequest }>;
}

export interface AblateOptions {
  rounds: number;
  seconds: number;
  fraction: number;
  warmupSeconds: number;
  connections: number;
  json: boolean;
  short: boolean;
  /** Another build's bench-server.js, run beside this one's as `against`. */
  against?: string;
  /** The payin and payout creates on PostgreSQL as third and fourth columns. */
  money: boolean;
}

const BANKS = '/payment/merchant-api/banks';
type Routes = Record<Route, { nest: () => PacedRequest; fastify?: () => PacedRequest }>;
/** Each route's request, and its Fastify twin's where it has one; the creates are bench:server --money's, each with a new reference. */
function routesOf(money: MoneyPaths): Routes {
  return {
    unguarded: { nest: () => ({ method: 'GET', path: '/payment/bench/unguarded-banks' }), fastify: () => ({ method: 'GET', path: '/payment/bench/fastify-unguarded-banks' }) },
    signed: { nest: signed('GET', BANKS), fastify: signed('GET', '/payment/bench/fastify-banks') },
    create: { nest: money.payinCreate },
    payout: { nest: money.payoutCreate },
  };
}

function variants(options: AblateOptions, routes: Routes): Variant[] {
  const measured = (among: readonly Route[]) => among.filter((route) => options.money || !CREATES.includes(route));
  const both = (variant: string, ablate: string[], among: readonly Route[], fastify = false): Variant => ({
    name: variant,
    ablate,
    runs: measured(among).flatMap((route) => {
      const twin = routes[route].fastify;
      return [{ key: `${variant}/${route}`, route, request: routes[route].nest }, ...(fastify && twin ? [{ key: `${variant}/${route}-fastify`, route, request: twin }] : [])];
    }),
  });
  return [
    both('full', [], EVERY_ROUTE, true),
    // The full service again, in a process of its own: its "cost" is what two processes of one build differ by, the floor under every row.
    both('control', [], EVERY_ROUTE),
    ...COMPONENTS.filter(([, , routes]) => measured(ROUTES_OF[routes]).length > 0).map(([name, , routes]) => both(name, [name], ROUTES_OF[routes])),
    both('all', [...EVERY_COMPONENT], EVERY_ROUTE, true),
    ...(options.against === undefined ? [] : [{ ...both('against', [], EVERY_ROUTE), main: AGAINST_MAIN }]),
  ];
}

/**
 * The payout column measures the create, not the send. The sandbox provider
 * holds each send for 60 s, and a process sends one payout at a time
 * (PAYOUT_DISPATCH_CONCURRENCY=1), so that it takes no other until that one
 * ends: at the defaults (2 s, 20 at a time) every process's freed slots took
 * queued payouts from the one table, whichever process made them, during
 * every other variant's runs, and every send of them queued on the one
 * merchant's balance row with the creates. Ad hoc, not a repo command: with
 * 16 other processes polling each second, one process created about 20
 * payouts a second; with them polling once a minute, about 760. The payouts
 * name one enquiry, made before the rounds, which a run longer than its
 * default validity would outlive, and they add up to more than the default
 * daily limit on long runs.
 */
const PAYOUTS_MEASURED_ALONE = { SANDBOX_PAYOUT_DELAY_MS: '60000', PAYOUT_DISPATCH_CONCURRENCY: '1', ENQUIRY_VALIDITY_SECONDS: '86400', PAYOUT_DAILY_LIMIT: '100000000000' };

/** The full service's `request` at saturation (autocannon), on a process started and stopped for it. */
async function saturation(options: AblateOptions, request: () => PacedRequest, env: Record<string, string>): Promise<number> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-ablate-'));
  const server = await startServer([MAIN], { ...SERVICE_ENV, ...env, DATA_DIR: dataDir }, '/payment/health/ready');
  try {
    const saturate = (seconds: number) =>
      autocannon({ url: server.url, connections: options.connections, duration: seconds, requests: [{ setupRequest: (original) => ({ ...original, ...request() }) as autocannon.Request }] });
    if (options.warmupSeconds > 0) await saturate(options.warmupSeconds);
    return Math.round((await saturate(Math.max(1, options.seconds))).requests.average);
  } finally {
    await stop(server.process);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

type Spread = { median: number; min: number; max: number };
const spreadOf = (values: number[]): Spread => {
  const sorted = [...values].sort((a, b) => a - b);
  return { median: medianOf(sorted), min: sorted[0] as number, max: sorted[sorted.length - 1] as number };
};
const round1 = (n: number) => Math.round(n * 10) / 10;

export async function measureAblations(options: AblateOptions): Promise<void> {
  if (!options.money) return measureAblationsOn(options, {});
  // Each process keeps a pool of 4 and one LISTEN connection, so that every variant's connections fit PostgreSQL's 100 together.
  return withPrivateDatabase((databaseUrl) => measureAblationsOn(options, { DATABASE_URL: databaseUrl, DATABASE_POOL_SIZE: '4', ...PAYOUTS_MEASURED_ALONE }));
}

async function measureAblationsOn(options: AblateOptions, storeEnv: Record<string, string>): Promise<void> {
  const databaseUrl = storeEnv.DATABASE_URL;
  const money = moneyPaths();
  const routes = routesOf(money);
  const all = variants(options, routes);
  const started: Array<{ variant: Variant; url: string; process: Awaited<ReturnType<typeof startServer>>['process']; dataDir: string }> = [];
  let bare: { server: Awaited<ReturnType<typeof startServer>>; file: string } | undefined;
  let floor: { server: Awaited<ReturnType<typeof startServer>>; file: string } | undefined;
  const perRound: Array<Record<string, number>> = [];
  let non2xx = 0;
  let rate = 0;
  let saturationRps = 0;
  let createRate = 0;
  let createSaturationRps = 0;
  let payoutRate = 0;
  let payoutSaturationRps = 0;
  let idleCpuMicrosPerSecond = 0;
  if (options.against !== undefined) fs.copyFileSync(options.against, AGAINST_MAIN);
  try {
    for (const variant of all) {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-ablate-'));
      const server = await startServer([variant.main ?? MAIN], { ...SERVICE_ENV, ...storeEnv, DATA_DIR: dataDir, BENCH_ABLATE: variant.ablate.join(',') }, '/payment/health/ready');
      started.push({ variant, url: server.url, process: server.process, dataDir });
    }
    const full = started[0] as (typeof started)[number];
    const file = bareServerFile(await bankListOf(full.url));
    bare = { server: await startServer([file], {}, '/ready'), file };
    if (databaseUrl !== undefined) {
      const floorFile = createFloorServerFile();
      try {
        floor = { server: await startServer([floorFile], { DATABASE_URL: databaseUrl, DATABASE_POOL_SIZE: storeEnv.DATABASE_POOL_SIZE ?? '4' }, '/ready'), file: floorFile };
      } catch (error) {
        fs.rmSync(path.dirname(floorFile), { recursive: true, force: true });
        throw error;
      }
    }
    // The one rate every run is offered: a fraction of what the full service's signed route sustains, found on a process
    // of its own, stopped before the rounds, so that no variant carries more nonces or more warm-up than another.
    saturationRps = await saturation(options, routes.signed.nest, storeEnv);
    rate = Math.max(1, Math.round(saturationRps * options.fraction));
    if (options.money) {
      // One balance for every process's payouts: they share the database.
      await money.fundAndEnquire(full.url, 0);
      createSaturationRps = await saturation(options, routes.create.nest, storeEnv);
      createRate = Math.max(1, Math.round(createSaturationRps * options.fraction));
      payoutSaturationRps = await saturation(options, routes.payout.nest, storeEnv);
      payoutRate = Math.max(1, Math.round(payoutSaturationRps * options.fraction));
    }
    const rateOf: Record<Route, number> = { unguarded: rate, signed: rate, create: createRate, payout: payoutRate };

    const bareUrl = bare.server.url;
    const bareProcess = bare.server.process;
    const bareBanks = () => ({ method: 'GET', path: BANKS });
    const runs = [
      { key: 'bare', url: bareUrl, pid: bareProcess.pid as number, request: bareBanks, rate },
      ...(floor === undefined
        ? []
        : [
            { key: 'bare/create-rate', url: bareUrl, pid: bareProcess.pid as number, request: bareBanks, rate: createRate },
            { key: 'floor/create', url: floor.server.url, pid: floor.server.process.pid as number, request: createFloorRequest, rate: createRate },
          ]),
      ...started.flatMap((s) => s.variant.runs.map((run) => ({ key: run.key, url: s.url, pid: s.process.pid as number, request: run.request, rate: rateOf[run.route] }))),
    ];
    // Each run's first second is the generator's warm-up (paced-load.ts); each server's first seconds of load run cold code, so once before round 1.
    if (options.warmupSeconds > 0) for (const run of runs) await pacedLoad(run.url, run.request, run.rate, options.warmupSeconds, options.connections);
    // What a service process spends while another is loaded (its timers, jobs, collection): its idle CPU time.
    const pids = started.map((s) => s.process.pid as number);
    const idle = { cpu: 0, ms: 0 };
    for (let round = 0; round < options.rounds; round++) {
      const figures: Record<string, number> = {};
      for (let i = 0; i < runs.length; i++) {
        const run = runs[(round + i) % runs.length] as (typeof runs)[number];
        const others = pids.filter((pid) => pid !== run.pid);
        const othersBefore = others.reduce((sum, pid) => sum + cpuMicros(pid), 0);
        const startedAt = performance.now();
        const before = cpuMicros(run.pid);
        const held = await pacedLoad(run.url, run.request, run.rate, options.seconds, options.connections);
        figures[run.key] = (cpuMicros(run.pid) - before) / held.sent;
        idle.cpu += others.reduce((sum, pid) => sum + cpuMicros(pid), 0) - othersBefore;
        idle.ms += (performance.now() - startedAt) * others.length;
        non2xx += held.non2xx;
      }
      perRound.push(figures);
    }
    idleCpuMicrosPerSecond = Math.round(idle.cpu / (idle.ms / 1000));
  } finally {
    if (bare) await stopBare(bare.server, bare.file);
    if (floor) await stopBare(floor.server, floor.file);
    fs.rmSync(AGAINST_MAIN, { force: true });
    for (const s of started) {
      await stop(s.process);
      fs.rmSync(s.dataDir, { recursive: true, force: true });
    }
  }

  const across = (pick: (round: Record<string, number>) => number): Spread => {
    const spread = spreadOf(perRound.map(pick));
    return { median: round1(spread.median), min: round1(spread.min), max: round1(spread.max) };
  };
  const at = (round: Record<string, number>, key: string) => round[key] as number;
  const levels = Object.fromEntries(Object.keys(perRound[0] ?? {}).map((key) => [key, across((r) => at(r, key))]));
  const costs: Record<string, Partial<Record<Route, Spread>>> = {};
  const measured = (key: string) => perRound[0]?.[key] !== undefined;
  /** The full service's CPU per request on each route less `other`'s on it, for the routes both were measured on. */
  const costOver = (other: (route: Route) => string): Partial<Record<Route, Spread>> =>
    Object.fromEntries(EVERY_ROUTE.filter((route) => measured(`full/${route}`) && measured(other(route))).map((route) => [route, across((r) => at(r, `full/${route}`) - at(r, other(route)))]));
  for (const [name] of COMPONENTS) if (all.some((variant) => variant.name === name)) costs[name] = costOver((route) => `${name}/${route}`);
  costs.control = costOver((route) => `control/${route}`);
  costs['nest-routing'] = costOver((route) => `full/${route}-fastify`);
  if (options.against !== undefined) costs.against = costOver((route) => `against/${route}`);
  // Everything off, on the Fastify twin where the route has one: the creates have none, so their row keeps Nest.
  costs.everything = costOver((route) => (measured(`all/${route}-fastify`) ? `all/${route}-fastify` : `all/${route}`));
  const ratio = (a: string, b: string) => {
    const spread = spreadOf(perRound.map((r) => at(r, a) / at(r, b)));
    return { median: Number(spread.median.toFixed(2)), min: Number(spread.min.toFixed(2)), max: Number(spread.max.toFixed(2)) };
  };
  const result = {
    node: process.version,
    mode: options.short ? 'ablate, short' : 'ablate',
    rounds: options.rounds,
    secondsPerRun: options.seconds,
    signedSaturationRps: saturationRps,
    fraction: options.fraction,
    offeredRps: rate,
    ...(options.money ? { createSaturationRps, createOfferedRps: createRate, payoutSaturationRps, payoutOfferedRps: payoutRate } : {}),
    connections: options.connections,
    /** One service process's CPU time per second while idle, and what that would add to each request at the offered rate. */
    idleCpuMicrosPerSecond,
    idleCpuMicrosPerRequestAtRate: round1(idleCpuMicrosPerSecond / rate),
    ...(options.money ? { idleCpuMicrosPerCreateAtRate: round1(idleCpuMicrosPerSecond / createRate), idleCpuMicrosPerPayoutAtRate: round1(idleCpuMicrosPerSecond / payoutRate) } : {}),
    cores: PINNED ? 'every server on core 0, the load generator on core 1 (taskset)' : `not pinned (${os.availableParallelism()} cores, or no taskset)`,
    cpuMicrosPerRequest: levels,
    costMicros: costs,
    ratios: {
      unguardedToBare: ratio('full/unguarded', 'bare'),
      signedToUnguarded: ratio('full/signed', 'full/unguarded'),
      signedToBare: ratio('full/signed', 'bare'),
      ...(options.money
        ? {
            createToBare: ratio('full/create', 'bare'),
            payoutToBare: ratio('full/payout', 'bare'),
            createFloorToBare: ratio('floor/create', 'bare'),
            createToBareAtCreateRate: ratio('full/create', 'bare/create-rate'),
            createFloorToBareAtCreateRate: ratio('floor/create', 'bare/create-rate'),
            createToFloor: ratio('full/create', 'floor/create'),
          }
        : {}),
      ...(options.against === undefined ? {} : { againstUnguardedToBare: ratio('against/unguarded', 'bare'), againstSignedToUnguarded: ratio('against/signed', 'against/unguarded') }),
    },
    non2xx,
  };
  if (options.json) {
    console.log(JSON.stringify(result));
    return;
  }
  printAblations(result, options);
}

type AblationResult = {
  idleCpuMicrosPerSecond: number;
  idleCpuMicrosPerRequestAtRate: number;
  idleCpuMicrosPerCreateAtRate?: number;
  idleCpuMicrosPerPayoutAtRate?: number;
  offeredRps: number;
  signedSaturationRps: number;
  createSaturationRps?: number;
  createOfferedRps?: number;
  payoutSaturationRps?: number;
  payoutOfferedRps?: number;
  fraction: number;
  cores: string;
  cpuMicrosPerRequest: Record<string, Spread>;
  costMicros: Record<string, Partial<Record<Route, Spread>>>;
  ratios: Record<string, Spread>;
  non2xx: number;
};

function printAblations(result: AblationResult, options: AblateOptions): void {
  const show = (s: Spread | undefined) => (s === undefined ? '' : `${s.median.toFixed(1)} (${s.min.toFixed(1)}..${s.max.toFixed(1)})`);
  const creates = options.money
    ? `, the payin create's at ${result.createOfferedRps} req/s (${result.fraction} of its ${result.createSaturationRps}), as are its floor and a second bare run, and the payout create's at ${result.payoutOfferedRps} (${result.fraction} of its ${result.payoutSaturationRps}); every process on one PostgreSQL database`
    : '';
  console.log(`every run at ${result.offeredRps} req/s (${result.fraction} of the signed route's ${result.signedSaturationRps} at saturation)${creates}, ${options.seconds} s each after 1 s not counted, ${options.rounds} interleaved rounds, the order turned each round; ${options.connections} connections; ${result.cores}`);
  console.log('CPU µs per request, median (rounds\' min..max):');
  const level = result.cpuMicrosPerRequest;
  const levelRows: Array<[string, string]> = [
    ["bare Fastify, bank list, at the bank lists' rate", 'bare'],
    ['unguarded, Nest route', 'full/unguarded'],
    ['unguarded, Fastify route', 'full/unguarded-fastify'],
    ['signed, Nest route', 'full/signed'],
    ['signed, Fastify route', 'full/signed-fastify'],
    ['unguarded, all off, Fastify route', 'all/unguarded-fastify'],
    ['signed, all off, Fastify route', 'all/signed-fastify'],
    ['payin create, Nest route', 'full/create'],
    ['payin create, all off, Nest route', 'all/create'],
    ["the payin create's floor: bare Fastify, its INSERT", 'floor/create'],
    ["bare Fastify, bank list, at the payin create's rate", 'bare/create-rate'],
    ['payout create, Nest route', 'full/payout'],
    ['payout create, all off, Nest route', 'all/payout'],
    ['unguarded, Nest route, the --against build', 'against/unguarded'],
    ['signed, Nest route, the --against build', 'against/signed'],
    ['payin create, the --against build', 'against/create'],
    ['payout create, the --against build', 'against/payout'],
  ];
  for (const [name, key] of levelRows) if (level[key] !== undefined) console.log(`  ${name.padEnd(54)}${show(level[key]).padStart(22)}`);
  const perCreate = result.idleCpuMicrosPerCreateAtRate === undefined ? '' : `, ${result.idleCpuMicrosPerCreateAtRate} per payin create and ${result.idleCpuMicrosPerPayoutAtRate} per payout create at theirs`;
  console.log(`  a service process idle: ${result.idleCpuMicrosPerSecond} µs of CPU a second, ${result.idleCpuMicrosPerRequestAtRate} µs per request at this rate${perCreate}`);
  console.log(`what each component costs, µs per request: the full service's CPU minus the CPU without it, median (rounds' min..max):`);
  const columns: Route[] = options.money ? [...EVERY_ROUTE] : ['unguarded', 'signed'];
  const heading: Record<Route, string> = { unguarded: 'unguarded', signed: 'signed', create: 'payin create', payout: 'payout create' };
  console.log(`  ${'component'.padEnd(54)}${columns.map((route) => heading[route].padStart(26)).join('')}`);
  const names: Record<string, string> = { ...Object.fromEntries(COMPONENTS.map(([name, label]) => [name, label])), control: 'nothing (the full service in another process)', 'nest-routing': "Nest's routing (the same handler on Fastify)", everything: 'all of the above, Nest included', against: 'this build against the --against build' };
  for (const [name, cost] of Object.entries(result.costMicros)) console.log(`  ${(names[name] ?? name).padEnd(54)}${columns.map((route) => show(cost[route]).padStart(26)).join('')}`);
  const r = result.ratios;
  const ratio = (s: Spread | undefined) => (s === undefined ? '' : `${s.median.toFixed(2)} (${s.min.toFixed(2)}..${s.max.toFixed(2)})`);
  const createRatios =
    r.createToBare === undefined
      ? ''
      : `, payin create / bare ${ratio(r.createToBare)}, payout create / bare ${ratio(r.payoutToBare)} (each create at its own rate, bare at the bank lists'), the payin create's floor (at the payin create's rate) / bare ${ratio(r.createFloorToBare)}; with bare at the payin create's rate too: payin create / bare ${ratio(r.createToBareAtCreateRate)}, its floor / bare ${ratio(r.createFloorToBareAtCreateRate)}; payin create / its floor ${ratio(r.createToFloor)}`;
  console.log(`ratios of CPU per request, median (rounds' min..max): unguarded / bare ${ratio(r.unguardedToBare)}, signed / unguarded ${ratio(r.signedToUnguarded)}, signed / bare ${ratio(r.signedToBare)}${createRatios}; non-2xx: ${result.non2xx}`);
  if (r.againstUnguardedToBare !== undefined) console.log(`the --against build's ratios: unguarded / bare ${ratio(r.againstUnguardedToBare)}, signed / unguarded ${ratio(r.againstSignedToUnguarded)}`);
  if (options.short) console.log('(short mode: too brief for figures worth quoting)');
}
