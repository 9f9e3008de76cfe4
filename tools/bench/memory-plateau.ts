// bench:server -- --memory: memory under signed load at a fixed rate, then idle.
// Guarded load at the offered rate for the run's seconds, then idle, sampling
// each second the nonces held (from /payment/metrics) and the server's RSS and
// heap; --plot draws them. Payins go to a fresh PostgreSQL database, as in
// production, so that the embedded database's WebAssembly heap does not blur
// the curve.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { memoryPlotSvg, type MemorySample } from './memory-plot';
import type { PacedRequest } from './paced-load';
import { MAIN, SERVICE_ENV, signed, startServer, stop, withPrivateDatabase } from './service-process';

export interface MemoryPlateauOptions {
  /** Signed requests a second, offered for `seconds`. */
  rate: number;
  seconds: number;
  /** An SVG file to draw the samples into. */
  plot?: string;
  json: boolean;
  /** bench:server's closed-loop load, capped at `rate`. */
  load: (url: string, request: () => PacedRequest, rate: number) => Promise<{ rps: number; non2xx: number }>;
}

const MEMORY_NONCE_TTL_SECONDS = 20;
const MEMORY_TOLERANCE_SECONDS = 10;

/** The server's resident set, from /proc. */
function rssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1]);
  return Math.round((kb / 1024) * 10) / 10;
}

function metricValue(text: string, pattern: RegExp): number {
  const match = pattern.exec(text);
  if (!match) throw new Error(`no sample matches ${pattern} in /payment/metrics`);
  return Number(match[1]);
}

/**
 * Guarded load at a fixed rate for SECONDS, then idle, sampling the nonces
 * held, RSS and heap each second. Payins go to PostgreSQL, as in production,
 * so that the embedded database's WebAssembly heap does not blur the curve.
 */
export function measureMemoryPlateau(options: MemoryPlateauOptions): Promise<void> {
  return withPrivateDatabase((databaseUrl) => measureMemoryPlateauOn(databaseUrl, options));
}

async function measureMemoryPlateauOn(databaseUrl: string, options: MemoryPlateauOptions): Promise<void> {
  const { rate, seconds: SECONDS, plot } = options;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-memory-'));
  const env = {
    ...SERVICE_ENV,
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    NONCE_TTL_SECONDS: String(MEMORY_NONCE_TTL_SECONDS),
    TIMESTAMP_TOLERANCE_SECONDS: String(MEMORY_TOLERANCE_SECONDS),
  };
  const service = await startServer([MAIN], env, '/payment/health/ready');
  const pid = service.process.pid as number;
  const idleSeconds = MEMORY_NONCE_TTL_SECONDS + 25;
  const samples: MemorySample[] = [];
  const startedAt = Date.now();
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      const metrics = await (await fetch(`${service.url}/payment/metrics`)).text();
      samples.push({
        atSeconds: Math.round((Date.now() - startedAt) / 100) / 10,
        heldNonces: metricValue(metrics, /^paysign_memory_nonce_store\{measure="held"\} (\d+)/m),
        rssMb: rssMb(pid),
        heapUsedMb: Math.round(metricValue(metrics, /^nodejs_heap_size_used_bytes (\S+)/m) / 104857.6) / 10,
      });
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  })();
  let figures: { rps: number; non2xx: number };
  try {
    figures = await options.load(service.url, signed('GET', '/payment/merchant-api/banks'), rate);
    await new Promise((resolve) => setTimeout(resolve, idleSeconds * 1000));
  } finally {
    sampling = false;
    await sampler.catch(() => undefined);
    await stop(service.process);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }

  const during = (from: number, to: number) => samples.filter((s) => s.atSeconds >= from && s.atSeconds <= to);
  const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)] ?? Number.NaN;
  // Past the first hold plus a full sweep (16 s), what comes in and what is freed balance.
  const plateau = during(MEMORY_NONCE_TTL_SECONDS + 16, SECONDS);
  const last = samples[samples.length - 1] as MemorySample;
  const result = {
    node: process.version,
    mode: 'memory',
    loadSeconds: SECONDS,
    idleSeconds,
    offeredRate: rate,
    achievedRps: figures.rps,
    non2xx: figures.non2xx,
    nonceTtlSeconds: MEMORY_NONCE_TTL_SECONDS,
    expectedLiveNonces: figures.rps * MEMORY_NONCE_TTL_SECONDS,
    plateau: {
      fromSecond: MEMORY_NONCE_TTL_SECONDS + 16,
      heldNoncesMedian: median(plateau.map((s) => s.heldNonces)),
      heldNoncesMax: Math.max(...plateau.map((s) => s.heldNonces)),
      rssMbMedian: median(plateau.map((s) => s.rssMb)),
      rssMbMax: Math.max(...plateau.map((s) => s.rssMb)),
      heapUsedMbMedian: median(plateau.map((s) => s.heapUsedMb)),
    },
    afterIdle: { heldNonces: last.heldNonces, rssMb: last.rssMb, heapUsedMb: last.heapUsedMb },
    samples: samples.length,
  };
  if (plot) {
    fs.writeFileSync(
      plot,
      memoryPlotSvg({ samples, loadSeconds: SECONDS, expectedLiveNonces: result.expectedLiveNonces, title: `Signed requests at ${figures.rps}/s for ${SECONDS} s, nonce TTL ${MEMORY_NONCE_TTL_SECONDS} s, then idle` }),
    );
  }
  if (!options.json) {
    console.log(`memory nonce store under ${figures.rps} signed requests/s for ${SECONDS} s (offered ${rate}), TTL ${MEMORY_NONCE_TTL_SECONDS} s, then ${idleSeconds} s idle`);
    console.log('   second  nonces held   RSS MB  heap MB');
    for (const s of samples) console.log(`${String(s.atSeconds).padStart(9)}${String(s.heldNonces).padStart(13)}${String(s.rssMb).padStart(9)}${String(s.heapUsedMb).padStart(9)}`);
    console.log(`plateau (from ${result.plateau.fromSecond} s): ${result.plateau.heldNoncesMedian} nonces held (rate × TTL = ${result.expectedLiveNonces}), RSS ${result.plateau.rssMbMedian} MB; after idle: ${last.heldNonces} held, RSS ${last.rssMb} MB; non-2xx: ${figures.non2xx}`);
    if (plot) console.log(`plot written to ${plot}`);
    return;
  }
  console.log(JSON.stringify(result));
}

