// What the dashboard's payins page costs on a merchant with many payins: the
// built service (dist/main.js, sandbox mode) on a scratch PostgreSQL
// database, a merchant seeded with --count payins (1,000,000 by default, the
// realistic mix of seed-payins.ts, spread over the year before now), a member
// signed in through a setup link and a TOTP code as the app does it. It then
// times --calls calls each of GET /payins (the first page), a filtered page
// (status FAILED, channel card) and a search by a customer's email, one at a
// time, and prints their p50 and p99 against --budget-ms (the p99 the page
// is built to keep). Last it downloads /exports/payins.csv for a tenth of the
// payins, then for all of them, sampling the service's RSS
// (/proc/<pid>/status) while they stream, and prints the whole's peak
// against the tenth's plus --rss-bound-mib: a file that streams needs no
// more memory for ten times the rows (bench:reports' bound).
// A benchmark, not a test: it prints what it measured and never fails on it.
// It builds nothing: run `npx nx run api:build` first.
//   npm run -s bench:dashboard-payins [-- --count 1000000] [-- --calls 200] [-- --budget-ms 50] [-- --rss-bound-mib 32] [-- --json]
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { openPostgres } from '../src/db/sql-clients';
import { SCHEMA } from '../src/schema';
import { startBuiltService } from '../test/support/built-service';
import { MERCHANT_A, TEST_MERCHANTS_FILE } from '../test/support/credentials';
import { DashboardClient, linkToken, totpCode } from '../test/support/dashboard-client';
import { createPrivateDatabase } from '../test/support/stores';
import { seedPayins } from './seed-payins';

const { values } = parseArgs({
  options: {
    count: { type: 'string', default: '1000000' },
    calls: { type: 'string', default: '200' },
    'budget-ms': { type: 'string', default: '50' },
    'rss-bound-mib': { type: 'string', default: '32' },
    json: { type: 'boolean', default: false },
  },
});
const COUNT = Number(values.count);
const CALLS = Number(values.calls);
const BUDGET_MS = Number(values['budget-ms']);
const RSS_BOUND_MIB = Number(values['rss-bound-mib']);
for (const [name, value] of [['count', COUNT], ['calls', CALLS]] as const) if (!Number.isSafeInteger(value) || value < 1) throw new Error(`--${name} must be a whole number of at least 1`);
const MIB = 1024 * 1024;
const YEAR_MS = 365 * 86_400_000;
const MAIN = path.resolve(__dirname, '../dist/main.js');
/** The payins are spread over the year before now, so that the newest are recent and a window holds them all. */
const SPACING_MS = Math.max(1, Math.floor(YEAR_MS / COUNT));
const FROM = new Date(Date.now() - YEAR_MS - 60_000);
const PASSWORD = 'correct horse battery staple';

/** VmRSS of /proc/<pid>/status, in bytes. */
function rssOf(pid: number): number {
  const match = /^VmRSS:\s+([0-9]+) kB$/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) * 1024 : NaN;
}

