// bench:server -- --rounds R: the guard's throughput ratios, signed / unguarded
// and signed / bare, from five contenders at saturation in R interleaved
// rounds, the order turned one place each round: runs side by side in time
// share more of the machine's drift than the full run's. The servers stay up
// on core 0 throughout, the idle ones included. Each run also gives the
// server's CPU per request, and how busy the server and this process (the
// load generator) were: a throughput ratio compares the servers only while
// the server, not the generator, is what saturates. The unguarded and signed
// routes are measured again on a third process with every component of
// --ablate switched off: what is left between them is the signature check's
// own work, at saturation.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { EVERY_COMPONENT } from './ablation-components';
import { cpuMicros } from './cpu';
import type { PacedRequest } from './paced-load';
import { bankListOf, bareServerFile, MAIN, medianOf, PINNED, SERVICE_ENV, signed, startServer, stop, stopBare } from './service-process';

interface RoundFigures {
  rps: number;
  non2xx: number;
}

/** A run's throughput, with how busy the server and the generator were: a ratio of throughputs compares the servers only while the server, not the generator, is what saturates. */
interface MeasuredRun extends RoundFigures {
  /** The server process's CPU time as a share of the run's wall time, in % of one core. */
  serverBusyPercent: number;
  /** This process's (the load generator's) CPU time as a share of the run's wall time, in % of one core. */
  generatorBusyPercent: number;
  /** The server process's CPU time over the requests answered, in µs. */
  serverCpuMicrosPerRequest: number;
}

export interface RoundsOptions {
  rounds: number;
  seconds: number;
  warmupSeconds: number;
  connections: number;
  json: boolean;
  short: boolean;
  /** bench:server's closed-loop load at saturation, for `seconds`. */
  load: (url: string, request: () => PacedRequest, seconds: number) => Promise<RoundFigures & { requests: number }>;
}

type RoundContender = 'bare' | 'unguarded' | 'guarded' | 'unguardedAllOff' | 'guardedAllOff';

