// The benchmark commands that build or start the service, once each in its
// short mode, to prove that each still runs end to end on this machine and
// prints the figures it should: CI runs it after `npm test`, when nothing else
// is running. (bench:signing and bench:nonce-store start no service, and
// `npm test` runs them.) It checks what each printed
// (every figure there and above zero, every answer 2xx), never how fast: a
// benchmark is not a test, and short runs are too brief for figures worth quoting.
//   npm run -s bench:short
// The service is built once first; the commands then run on that build
// (BENCH_SKIP_BUILD=1), so that none rebuilds it under another.
import { execFileSync } from 'node:child_process';
import { buildService, ROOT } from './service-build';

type Figures = Record<string, unknown>;

export interface ShortRun {
  script: string;
  args: string[];
  /** The figures the run must have printed, as paths into its JSON line, each a number above zero. */
  positive: string[];
  /** Figures that must be zero: answers that were not 2xx. */
  zero?: string[];
  /** Pairs of figures that must be equal. */
  equal?: Array<[string, string]>;
}

const RUNS: ShortRun[] = [
  {
    script: 'bench:server',
    args: ['--short'],
    positive: ['bareRps', 'unguardedRps', 'healthLiveRps', 'guardedRps', 'guardedRedisRps', 'enquiry.pgliteRps', 'enquiry.postgresRps', 'payinCreate.pgliteRps', 'payinCreate.postgresRps', 'payoutCreate.pgliteRps', 'payoutCreate.postgresRps'],
    zero: ['non2xx'],
  },
  { script: 'bench:server', args: ['--short', '--money'], positive: ['payinCreate.rps', 'payoutCreate.rps', 'payoutCreate.cpuMicrosPerRequest'], zero: ['payinCreate.non2xx', 'payoutCreate.non2xx'] },
  {
    script: 'bench:server',
    args: ['--short', '--rate-fraction', '0.5'],
    positive: ['bare.saturationRps', 'unguarded.saturationRps', 'guarded.saturationRps', 'guarded.achievedRps', 'guarded.cpuMicrosPerRequest', 'ratios.guardedToUnguardedCpu'],
    zero: ['bare.non2xx', 'unguarded.non2xx', 'guarded.non2xx'],
  },
  {
    script: 'bench:server',
    args: ['--short', '--rounds', '2'],
    positive: ['perRound.0.guardedRps', 'perRound.1.guardedRps', 'guardedToUnguarded.median', 'guardedToBare.median', 'serverBusyPercent.guarded.median', 'generatorBusyPercent.guarded.median', 'serverCpuMicrosPerRequest.guarded.median', 'perRound.1.guardedAllOffRps', 'allOffGuardedToUnguarded.median', 'serverCpuMicrosPerRequest.guardedAllOff.median'],
    zero: ['non2xx'],
  },
  {
    script: 'bench:server',
    args: ['--short', '--ablate', '--money'],
    positive: [
      'offeredRps',
      'createOfferedRps',
      'payoutOfferedRps',
      'cpuMicrosPerRequest.bare.median',
      'cpuMicrosPerRequest.full/unguarded.median',
      'cpuMicrosPerRequest.full/signed.median',
      'cpuMicrosPerRequest.all/signed-fastify.median',
      'cpuMicrosPerRequest.full/create.median',
      'cpuMicrosPerRequest.validation/create.median',
      'cpuMicrosPerRequest.full/payout.median',
      'cpuMicrosPerRequest.serialisation/payout.median',
      'ratios.signedToUnguarded.median',
      'ratios.createToBare.median',
      'ratios.payoutToBare.median',
      'cpuMicrosPerRequest.floor/create.median',
      'cpuMicrosPerRequest.bare/create-rate.median',
      'ratios.createToFloor.median',
      'ratios.createToBareAtCreateRate.median',
    ],
    zero: ['non2xx'],
  },
  // The embedded database's figure only: a PostgreSQL service may use less than one clock tick (10 ms) in a short round.
  { script: 'bench:server', args: ['--short', '--idle'], positive: ['embedded.this.median'] },
  { script: 'bench:webhooks', args: ['--short'], positive: ['deliveriesPerSec', 'latencyMs.max', 'cpu.serviceMicrosPerDelivery'], equal: [['delivered', 'events']] },
  { script: 'bench:stores', args: ['--short'], positive: ['redis.signedRequestsPerSec', 'postgres.payinCreatesPerSec', 'postgres.transitionsWithEventPerSec'] },
  { script: 'bench:cold-start', args: ['--short'], positive: ['fresh.readySeconds', 'fresh.databaseSeconds', 'warm.readySeconds'] },
  {
    script: 'bench:dashboard-payins',
    args: ['--count', '2000', '--calls', '20'],
    positive: ['firstPage.p99Ms', 'filteredPage.p99Ms', 'emailSearch.p99Ms', 'export.rows', 'export.rssPeakMib'],
    equal: [['export.rows', 'count']],
  },
  {
    script: 'bench:dashboard-first-paint',
    args: ['--loads', '1'],
    positive: ['coldCache.firstContentfulPaint.medianMs', 'coldCache.balancesShown.medianMs', 'warmCache.firstContentfulPaint.medianMs', 'warmCache.balancesShown.medianMs'],
  },
];

function figureAt(figures: Figures, at: string): unknown {
  return at.split('.').reduce<unknown>((value, key) => (value === null || typeof value !== 'object' ? undefined : (value as Record<string, unknown>)[key]), figures);
}

/** What is wrong with a run's figures; empty when nothing is. */
export function problemsOf(run: ShortRun, figures: Figures): string[] {
  const problems: string[] = [];
  for (const at of run.positive) {
    const value = figureAt(figures, at);
    if (typeof value !== 'number' || !(value > 0)) problems.push(`${at} is ${JSON.stringify(value)}, not a number above zero`);
  }
  for (const at of run.zero ?? []) if (figureAt(figures, at) !== 0) problems.push(`${at} is ${JSON.stringify(figureAt(figures, at))}, not 0`);
  for (const [a, b] of run.equal ?? []) if (figureAt(figures, a) !== figureAt(figures, b)) problems.push(`${a} (${JSON.stringify(figureAt(figures, a))}) is not ${b} (${JSON.stringify(figureAt(figures, b))})`);
  return problems;
}

function main(): void {
  buildService();
  const failed: string[] = [];
  for (const run of RUNS) {
    const command = `npm run -s ${run.script} -- ${[...run.args, '--json'].join(' ')}`;
    const started = performance.now();
    let problems: string[];
    try {
      const output = execFileSync('npm', ['run', '-s', run.script, '--', ...run.args, '--json'], {
        cwd: ROOT,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'inherit'],
        env: { ...process.env, BENCH_SKIP_BUILD: '1' },
      });
      problems = problemsOf(run, JSON.parse(output.trim().split('\n').pop() ?? '{}') as Figures);
    } catch (error) {
      problems = [`it failed: ${(error as Error).message.split('\n')[0]}`];
    }
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    console.log(`${problems.length === 0 ? 'ok  ' : 'FAIL'} ${command} (${seconds} s)`);
    for (const problem of problems) console.log(`       ${problem}`);
    if (problems.length > 0) failed.push(command);
  }
  if (failed.length > 0) {
    console.log(`${failed.length} of ${RUNS.length} benchmark commands did not print what they should`);
    process.exit(1);
  }
  console.log(`all ${RUNS.length} benchmark commands ran and printed their figures`);
}

if (require.main === module) main();
