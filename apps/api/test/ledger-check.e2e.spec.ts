// The operator's ledger check, as the built bundle runs it (`node main.js ledger-check`), on PostgreSQL;
// and the service's own, the ledger-check job, once across instances, reported by each.
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { openPostgres } from '../src/db/sql-clients';
import { JobRunner } from '../src/jobs/job-runner';
import { LEDGER_CHECK_LOCK } from '../src/ledger/ledger-check-store';
import { LEDGER } from '../src/ledger/ledger.migrations';
import { LEDGER_INVARIANTS } from '../src/ledger-invariants';
import { SCHEMA } from '../src/schema';
import { signedCall } from './support/api-client';
import { MERCHANT_A } from './support/credentials';
import { DATABASE_URL, createPrivateDatabase, describeWithStore } from './support/stores';
import { TestClock } from './support/test-clock';
import { startEmbeddedTestApp, startTestApp, type TestApp } from './support/test-app';

const MAIN = path.resolve(__dirname, '../dist/main.js');
const ledgerCheck = (databaseUrl: string) => spawnSync(process.execPath, [MAIN, 'ledger-check'], { encoding: 'utf8', env: { PATH: process.env.PATH, DATABASE_URL: databaseUrl } });

describeWithStore('PostgreSQL', DATABASE_URL, 'node main.js ledger-check', () => {
  let database: { url: string; drop: () => Promise<void> };
  beforeAll(async () => {
    database = await createPrivateDatabase('paysign_ledger_check');
    const api = await startTestApp({ DATABASE_URL: database.url });
    try {
      for (const [reference, outcome] of [['check-paid', 'successful'], ['check-declined', 'failed']]) {
        await signedCall(api.baseUrl, { path: '/payment/api/payins', body: JSON.stringify({ amount: 2500, currency: 'NGN', customerEmail: 'ada@example.com', reference }), credential: MERCHANT_A });
        expect((await signedCall(api.baseUrl, { path: `/payment/api/payins/${reference}/simulate`, body: JSON.stringify({ outcome }), credential: MERCHANT_A })).status).toBe(200);
      }
    } finally {
      await api.close();
    }
  });
  afterAll(() => database.drop());

  it('exits 0 and says each invariant holds on a ledger the service wrote', () => {
    const run = ledgerCheck(database.url);
    expect(run.stdout).toContain('ledger check: 2 journals, 6 entries, 4 accounts');
    expect(run.stdout.split('\n').filter((line) => line.startsWith('holds '))).toHaveLength(LEDGER_INVARIANTS.length);
    expect(run.status).toBe(0);
  });

  it('exits 1 and names the broken invariant and its rows when an entry was written around the ledger', async () => {
    const client = await openPostgres(database.url, { migrations: SCHEMA });
    try {
      await client.query(
        `INSERT INTO ledger_entries (journal_id, account_id, merchant_id, kind, currency, type, amount_minor, object_type, object_id, created_at)
         SELECT id, 'merchant:MCH-A:NGN:available', 'MCH-A', 'available', 'NGN', 'settlement', 100, 'payin', 'check-paid', now() FROM ledger_journals WHERE type = 'settlement'`,
      );
    } finally {
      await client.close();
    }
    const run = ledgerCheck(database.url);
    expect(run.stdout).toContain('BROKEN  each journal sums to zero');
    expect(run.stdout).toContain('BROKEN  each merchant balance equals the sum of its entries');
    expect(run.stdout).toMatch(/"object_id":"check-paid","sum_minor":"100"/);
    expect(run.status).toBe(1);
  });

  it('exits 2, changing nothing, when the database is older than the build: the service migrates it, not the check', async () => {
    const older = await createPrivateDatabase('paysign_ledger_check_old');
    try {
      const client = await openPostgres(older.url, { migrations: SCHEMA.filter((migration) => migration.id < LEDGER.id) });
      await client.close();
      const run = ledgerCheck(older.url);
      expect(run.stdout).toContain(`the database's schema is at migration ${LEDGER.id - 1}, and this build's at ${Math.max(...SCHEMA.map((migration) => migration.id))}`);
      expect(run.status).toBe(2);
    } finally {
      await older.drop();
    }
  });
});