/** --rounds: the guard's throughput ratios from runs side by side in time, round after round. */
export async function measureInRounds(options: RoundsOptions): Promise<void> {
  const { rounds, seconds: SECONDS, warmupSeconds: WARMUP_SECONDS, connections: CONNECTIONS, load } = options;
  const banksPath = '/payment/merchant-api/banks';
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-server-'));
  const allOffDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-server-'));
  let service: Awaited<ReturnType<typeof startServer>> | undefined;
  let allOff: Awaited<ReturnType<typeof startServer>> | undefined;
  let bare: { server: Awaited<ReturnType<typeof startServer>>; file: string } | undefined;
  const measured: Array<Record<RoundContender, MeasuredRun>> = [];
  let warmupNon2xx = 0;
  const order: RoundContender[] = ['bare', 'unguarded', 'guarded', 'unguardedAllOff', 'guardedAllOff'];
  try {
    service = await startServer([MAIN], { ...SERVICE_ENV, DATA_DIR: dataDir }, '/payment/health/ready');
    const serviceUrl = service.url;
    allOff = await startServer([MAIN], { ...SERVICE_ENV, DATA_DIR: allOffDataDir, BENCH_ABLATE: EVERY_COMPONENT.join(',') }, '/payment/health/ready');
    const allOffUrl = allOff.url;
    const file = bareServerFile(await bankListOf(serviceUrl));
    bare = { server: await startServer([file], {}, '/ready'), file };
    const bareUrl = bare.server.url;
    const measuredLoad = async (url: string, pid: number, request: () => PacedRequest, seconds: number): Promise<MeasuredRun> => {
      const serverBefore = cpuMicros(pid);
      const generatorBefore = process.cpuUsage();
      const startedAt = performance.now();
      const figures = await load(url, request, seconds);
      const wallMicros = (performance.now() - startedAt) * 1000;
      const serverMicros = cpuMicros(pid) - serverBefore;
      const generator = process.cpuUsage(generatorBefore);
      const percent = (micros: number) => Math.round((100 * micros) / wallMicros);
      return {
        rps: figures.rps,
        non2xx: figures.non2xx,
        serverBusyPercent: percent(serverMicros),
        generatorBusyPercent: percent(generator.user + generator.system),
        serverCpuMicrosPerRequest: Math.round((serverMicros / Math.max(1, figures.requests)) * 10) / 10,
      };
    };
    const servicePid = service.process.pid as number;
    const barePid = bare.server.process.pid as number;
    const allOffPid = allOff.process.pid as number;
    const unguardedBanks = () => ({ method: 'GET', path: '/payment/bench/unguarded-banks' });
    const signedBanks = signed('GET', banksPath);
    const contenders: Record<RoundContender, (seconds: number) => Promise<MeasuredRun>> = {
      bare: (seconds) => measuredLoad(bareUrl, barePid, () => ({ method: 'GET', path: banksPath }), seconds),
      unguarded: (seconds) => measuredLoad(serviceUrl, servicePid, unguardedBanks, seconds),
      guarded: (seconds) => measuredLoad(serviceUrl, servicePid, signedBanks, seconds),
      unguardedAllOff: (seconds) => measuredLoad(allOffUrl, allOffPid, unguardedBanks, seconds),
      guardedAllOff: (seconds) => measuredLoad(allOffUrl, allOffPid, signedBanks, seconds),
    };
    // Each contender's first seconds run cold code: warmed once, not counted but for its answers.
    if (WARMUP_SECONDS > 0) for (const contender of order) warmupNon2xx += (await contenders[contender](WARMUP_SECONDS)).non2xx;
    for (let round = 0; round < rounds; round++) {
      const figures = {} as Record<RoundContender, MeasuredRun>;
      for (let i = 0; i < order.length; i++) {
        const contender = order[(round + i) % order.length] as RoundContender;
        figures[contender] = await contenders[contender](SECONDS);
      }
      measured.push(figures);
    }
  } finally {
    if (bare) await stopBare(bare.server, bare.file);
    if (service) await stop(service.process);
    if (allOff) await stop(allOff.process);
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.rmSync(allOffDataDir, { recursive: true, force: true });
  }
  const ratio = (a: number, b: number) => Number((a / b).toFixed(2));
  const byContender = <T>(pick: (contender: RoundContender) => T) => Object.fromEntries(order.map((c) => [c, pick(c)])) as Record<RoundContender, T>;
  const perRound = measured.map((f) => ({
    bareRps: f.bare.rps,
    unguardedRps: f.unguarded.rps,
    guardedRps: f.guarded.rps,
    unguardedAllOffRps: f.unguardedAllOff.rps,
    guardedAllOffRps: f.guardedAllOff.rps,
    guardedToUnguarded: ratio(f.guarded.rps, f.unguarded.rps),
    guardedToBare: ratio(f.guarded.rps, f.bare.rps),
    allOffGuardedToUnguarded: ratio(f.guardedAllOff.rps, f.unguardedAllOff.rps),
    serverBusyPercent: byContender((c) => f[c].serverBusyPercent),
    generatorBusyPercent: byContender((c) => f[c].generatorBusyPercent),
    serverCpuMicrosPerRequest: byContender((c) => f[c].serverCpuMicrosPerRequest),
  }));
  const spread = (pick: (round: (typeof perRound)[number]) => number) => {
    const sorted = perRound.map(pick).sort((a, b) => a - b);
    return { median: medianOf(sorted), min: sorted[0] as number, max: sorted[sorted.length - 1] as number };
  };
  const result = {
    node: process.version,
    mode: options.short ? 'rounds, short' : 'rounds',
    rounds,
    secondsPerRun: SECONDS,
    warmupSecondsPerContender: WARMUP_SECONDS,
    connections: CONNECTIONS,
    cores: PINNED ? 'every server on core 0, load generator on core 1 (taskset)' : `not pinned (${os.availableParallelism()} cores, or no taskset)`,
    perRound,
    guardedToUnguarded: spread((r) => r.guardedToUnguarded),
    guardedToBare: spread((r) => r.guardedToBare),
    allOffGuardedToUnguarded: spread((r) => r.allOffGuardedToUnguarded),
    serverCpuMicrosPerRequest: byContender((c) => spread((r) => r.serverCpuMicrosPerRequest[c])),
    serverBusyPercent: byContender((c) => spread((r) => r.serverBusyPercent[c])),
    generatorBusyPercent: byContender((c) => spread((r) => r.generatorBusyPercent[c])),
    non2xx: warmupNon2xx + measured.reduce((n, f) => n + order.reduce((sum, c) => sum + f[c].non2xx, 0), 0),
  };
  if (options.json) {
    console.log(JSON.stringify(result));
    return;
  }
  const warmup = WARMUP_SECONDS > 0 ? `each contender warmed ${WARMUP_SECONDS} s once, before round 1` : 'no warm-up';
  console.log(`bare, unguarded and signed, and the last two with every component off, at saturation in ${rounds} interleaved rounds of ${SECONDS} s each, the order turned each round; ${warmup}; ${CONNECTIONS} connections; ${result.cores}`);
  const columns: Array<[string, number]> = [
    ['round', 7],
    ['bare req/s', 12],
    ['unguarded req/s', 17],
    ['signed req/s', 14],
    ['signed/unguarded', 18],
    ['signed/bare', 13],
    ['all off: unguarded req/s', 26],
    ['signed req/s', 14],
    ['signed/unguarded', 18],
  ];
  const row = (cells: Array<string | number>) => cells.map((cell, i) => (i === 0 ? String(cell).padEnd(columns[i]?.[1] ?? 0) : String(cell).padStart(columns[i]?.[1] ?? 0))).join('');
  console.log(row(columns.map(([name]) => name)));
  perRound.forEach((r, i) =>
    console.log(row([i + 1, r.bareRps, r.unguardedRps, r.guardedRps, r.guardedToUnguarded.toFixed(2), r.guardedToBare.toFixed(2), r.unguardedAllOffRps, r.guardedAllOffRps, r.allOffGuardedToUnguarded.toFixed(2)])),
  );
  const show = (s: { median: number; min: number; max: number }) => `${s.median.toFixed(2)} (rounds' min ${s.min.toFixed(2)}, max ${s.max.toFixed(2)})`;
  console.log(`median of the rounds: signed/unguarded ${show(result.guardedToUnguarded)}, signed/bare ${show(result.guardedToBare)}; non-2xx: ${result.non2xx}`);
  console.log(`with every component of --ablate off (a third process): signed/unguarded ${show(result.allOffGuardedToUnguarded)}`);
  const names: Record<RoundContender, string> = { bare: 'bare', unguarded: 'unguarded', guarded: 'signed', unguardedAllOff: 'unguarded, all off', guardedAllOff: 'signed, all off' };
  const median = (s: { median: number }) => s.median;
  console.log(
    `while saturated, median of the rounds: ${order
      .map((c) => `${names[c]} ${median(result.serverCpuMicrosPerRequest[c]).toFixed(1)} µs of server CPU a request, server ${median(result.serverBusyPercent[c]).toFixed(0)} % busy, generator ${median(result.generatorBusyPercent[c]).toFixed(0)} %`)
      .join('; ')} (% of one core)`,
  );
  if (options.short) console.log('(short mode: too brief for figures worth quoting)');
}
