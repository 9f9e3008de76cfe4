// The signing core against its physical floor: one SHA-256 over the canonical
// body plus one HMAC-SHA256 over the base string, with node:crypto directly
// (crypto.hash where Node has it, createHmac with the secret as a string).
// JSON.parse of the same bytes is printed beside it, as the cost of merely
// reading the body with the engine's own parser.
// For a typical 9-field payin body and a 16 KB flat body it measures the floor,
// our sign(), and our verify() from the raw body bytes as the guard calls it;
// then, for the payin body, the floor's two calls and verify() with cold
// caches, as a server meets them between requests.
// A benchmark, not a test: it prints what it measured and never fails on timing.
//   npm run -s bench:signing [-- --json] [-- --short]
// The last line with --json is one JSON object; --short runs briefly (CI proves the command works).
import * as crypto from 'node:crypto';
import { parseArgs } from 'node:util';
import { buildBaseString, canonicalBodyFromJson, sign, verify } from '@paysign/signing';

const { values } = parseArgs({ options: { json: { type: 'boolean', default: false }, short: { type: 'boolean', default: false } } });

const KEY = { apiKey: 'pk_bench', secretKey: 'sk_bench_0123456789abcdef0123456789', merchantId: 'MCH-BENCH', tenantId: 'TEN-BENCH' };
const NOW = 1_767_225_600;
const PAYIN_BODY = JSON.stringify({
  amount: 1000.5,
  currency: 'NGN',
  customerEmail: 'ada@example.com',
  customerName: 'Ada Obi',
  gateway: 'card',
  narration: 'Order 1042',
  notifyUrl: 'https://merchant.example.com/hooks/payins',
  redirectUrl: 'https://merchant.example.com/checkout/done',
  reference: 'order-1042',
}).replace('1000.5', '1000.50');
const FLAT_16K_BODY = JSON.stringify(Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`field${String(i).padStart(3, '0')}`, 'x'.repeat(64)])));

interface BodyFigures {
  bodyBytes: number;
  rawOpsPerSec: number;
  signOpsPerSec: number;
  verifyOpsPerSec: number;
  jsonParseOpsPerSec: number;
}

type OneShotHash = (algorithm: string, data: string, outputEncoding: 'hex') => string;
const oneShotHash = (crypto as unknown as { hash?: OneShotHash }).hash;
const floorSha256Hex = (text: string) => (oneShotHash ? oneShotHash('sha256', text, 'hex') : crypto.createHash('sha256').update(text, 'utf8').digest('hex'));

async function measure(body: string): Promise<BodyFigures> {
  const { Bench } = await import('tinybench');
  const bytes = Buffer.from(body, 'utf8');
  const canonicalBody = canonicalBodyFromJson(body);
  const path = '/payment/api/payins';
  // Built once: the benchmark measures sign(), not the spread that would build its argument.
  const signInput = { ...KEY, nonce: 'bench-nonce', timestamp: NOW, method: 'POST', path, body: bytes };
  const signed = sign(signInput);
  const headers = Object.fromEntries(Object.entries(signed.headers).map(([name, value]) => [name.toLowerCase(), value as string]));
  const bench = values.short
    ? new Bench({ time: 50, warmupTime: 10, warmupIterations: 5, iterations: 20 })
    : new Bench({ time: 1500, warmupTime: 300, warmupIterations: 200, iterations: 100 });
  bench
    .add('raw', () => {
      const bodySha256Hex = floorSha256Hex(canonicalBody);
      crypto
        .createHmac('sha256', KEY.secretKey)
        .update(buildBaseString({ apiKey: KEY.apiKey, nonce: 'bench-nonce', timestamp: String(NOW), method: 'POST', requestPath: path, bodySha256Hex }), 'utf8')
        .digest('hex');
    })
    .add('sign', () => {
      sign(signInput);
    })
    .add('verify', () => {
      const result = verify({ method: 'POST', path, headers, body: bytes, now: NOW, secretFor: () => KEY.secretKey });
      if (!result.ok) throw new Error(`verification failed: ${result.code}`);
    })
    .add('JSON.parse', () => {
      JSON.parse(bytes.toString('utf8'));
    });
  await bench.run();
  const median = (name: string) => {
    const result = bench.tasks.find((t) => t.name === name)?.result as { throughput?: { p50: number } } | undefined;
    if (!result?.throughput) throw new Error(`the ${name} task produced no figures`);
    return Math.round(result.throughput.p50);
  };
  return { bodyBytes: bytes.length, rawOpsPerSec: median('raw'), signOpsPerSec: median('sign'), verifyOpsPerSec: median('verify'), jsonParseOpsPerSec: median('JSON.parse') };
}