/** The value of one sample of the Prometheus text, as written; undefined when absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): string | undefined {
  const wanted = Object.entries(labels).map(([label, value]) => `${label}="${value}"`).join(',');
  const prefix = wanted === '' ? `${name} ` : `${name}{${wanted}} `;
  return text.split('\n').find((line) => line.startsWith(prefix))?.slice(prefix.length);
}

const metricsOf = async (api: TestApp) => (await fetch(`${api.baseUrl}/payment/metrics`)).text();
const isCheckLine = (line: Record<string, unknown>) => typeof line.msg === 'string' && line.msg.startsWith('ledger check');
const checkLines = (...apis: TestApp[]) => apis.flatMap((api) => api.logs.filter(isCheckLine));
/** Where each app's log stands now, for `checkLinesSince`. */
const logMark = (...apis: TestApp[]) => apis.map((api) => ({ api, at: api.logs.length }));
const checkLinesSince = (mark: ReturnType<typeof logMark>) => mark.flatMap(({ api, at }) => api.logs.slice(at).filter(isCheckLine));
const runCheck = (api: TestApp) => api.app.get(JobRunner).runNow('ledger-check');

/** An entry written around the ledger: the settlement journal of `reference` no longer sums to zero, nor does the merchant's balance agree with its entries. */
async function breakLedger(databaseUrl: string, reference: string): Promise<void> {
  const client = await openPostgres(databaseUrl, { migrations: SCHEMA });
  try {
    await client.query(
      `INSERT INTO ledger_entries (journal_id, account_id, merchant_id, kind, currency, type, amount_minor, object_type, object_id, created_at)
       SELECT id, 'merchant:MCH-A:NGN:available', 'MCH-A', 'available', 'NGN', 'settlement', 100, 'payin', object_id, now() FROM ledger_journals WHERE type = 'settlement' AND object_id = $1`,
      [reference],
    );
  } finally {
    await client.close();
  }
}

