// bench:server -- --rate-fraction F: finds each of bare Fastify, the
// unguarded route and the signed route at saturation, then offers F of that
// rate for SECONDS and reports the latency percentiles at that load and the
// server's CPU time per request, read from /proc/<pid>/stat before and after
// the run. --profile DIR writes the service's CPU profile into DIR and prints
// the top entries of the unguarded and the signed route's runs at the fixed rate.
import type { ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { cpuMicros, cpuProfileFlags, printProfile, summarizeProfile } from './cpu';
import { pacedLoad, type PacedRequest } from './paced-load';
import { bankListOf, bareServerFile, MAIN, PINNED, SERVICE_ENV, signed, startServer, stop, stopBare } from './service-process';

export interface FixedRateOptions {
  fraction: number;
  seconds: number;
  connections: number;
  json: boolean;
  /** A directory for the service's CPU profile. */
  profile?: string;
  /** bench:server's closed-loop load at saturation, after its warm-up. */
  saturate: (url: string, request: () => PacedRequest) => Promise<{ rps: number; non2xx: number }>;
}

interface FixedRateFigures {
  saturationRps: number;
  offeredRps: number;
  achievedRps: number;
  p50Ms: number;
  p99Ms: number;
  p999Ms: number;
  senderLateP99Ms: number;
  cpuMicrosPerRequest: number;
  non2xx: number;
}

/**
 * Saturation first (after its warm-up, with autocannon), then `fraction` of
 * it for SECONDS, paced evenly (see paced-load.ts), with the server's CPU
 * time per request over that run; `onHeld` is told as that run starts.
 */
async function atFixedRate(options: FixedRateOptions, server: { url: string; process: ChildProcess }, request: () => PacedRequest, onHeld?: () => void): Promise<FixedRateFigures> {
  const { fraction, seconds: SECONDS, connections: CONNECTIONS } = options;
  const saturation = await options.saturate(server.url, request);
  const offered = Math.max(1, Math.round(saturation.rps * fraction));
  onHeld?.();
  const before = cpuMicros(server.process.pid as number);
  const held = await pacedLoad(server.url, request, offered, SECONDS, CONNECTIONS);
  const cpu = cpuMicros(server.process.pid as number) - before;
  return {
    saturationRps: saturation.rps,
    offeredRps: offered,
    achievedRps: held.achievedRps,
    p50Ms: held.p50Ms,
    p99Ms: held.p99Ms,
    p999Ms: held.p999Ms,
    senderLateP99Ms: held.senderLateP99Ms,
    // The CPU time covers the generator's first second too: divided by every request sent.
    cpuMicrosPerRequest: Math.round(cpu / Math.max(1, held.sent)),
    non2xx: saturation.non2xx + held.non2xx,
  };
}



/** --rate-fraction: the per-request budget at a realistic load, beside the framework's, in one run. */
export async function measureAtFixedRate(options: FixedRateOptions): Promise<void> {
  const { fraction, seconds: SECONDS, connections: CONNECTIONS } = options;
  const banksPath = '/payment/merchant-api/banks';
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-server-'));
  const profileDir = options.profile ? path.resolve(options.profile) : undefined;
  const spawnedAt = performance.now();
  const service = await startServer([...(profileDir ? cpuProfileFlags(profileDir) : []), MAIN], { ...SERVICE_ENV, DATA_DIR: dataDir }, '/payment/health/ready');
  let banksJson = '';
  let guardedHeldFromMs = 0;
  const unguardedHeldMs = { from: 0, to: 0 };
  const figures: Record<'bare' | 'unguarded' | 'guarded', FixedRateFigures> = {} as never;
  try {
    banksJson = await bankListOf(service.url);
    figures.unguarded = await atFixedRate(options, service, () => ({ method: 'GET', path: '/payment/bench/unguarded-banks' }), () => (unguardedHeldMs.from = performance.now() - spawnedAt));
    unguardedHeldMs.to = performance.now() - spawnedAt;
    figures.guarded = await atFixedRate(options, service, signed('GET', banksPath), () => (guardedHeldFromMs = performance.now() - spawnedAt));
  } finally {
    await stop(service.process);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  const bareFile = bareServerFile(banksJson);
  const bare = await startServer([bareFile], {}, '/ready');
  try {
    figures.bare = await atFixedRate(options, bare, () => ({ method: 'GET', path: banksPath }));
  } finally {
    await stopBare(bare, bareFile);
  }
  const ratio = (a: number, b: number) => Number((a / b).toFixed(2));
  const result = {
    node: process.version,
    mode: 'rate-fraction',
    fraction,
    secondsPerRun: SECONDS,
    connections: CONNECTIONS,
    cores: PINNED ? 'server on core 0, load generator on core 1 (taskset)' : `not pinned (${os.availableParallelism()} cores, or no taskset)`,
    ...figures,
    ratios: {
      guardedToUnguardedRps: ratio(figures.guarded.saturationRps, figures.unguarded.saturationRps),
      guardedToBareRps: ratio(figures.guarded.saturationRps, figures.bare.saturationRps),
      guardedToUnguardedCpu: ratio(figures.guarded.cpuMicrosPerRequest, figures.unguarded.cpuMicrosPerRequest),
    },
  };
  if (options.json) {
    console.log(JSON.stringify(result));
    return;
  }
  console.log(`each contender at saturation, then at ${fraction} of it for ${SECONDS} s; ${CONNECTIONS} connections; ${result.cores}`);
  console.log(`${'contender'.padEnd(30)}${'saturation'.padStart(11)}${'held req/s'.padStart(11)}${'p50 ms'.padStart(8)}${'p99 ms'.padStart(8)}${'p99.9 ms'.padStart(10)}${'CPU µs/req'.padStart(12)}${'sender late p99 ms'.padStart(20)}`);
  const names = { bare: 'bare Fastify, bank list', unguarded: 'Nest, bank list, no guard', guarded: 'signed bank list, memory' } as const;
  for (const key of ['bare', 'unguarded', 'guarded'] as const) {
    const f = figures[key];
    console.log(`${names[key].padEnd(30)}${String(f.saturationRps).padStart(11)}${String(f.achievedRps).padStart(11)}${String(f.p50Ms).padStart(8)}${String(f.p99Ms).padStart(8)}${String(f.p999Ms).padStart(10)}${String(f.cpuMicrosPerRequest).padStart(12)}${String(f.senderLateP99Ms).padStart(20)}`);
  }
  console.log(`guarded/unguarded req/s ${result.ratios.guardedToUnguardedRps}, guarded/bare req/s ${result.ratios.guardedToBareRps}, guarded/unguarded CPU per request ${result.ratios.guardedToUnguardedCpu}; non-2xx: ${figures.bare.non2xx + figures.unguarded.non2xx + figures.guarded.non2xx}`);
  if (profileDir) {
    printProfile(`the service, unguarded route at ${fraction} of saturation`, summarizeProfile(profileDir, unguardedHeldMs.from, 20, unguardedHeldMs.to), true);
    printProfile(`the service, signed route at ${fraction} of saturation`, summarizeProfile(profileDir, guardedHeldFromMs, 20), true);
  }
}
