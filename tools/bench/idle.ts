// bench:server -- --idle: what a service process spends while it serves
// nothing: its background jobs' polls, its timers, its collection. On each
// store in turn, the embedded database and then PostgreSQL, this build's
// service and, with --against FILE (a copy of an earlier build's
// apps/api/dist/bench-server.js), that build's, up side by side on core 0,
// each on a database of its own, nonces in memory; after a warm-up, each one's CPU time over
// R rounds of SECONDS, read together, so that both see the same machine.
//   npm run -s bench:server -- --idle [--rounds R] [--seconds N] [--against FILE] [--json]
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { cpuMicros } from './cpu';
import { AGAINST_MAIN, MAIN, medianOf, PINNED, SERVICE_ENV, startServer, stop, withPrivateDatabase } from './service-process';

export interface IdleOptions {
  rounds: number;
  seconds: number;
  warmupSeconds: number;
  /** Another build's bench-server.js, measured beside this one's. */
  against?: string;
  json: boolean;
  short: boolean;
}

type Build = 'this' | 'against';
type Store = 'embedded' | 'postgres';
interface Spread {
  median: number;
  min: number;
  max: number;
}

const round2 = (value: number) => Math.round(value * 100) / 100;
const spreadOf = (values: number[]): Spread => {
  const sorted = [...values].sort((a, b) => a - b);
  return { median: round2(medianOf(sorted)), min: round2(sorted[0] ?? 0), max: round2(sorted[sorted.length - 1] ?? 0) };
};

/** --idle: each build's CPU milliseconds a second while it serves nothing, on each store. */
export async function measureIdle(options: IdleOptions): Promise<void> {
  const builds: Array<[Build, string]> = [['this', MAIN], ...(options.against === undefined ? [] : [['against', AGAINST_MAIN] as [Build, string]])];
  if (options.against !== undefined) fs.copyFileSync(options.against, AGAINST_MAIN);
  const result = {} as Record<Store, Partial<Record<Build, Spread>>>;
  try {
    // DATABASE_URL names the PostgreSQL the private databases are made on; the embedded runs must not inherit it.
    result.embedded = await measureSideBySide(builds, builds.map(() => ({ DATABASE_URL: '' })), options);
    result.postgres = await withPrivateDatabase((first) =>
      builds.length === 1 ? measureSideBySide(builds, [{ DATABASE_URL: first }], options) : withPrivateDatabase((second) => measureSideBySide(builds, [{ DATABASE_URL: first }, { DATABASE_URL: second }], options)),
    );
  } finally {
    if (options.against !== undefined) fs.rmSync(AGAINST_MAIN, { force: true });
  }
  if (options.json) {
    console.log(JSON.stringify({ rounds: options.rounds, seconds: options.seconds, warmupSeconds: options.warmupSeconds, ...result }));
    return;
  }
  const cores = PINNED ? 'every service on core 0 (taskset)' : 'no core pinning (fewer than 2 cores or no taskset)';
  console.log(`a service process serving nothing: CPU ms a second, median of ${options.rounds} rounds of ${options.seconds} s after ${options.warmupSeconds} s of warm-up (rounds' min..max); the builds side by side, ${cores}`);
  const label = (spread: Spread | undefined) => (spread === undefined ? '' : `${spread.median.toFixed(2)} (${spread.min.toFixed(2)}..${spread.max.toFixed(2)})`);
  console.log(`${'store'.padEnd(24)}${'this build'.padStart(24)}${options.against === undefined ? '' : 'the --against build'.padStart(26)}`);
  for (const [store, name] of [['embedded', 'embedded database'], ['postgres', 'PostgreSQL']] as const) {
    console.log(`${name.padEnd(24)}${label(result[store].this).padStart(24)}${options.against === undefined ? '' : label(result[store].against).padStart(26)}`);
  }
  if (options.short) console.log('(short mode: too brief for figures worth quoting)');
}

/** Starts every build at once, each with its own environment, and reads their CPU time together, round after round. */
async function measureSideBySide(builds: Array<[Build, string]>, envs: Array<Record<string, string>>, options: IdleOptions): Promise<Partial<Record<Build, Spread>>> {
  const dataDirs = builds.map(() => fs.mkdtempSync(path.join(os.tmpdir(), 'bench-idle-')));
  const servers: Array<Awaited<ReturnType<typeof startServer>>> = [];
  try {
    for (const [index, [, main]] of builds.entries()) servers.push(await startServer([main], { ...SERVICE_ENV, REDIS_URL: '', ...envs[index], DATA_DIR: dataDirs[index] as string }, '/payment/health/ready'));
    await delay(options.warmupSeconds * 1000);
    const perRound: number[][] = builds.map(() => []);
    for (let round = 0; round < options.rounds; round++) {
      const before = servers.map((server) => cpuMicros(server.process.pid as number));
      const startedAt = performance.now();
      await delay(options.seconds * 1000);
      const elapsedSeconds = (performance.now() - startedAt) / 1000;
      servers.forEach((server, index) => perRound[index]?.push((cpuMicros(server.process.pid as number) - (before[index] as number)) / 1000 / elapsedSeconds));
    }
    return Object.fromEntries(builds.map(([build], index) => [build, spreadOf(perRound[index] ?? [])]));
  } finally {
    for (const server of servers) await stop(server.process);
    for (const dir of dataDirs) fs.rmSync(dir, { recursive: true, force: true });
  }
}