/** The q-th quantile of sorted durations, by the nearest rank. */
const quantile = (sorted: readonly number[], q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] as number;
const round = (value: number, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits;

async function main(): Promise<void> {
  if (!fs.existsSync(MAIN)) throw new Error(`${MAIN} is missing: run \`npx nx run api:build\` first.`);
  const database = await createPrivateDatabase('paysign_bench_dashboard_payins');
  try {
    const seedStartedAt = performance.now();
    const client = await openPostgres(database.url, { migrations: SCHEMA, pool: { size: 2, connectTimeoutMs: 10_000, queryTimeoutMs: 3_600_000 } });
    try {
      await seedPayins(client, { merchantId: MERCHANT_A.merchantId, count: COUNT, from: FROM, spacingMs: SPACING_MS, mix: 'realistic' });
      await client.query('ANALYZE payins');
    } finally {
      await client.close();
    }
    const seedSeconds = (performance.now() - seedStartedAt) / 1000;

    // The dashboard's per-address limit (600 a minute) would refuse a bench's calls from one address: it is raised so that every call is timed.
    const service = await startBuiltService({ PAYSIGN_MODE: 'sandbox', RATE_LIMIT_PUBLIC_PER_ADDRESS_PER_MINUTE: String(Math.max(600, (CALLS + 1) * 7 + 100)) }, { databaseUrl: database.url });
    try {
      const pid = service.child.pid as number;
      const member = await signedInOwner(service.baseUrl, database.url);
      const cookie = [...member.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
      const get = (pathAndQuery: string) => fetch(`${service.baseUrl}/payment/dashboard/api${pathAndQuery}`, { headers: { cookie } });
      /** `calls` calls of one page, one at a time, after one not counted: each one's milliseconds until its body is read. */
      const time = async (pathAndQuery: string) => {
        const each: number[] = [];
        for (let i = 0; i <= CALLS; i++) {
          const startedAt = performance.now();
          const response = await get(pathAndQuery);
          const body = (await response.json()) as { data?: unknown[] };
          if (response.status !== 200 || !Array.isArray(body.data)) throw new Error(`${pathAndQuery} answered ${response.status}: ${JSON.stringify(body)}`);
          if (i > 0) each.push(performance.now() - startedAt);
        }
        const sorted = each.sort((a, b) => a - b);
        return { path: pathAndQuery, calls: CALLS, p50Ms: round(quantile(sorted, 0.5), 2), p99Ms: round(quantile(sorted, 0.99), 2), maxMs: round(sorted.at(-1) as number, 2), withinBudget: quantile(sorted, 0.99) <= BUDGET_MS };
      };
      const firstPage = await time('/payins');
      const filteredPage = await time('/payins?status=FAILED&channel=card');
      const emailSearch = await time(`/payins?q=${encodeURIComponent('customer4242@example.com')}`);
      // The hard cases: a page deep in the listing, an amount (the reference-or-amount merge), and ABANDONED (PENDING past its expiry, two stored states).
      const deep = (await (await get('/payins?limit=100')).json()) as { nextCursor: string | null };
      const olderPage = await time(`/payins?after=${encodeURIComponent(deep.nextCursor ?? '')}&limit=100`);
      const amountSearch = await time('/payins?q=50');
      const abandonedPage = await time('/payins?status=ABANDONED');

      // Each export read as fast as it comes, the service's RSS sampled every 20 ms meanwhile.
      const rssBefore = rssOf(pid);
      let rssPeak = rssBefore;
      const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, rssOf(pid))), 20);
      const download = async (to: Date) => {
        const startedAt = performance.now();
        const response = await get(`/exports/payins.csv?from=${FROM.toISOString()}&to=${to.toISOString()}`);
        if (response.status !== 200 || !response.body) throw new Error(`the export answered ${response.status}: ${await response.text()}`);
        let bytes = 0;
        let records = 0;
        let firstByteMs = NaN;
        for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
          if (bytes === 0) firstByteMs = performance.now() - startedAt;
          bytes += chunk.length;
          // Seeded rows hold no line break inside quotes: each LF ends a record.
          for (const byte of chunk) if (byte === 0x0a) records++;
        }
        rssPeak = Math.max(rssPeak, rssOf(pid));
        return { rows: records - 1, bytes, firstByteMs, totalMs: performance.now() - startedAt };
      };
      // A tenth of the rows first: the heap grows to what a download needs, then must not grow with the rows, since both stream.
      const tenth = await download(new Date(FROM.getTime() + Math.ceil(COUNT / 10) * SPACING_MS));
      const rssPeakTenth = rssPeak;
      const whole = await download(new Date(Date.now() + 60_000));
      clearInterval(sampler);
      const beyondTenthMib = (rssPeak - rssPeakTenth) / MIB;
      const figures = {
        count: COUNT,
        seedSeconds: round(seedSeconds),
        budgetMs: BUDGET_MS,
        firstPage,
        filteredPage,
        emailSearch,
        olderPage,
        amountSearch,
        abandonedPage,
        export: {
          rows: whole.rows,
          bytes: whole.bytes,
          firstByteMs: round(whole.firstByteMs),
          totalSeconds: round(whole.totalMs / 1000, 2),
          rssBeforeMib: round(rssBefore / MIB),
          tenthRows: tenth.rows,
          rssPeakTenthMib: round(rssPeakTenth / MIB),
          rssPeakMib: round(rssPeak / MIB),
          beyondTenthMib: round(beyondTenthMib),
          rssBoundMib: RSS_BOUND_MIB,
          withinBound: beyondTenthMib <= RSS_BOUND_MIB,
        },
      };
      if (values.json) console.log(JSON.stringify(figures));
      else print(figures);
    } finally {
      await service.dispose();
    }
  } finally {
    await database.drop();
  }
}