/** How much other memory is touched before each cold call: about a core's L2 cache, then several times it. */
const EVICTED_MIB = [1, 4] as const;
const evictionBuffer = new Uint8Array(Math.max(...EVICTED_MIB) * 1024 * 1024);

/**
 * The median time of one call made with cold caches: before each, `mib` MiB
 * of other memory is written, as a server's other work between two requests
 * would. A tight loop keeps OpenSSL's code and tables in cache; a server does not.
 */
function coldNs(run: () => void, mib: number, samples: number): number {
  const times: number[] = [];
  for (let i = 0; i < samples; i++) {
    for (let offset = 0; offset < mib * 1024 * 1024; offset += 64) evictionBuffer[offset] = i;
    const startedAt = process.hrtime.bigint();
    run();
    times.push(Number(process.hrtime.bigint() - startedAt));
  }
  return [...times].sort((a, b) => a - b)[Math.floor(times.length / 2)] as number;
}

/** The floor's two calls and our verify() on the payin body, with cold caches. */
function measureCold(body: string) {
  const bytes = Buffer.from(body, 'utf8');
  const canonicalBody = canonicalBodyFromJson(body);
  const path = '/payment/api/payins';
  const signed = sign({ ...KEY, nonce: 'bench-nonce', timestamp: NOW, method: 'POST', path, body: bytes });
  const headers = Object.fromEntries(Object.entries(signed.headers).map(([name, value]) => [name.toLowerCase(), value as string]));
  const samples = values.short ? 20 : 1000;
  return EVICTED_MIB.map((mib) => ({
    evictedMiB: mib,
    samples,
    sha256Ns: coldNs(() => floorSha256Hex(canonicalBody), mib, samples),
    hmacNs: coldNs(() => crypto.createHmac('sha256', KEY.secretKey).update(signed.baseString, 'utf8').digest('hex'), mib, samples),
    verifyNs: coldNs(() => verify({ method: 'POST', path, headers, body: bytes, now: NOW, secretFor: () => KEY.secretKey }), mib, samples),
  }));
}

async function main(): Promise<void> {
  const payin = await measure(PAYIN_BODY);
  const flat16k = await measure(FLAT_16K_BODY);
  const coldCache = measureCold(PAYIN_BODY);
  const ratio = (a: number, b: number) => Number((a / b).toFixed(2));
  const result = {
    node: process.version,
    mode: values.short ? 'short' : 'full',
    ...payin,
    signRatio: ratio(payin.signOpsPerSec, payin.rawOpsPerSec),
    verifyRatio: ratio(payin.verifyOpsPerSec, payin.rawOpsPerSec),
    flat16k: { ...flat16k, signRatio: ratio(flat16k.signOpsPerSec, flat16k.rawOpsPerSec), verifyRatio: ratio(flat16k.verifyOpsPerSec, flat16k.rawOpsPerSec) },
    coldCache,
  };
  if (!values.json) {
    console.log('median ops/s     raw floor      sign()    verify()   sign/raw  verify/raw  JSON.parse');
    for (const [name, f] of [[`payin (${payin.bodyBytes} B)`, result], [`flat (${flat16k.bodyBytes} B)`, result.flat16k]] as const) {
      console.log(`${name.padEnd(16)}${String(f.rawOpsPerSec).padStart(10)}${String(f.signOpsPerSec).padStart(12)}${String(f.verifyOpsPerSec).padStart(12)}${String(f.signRatio).padStart(11)}${String(f.verifyRatio).padStart(12)}${String(f.jsonParseOpsPerSec).padStart(12)}`);
    }
    for (const cold of coldCache) {
      console.log(`payin body, ${cold.evictedMiB} MiB written before each call (median ns of ${cold.samples}): SHA-256 ${cold.sha256Ns}, HMAC-SHA256 ${cold.hmacNs}, verify() ${cold.verifyNs}`);
    }
    if (values.short) console.log('(short mode: too brief for figures worth quoting)');
    return;
  }
  console.log(JSON.stringify(result));
}

void main();
