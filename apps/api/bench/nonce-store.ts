// How long one claim on the memory nonce store can take while its table
// grows: claims at a steady rate on the store's injected clock (no real
// waiting), each held for the nonce TTL, with the sweeper's tick every
// second, and each claim timed. Prints the longest claims, with how many
// nonces were held when each ran. A benchmark, not a test.
//   npm run -s bench:nonce-store [-- --claims 1500000] [-- --rate 4000] [-- --hold-seconds 300] [-- --json]
import { parseArgs } from 'node:util';
import { MemoryNonceStore } from '../src/nonce/memory-nonce-store';

const { values } = parseArgs({
  options: {
    claims: { type: 'string', default: '1500000' },
    rate: { type: 'string', default: '4000' },
    'hold-seconds': { type: 'string', default: '300' },
    json: { type: 'boolean', default: false },
  },
});
const CLAIMS = Number(values.claims);
const RATE = Number(values.rate);
const HOLD_MS = Number(values['hold-seconds']) * 1000;

async function main(): Promise<void> {
  let now = 1_000_000;
  const store = new MemoryNonceStore({ now: () => now, maxEntries: 18_000_000, maxPerKey: 18_000_000 });
  const durations = new Float64Array(CLAIMS);
  const heldAt = new Uint32Array(CLAIMS);
  let nextSweepAt = now + 1000;
  for (let i = 0; i < CLAIMS; i++) {
    now += 1000 / RATE;
    if (now >= nextSweepAt) {
      store.sweep();
      nextSweepAt += 1000;
    }
    heldAt[i] = store.heldCount;
    const started = performance.now();
    await store.claim('pk_bench', `nonce-${i}`, HOLD_MS);
    durations[i] = performance.now() - started;
  }
  const longest = [...durations.keys()].sort((a, b) => (durations[b] as number) - (durations[a] as number)).slice(0, 8);
  const sorted = Float64Array.from(durations).sort();
  const ms = (value: number) => Math.round(value * 100) / 100;
  const result = {
    node: process.version,
    claims: CLAIMS,
    ratePerSecond: RATE,
    holdSeconds: HOLD_MS / 1000,
    heldAtEnd: store.heldCount,
    tableMiB: Math.round((store.tableBytes / 2 ** 20) * 10) / 10,
    p50Ms: ms(sorted[Math.floor(CLAIMS * 0.5)] as number),
    p999Ms: ms(sorted[Math.floor(CLAIMS * 0.999)] as number),
    longest: longest.map((i) => ({ claim: i, heldNonces: heldAt[i], ms: ms(durations[i] as number) })),
  };
  if (values.json) {
    console.log(JSON.stringify(result));
    return;
  }
  console.log(`${CLAIMS} claims on the memory nonce store, ${RATE} a second on its clock, each held ${HOLD_MS / 1000} s; ${result.heldAtEnd} held at the end in ${result.tableMiB} MiB`);
  console.log(`  one claim: p50 ${result.p50Ms} ms, p99.9 ${result.p999Ms} ms; the longest:`);
  for (const entry of result.longest) console.log(`    ${String(entry.ms).padStart(7)} ms  with ${entry.heldNonces} nonces held`);
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
