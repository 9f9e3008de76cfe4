// How the canonical-body reader scales with body size: ten times the fields
// should cost about ten times the time (n log n for the sort), never a hundred.
// A benchmark, not a test: it prints what it measured and never fails on timing.
//   npm run -s bench:canonical-body
import { canonicalBodyFromJson } from '@paysign/signing';

const RUNS = 5;

function flatBody(fields: number): string {
  return JSON.stringify(Object.fromEntries(Array.from({ length: fields }, (_, i) => [`k${i}`, `v${'x'.repeat(40)}\\"${i}`])));
}

/** The fastest of several runs: other tasks share the machine, and only the reader's own cost matters. */
function fastestNs(text: string): number {
  let best = Number.POSITIVE_INFINITY;
  for (let run = 0; run < RUNS; run++) {
    const start = process.hrtime.bigint();
    canonicalBodyFromJson(text);
    best = Math.min(best, Number(process.hrtime.bigint() - start));
  }
  return best;
}

const small = flatBody(2_000);
const large = flatBody(20_000);
fastestNs(small); // warm-up
const smallNs = fastestNs(small);
const largeNs = fastestNs(large);
const result = {
  smallBytes: small.length,
  largeBytes: large.length,
  smallMs: Number((smallNs / 1e6).toFixed(3)),
  largeMs: Number((largeNs / 1e6).toFixed(3)),
  sizeRatio: Number((large.length / small.length).toFixed(2)),
  timeRatio: Number((largeNs / smallNs).toFixed(2)),
};
console.log(`canonical body of ${result.smallBytes} B: ${result.smallMs} ms; of ${result.largeBytes} B: ${result.largeMs} ms`);
console.log(`${result.sizeRatio}x the bytes took ${result.timeRatio}x the time (linear would be about ${result.sizeRatio}x; quadratic about ${(result.sizeRatio ** 2).toFixed(0)}x)`);
console.log(JSON.stringify(result));