/** The merchant's owner, through a setup link made by the operator's command, a password and a TOTP code. */
async function signedInOwner(baseUrl: string, databaseUrl: string): Promise<DashboardClient> {
  const email = `bench-${process.pid}@example.com`;
  const env = { ...process.env, DATABASE_URL: databaseUrl, MERCHANTS_FILE: TEST_MERCHANTS_FILE, REDIS_URL: '', LOG_LEVEL: 'warn' };
  const link = JSON.parse(execFileSync(process.execPath, [MAIN, 'merchants', 'setup-link', '--merchant-id', MERCHANT_A.merchantId, '--email', email, '--json'], { env, encoding: 'utf8' })) as { setupUrl: string };
  const browser = new DashboardClient(baseUrl);
  const token = linkToken(link.setupUrl);
  await browser.call('POST', '/links/accept', { token, password: PASSWORD });
  const secret = String((await browser.call('POST', '/factors/totp')).json.secret);
  const confirmed = await browser.call('POST', '/factors/totp/confirm', { code: await totpCode(secret, Date.now()) });
  if (confirmed.json.stage !== 'active') throw new Error(`the owner's enrolment failed: ${confirmed.text}`);
  return browser;
}

function print(figures: { count: number; seedSeconds: number; budgetMs: number; firstPage: Timed; filteredPage: Timed; emailSearch: Timed; olderPage: Timed; amountSearch: Timed; abandonedPage: Timed; export: Record<string, number | boolean> }): void {
  console.log(`The dashboard's payins page on a merchant with ${figures.count} payins (seeded in ${figures.seedSeconds} s), built service in sandbox mode on PostgreSQL:`);
  for (const [label, timed] of [['first page', figures.firstPage], ['filtered page', figures.filteredPage], ['email search', figures.emailSearch], ['older page', figures.olderPage], ['amount search', figures.amountSearch], ['abandoned', figures.abandonedPage]] as const) {
    console.log(`  ${label.padEnd(14)} p50 ${String(timed.p50Ms).padStart(7)} ms   p99 ${String(timed.p99Ms).padStart(7)} ms   max ${timed.maxMs} ms   (${timed.calls} calls of GET ${timed.path}; budget p99 <= ${figures.budgetMs} ms: ${timed.withinBudget ? 'held' : 'NOT HELD'})`);
  }
  const e = figures.export;
  console.log(`  export         ${e.rows} rows, ${round(Number(e.bytes) / MIB)} MiB in ${e.totalSeconds} s (first byte ${e.firstByteMs} ms)`);
  console.log(`  service RSS    ${e.rssBeforeMib} MiB before the exports; peak ${e.rssPeakTenthMib} MiB while a tenth (${e.tenthRows} rows) streamed, ${e.rssPeakMib} MiB while the whole did`);
  console.log(`  bound          the whole export's peak RSS <= a tenth's + ${e.rssBoundMib} MiB (it was +${e.beyondTenthMib} MiB): ${e.withinBound ? 'held' : 'NOT HELD'}`);
}

type Timed = { path: string; calls: number; p50Ms: number; p99Ms: number; maxMs: number; withinBudget: boolean };

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
