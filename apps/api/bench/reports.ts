// What a CSV report costs the service: the built service (dist/main.js) in
// production mode, on a scratch PostgreSQL database seeded with a merchant's
// payins (1,000,000 by default), downloads payins.csv for the whole range
// once, and prints the time to first byte, the total time, the rows and
// bytes, and the service's RSS before the download and at its peak during
// it (sampled from /proc/<pid>/status), against the bound it checks: since
// the report streams in keyset batches, the whole report must not take the
// service's RSS more than --rss-bound-mib (32 MiB) above the peak of a
// download of a tenth of its rows, run just before. A
// benchmark, not a test: CI never runs it; the exit code is 1 past the bound.
//   npm run -s bench:reports [-- --payins 1000000] [-- --rss-bound-mib 32] [-- --json]
import * as fs from 'node:fs';
import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { sign } from '@paysign/signing';
import { openPostgres } from '../src/db/sql-clients';
import { SCHEMA } from '../src/schema';
import { startBuiltService } from '../test/support/built-service';
import { MERCHANT_A } from '../test/support/credentials';
import { createPrivateDatabase, REDIS_URL } from '../test/support/stores';
import { PRODUCTION_SETTINGS } from '../test/support/test-app';
import { seedPayins } from './seed-payins';

const { values } = parseArgs({
  options: {
    payins: { type: 'string', default: '1000000' },
    'rss-bound-mib': { type: 'string', default: '32' },
    json: { type: 'boolean', default: false },
  },
});
const PAYINS = Number(values.payins);
const RSS_BOUND_MIB = Number(values['rss-bound-mib']);
const FROM = '2026-01-01T00:00:00Z';
/** One payin a second from FROM: the window covers them all, whatever their number. */
const TO = new Date(Date.parse(FROM) + PAYINS * 1000 + 1000).toISOString();
const MIB = 1024 * 1024;

/** A figure of /proc/<pid>/status, in bytes: VmRSS (resident now) or VmHWM (its peak so far). */
function statusBytes(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const match = new RegExp(`^${field}:\\s+([0-9]+) kB$`, 'm').exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) * 1024 : NaN;
}

async function main(): Promise<void> {
  const database = await createPrivateDatabase('paysign_bench_reports');
  try {
    const seedStartedAt = performance.now();
    const client = await openPostgres(database.url, { migrations: SCHEMA, pool: { size: 2, connectTimeoutMs: 10_000, queryTimeoutMs: 3_600_000 } });
    try {
      await seedPayins(client, { merchantId: MERCHANT_A.merchantId, count: PAYINS, from: new Date(FROM), spacingMs: 1000 });
      await client.query('ANALYZE payins');
    } finally {
      await client.close();
    }
    const seedSeconds = (performance.now() - seedStartedAt) / 1000;

    const service = await startBuiltService({ PAYSIGN_MODE: 'production', REDIS_URL, ...PRODUCTION_SETTINGS }, { databaseUrl: database.url });
    try {
      const pid = service.child.pid as number;
      const download = (path: string) => fetch(`${service.baseUrl}${path}`, { headers: sign({ ...MERCHANT_A, nonce: randomUUID(), timestamp: Math.floor(Date.now() / 1000), method: 'GET', path }).headers as Record<string, string> });
      // A first small download loads and compiles what every download uses, so that the figures are of the download alone.
      await (await download(`/payment/api/reports/payins.csv?from=${FROM}&to=2026-01-01T01:00:00Z`)).arrayBuffer();
      const rssBefore = statusBytes(pid, 'VmRSS');
      let rssPeak = rssBefore;
      const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, statusBytes(pid, 'VmRSS'))), 20);
      /** One download, read as fast as it comes: its time to first byte, total time, bytes and records. */
      const measure = async (to: string) => {
        const startedAt = performance.now();
        const response = await download(`/payment/api/reports/payins.csv?from=${FROM}&to=${to}`);
        if (response.status !== 200 || !response.body) throw new Error(`the report answered ${response.status}: ${await response.text()}`);
        let firstByteMs = NaN;
        let bytes = 0;
        let records = 0;
        for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
          if (bytes === 0) firstByteMs = performance.now() - startedAt;
          bytes += chunk.length;
          // Seeded rows hold no line break inside quotes: each LF ends a record.
          for (const byte of chunk) if (byte === 0x0a) records++;
        }
        rssPeak = Math.max(rssPeak, statusBytes(pid, 'VmRSS'));
        return { firstByteMs, totalMs: performance.now() - startedAt, bytes, records };
      };
      // A tenth of the rows first: the whole report must not need more memory than it, since both stream.
      const tenth = await measure(new Date(Date.parse(FROM) + Math.ceil(PAYINS / 10) * 1000).toISOString());
      const rssPeakTenth = rssPeak;
      const { firstByteMs, totalMs, bytes, records } = await measure(TO);
      clearInterval(sampler);
      const growthMib = (rssPeak - rssBefore) / MIB;
      const beyondTenthMib = (rssPeak - rssPeakTenth) / MIB;
      const figures = {
        payins: PAYINS,
        seedSeconds: round(seedSeconds, 1),
        firstByteMs: round(firstByteMs, 1),
        totalSeconds: round(totalMs / 1000, 2),
        rows: records - 1,
        bytes,
        megabytesPerSecond: round(bytes / MIB / (totalMs / 1000), 1),
        rssBeforeMib: round(rssBefore / MIB, 1),
        rssPeakMib: round(rssPeak / MIB, 1),
        rssGrowthMib: round(growthMib, 1),
        tenthRows: tenth.records - 1,
        rssPeakTenthMib: round(rssPeakTenth / MIB, 1),
        beyondTenthMib: round(beyondTenthMib, 1),
        peakSinceBootMib: round(statusBytes(pid, 'VmHWM') / MIB, 1),
        rssBoundMib: RSS_BOUND_MIB,
        withinBound: beyondTenthMib <= RSS_BOUND_MIB && records - 1 === PAYINS,
      };
      if (values.json) console.log(JSON.stringify(figures));
      else {
        console.log(`payins.csv of ${PAYINS} payins (seeded in ${figures.seedSeconds} s), built service in production mode on PostgreSQL, REPORT_BATCH_ROWS at its default:`);
        console.log(`  time to first byte  ${figures.firstByteMs} ms`);
        console.log(`  total               ${figures.totalSeconds} s (${figures.megabytesPerSecond} MiB/s)`);
        console.log(`  rows                ${figures.rows} (header aside)`);
        console.log(`  bytes               ${bytes} (${round(bytes / MIB, 1)} MiB)`);
        console.log(`  service RSS         ${figures.rssBeforeMib} MiB before; peak ${figures.rssPeakTenthMib} MiB during a download of a tenth (${figures.tenthRows} rows), ${figures.rssPeakMib} MiB during the whole (+${figures.rssGrowthMib} MiB over before); VmHWM since boot ${figures.peakSinceBootMib} MiB`);
        console.log(`  bound               the whole report's peak RSS <= a tenth's + ${RSS_BOUND_MIB} MiB (it was +${figures.beyondTenthMib} MiB), and every row: ${figures.withinBound ? 'held' : 'NOT HELD'}`);
      }
      if (!figures.withinBound) process.exitCode = 1;
    } finally {
      await service.dispose();
    }
  } finally {
    await database.drop();
  }
}

const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
