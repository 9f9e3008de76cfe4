// The operator's ledger check, as the built bundle runs it (`node main.js ledger-check`), on PostgreSQL.
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { openPostgres } from '../src/db/sql-clients';
import { LEDGER } from '../src/ledger/ledger.migrations';
import { SCHEMA } from '../src/schema';
import { signedCall } from './support/api-client';
import { MERCHANT_A } from './support/credentials';
import { DATABASE_URL, createPrivateDatabase, describeWithStore } from './support/stores';
import { startTestApp } from './support/test-app';

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
    expect(run.stdout.split('\n').filter((line) => line.startsWith('holds '))).toHaveLength(8);
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