describeWithStore('PostgreSQL', DATABASE_URL, 'the ledger-check job, on two instances of one database', () => {
  const INTERVAL_MS = 3_600_000;
  const clock = new TestClock();
  let database: { url: string; drop: () => Promise<void> };
  let first: TestApp;
  let second: TestApp;
  beforeAll(async () => {
    database = await createPrivateDatabase('paysign_ledger_job');
    // The store's clock is the test's: a check is due by it.
    first = await startTestApp({ DATABASE_URL: database.url }, { overrides: { storeClock: clock.now }, startJobs: false });
    second = await startTestApp({ DATABASE_URL: database.url }, { overrides: { storeClock: clock.now }, startJobs: false });
    await signedCall(first.baseUrl, { path: '/payment/api/payins', body: JSON.stringify({ amount: 2500, currency: 'NGN', customerEmail: 'ada@example.com', reference: 'job-paid' }), credential: MERCHANT_A });
    expect((await signedCall(first.baseUrl, { path: '/payment/api/payins/job-paid/simulate', body: JSON.stringify({ outcome: 'successful' }), credential: MERCHANT_A })).status).toBe(200);
  });
  afterAll(async () => {
    await first?.close();
    await second?.close();
    await database?.drop();
  });

  it('checks once when both instances run it together, and both report that check: every invariant at 0, and its instant', async () => {
    expect(sample(await metricsOf(second), 'paysign_ledger_last_good_check_timestamp_seconds')).toBe('0');
    expect(sample(await metricsOf(second), 'paysign_ledger_invariant_failures', { invariant: 'each journal sums to zero' })).toBeUndefined();
    const checkedAt = clock.now() / 1000;

    await Promise.all([runCheck(first), runCheck(second)]);

    expect(checkLines(first, second)).toEqual([expect.objectContaining({ level: 30, msg: 'ledger check: every invariant holds', invariants: LEDGER_INVARIANTS.length })]);
    for (const api of [first, second]) {
      const text = await metricsOf(api);
      expect(LEDGER_INVARIANTS.map(({ invariant }) => sample(text, 'paysign_ledger_invariant_failures', { invariant }))).toEqual(LEDGER_INVARIANTS.map(() => '0'));
      expect(Number(sample(text, 'paysign_ledger_last_good_check_timestamp_seconds'))).toBeCloseTo(checkedAt, 3);
      expect(sample(text, 'paysign_ledger_check_interval_seconds')).toBe('3600');
    }
  });

  it('sees a broken invariant at the first check due after it broke, on every instance, and keeps the last good instant', async () => {
    const lastGood = sample(await metricsOf(first), 'paysign_ledger_last_good_check_timestamp_seconds');
    await breakLedger(database.url, 'job-paid');
    const mark = logMark(first, second);

    // Within the interval of the last check, no instance checks again.
    clock.advance(INTERVAL_MS - 1000);
    await Promise.all([runCheck(first), runCheck(second)]);
    expect(checkLinesSince(mark)).toEqual([]);
    expect(sample(await metricsOf(first), 'paysign_ledger_invariant_failures', { invariant: 'each journal sums to zero' })).toBe('0');

    clock.advance(1000);
    await runCheck(second);
    expect(checkLinesSince(mark)).toEqual([
      expect.objectContaining({ level: 50, msg: expect.stringContaining('ledger check: invariants broken'), broken: { 'each journal sums to zero': 1, 'each merchant balance equals the sum of its entries': 1 } }),
    ]);
    for (const api of [first, second]) {
      const text = await metricsOf(api);
      expect(sample(text, 'paysign_ledger_invariant_failures', { invariant: 'each journal sums to zero' })).toBe('1');
      expect(sample(text, 'paysign_ledger_invariant_failures', { invariant: 'each merchant balance equals the sum of its entries' })).toBe('1');
      expect(sample(text, 'paysign_ledger_invariant_failures', { invariant: 'no merchant balance is below zero' })).toBe('0');
      expect(sample(text, 'paysign_ledger_last_good_check_timestamp_seconds')).toBe(lastGood);
    }
  });

  it('skips a due check while another holds its lock, and waits an interval for the next', async () => {
    const { Pool } = await import('pg');
    const pool = new Pool({ connectionString: database.url, max: 1 });
    const holder = await pool.connect();
    const skipped = logMark(first, second);
    clock.advance(INTERVAL_MS);
    try {
      // A check still running on another instance, as its lock says.
      await holder.query('BEGIN');
      await holder.query('SELECT pg_advisory_xact_lock($1)', [LEDGER_CHECK_LOCK]);
      await runCheck(first);
      expect(checkLinesSince(skipped)).toEqual([expect.objectContaining({ level: 40, msg: expect.stringContaining('ledger check skipped: the previous check still runs') })]);
    } finally {
      await holder.query('ROLLBACK');
      holder.release();
      await pool.end();
    }
    // The skipped check spent its claim: the next is due an interval later.
    const afterSkip = logMark(first, second);
    await Promise.all([runCheck(first), runCheck(second)]);
    expect(checkLinesSince(afterSkip)).toEqual([]);
    clock.advance(INTERVAL_MS);
    await runCheck(second);
    expect(checkLinesSince(afterSkip)).toEqual([expect.objectContaining({ level: 50, msg: expect.stringContaining('ledger check: invariants broken') })]);
  });
});

describe('the ledger-check job on the embedded store', () => {
  let api: TestApp;
  beforeAll(async () => {
    api = await startEmbeddedTestApp({}, { startJobs: false });
  });
  afterAll(() => api?.close());

  it('checks and reports as on PostgreSQL', async () => {
    await runCheck(api);
    expect(checkLines(api)).toEqual([expect.objectContaining({ msg: 'ledger check: every invariant holds', invariants: LEDGER_INVARIANTS.length })]);
    const text = await metricsOf(api);
    expect(sample(text, 'paysign_ledger_invariant_failures', { invariant: 'each journal sums to zero' })).toBe('0');
    expect(Number(sample(text, 'paysign_ledger_last_good_check_timestamp_seconds'))).toBeGreaterThan(0);
  });
});
