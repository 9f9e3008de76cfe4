// One suite, both stores: the embedded PGlite and PostgreSQL.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Pool } from 'pg';
import type { NewPayin, PayinRepository } from '../src/payins/payin-repository.interface';
import { openPglite, openPostgres } from '../src/payins/sql-clients';
import { SqlPayinRepository } from '../src/payins/sql-payin.repository';
import { DATABASE_URL, describeWithStore } from './support/stores';
import { signedCall } from './support/api-client';
import { MERCHANT_A } from './support/credentials';
import { startTestApp } from './support/test-app';

const payin = (reference: string, changes: Partial<NewPayin> = {}): NewPayin => ({
  merchantId: 'MCH-A',
  reference,
  amountMinor: 100050n,
  currency: 'NGN',
  customerEmail: 'ada@example.com',
  customerName: 'Ada Obi',
  gateway: null,
  narration: null,
  notifyUrl: null,
  redirectUrl: null,
  requestFingerprint: 'f1',
  ...changes,
});

function repositorySuite(open: () => Promise<{ repository: PayinRepository; dispose: () => Promise<void> }>) {
  let repository: PayinRepository;
  let dispose: () => Promise<void>;
  beforeAll(async () => {
    ({ repository, dispose } = await open());
  });
  afterAll(() => dispose());

  it('stores a new payin and reads it back', async () => {
    const { created, payin: stored } = await repository.insertIfAbsent(payin('r-1'));
    expect(created).toBe(true);
    expect(stored).toMatchObject({ ...payin('r-1'), status: 'PENDING' });
    expect(await repository.find('MCH-A', 'r-1')).toEqual(stored);
  });

  it('returns the existing payin for an existing reference, unchanged', async () => {
    const first = await repository.insertIfAbsent(payin('r-2'));
    const second = await repository.insertIfAbsent(payin('r-2', { amountMinor: 1n, requestFingerprint: 'f2' }));
    expect(second).toEqual({ created: false, payin: first.payin });
  });

  it('keeps references per merchant', async () => {
    await repository.insertIfAbsent(payin('r-3'));
    expect((await repository.insertIfAbsent(payin('r-3', { merchantId: 'MCH-B' }))).created).toBe(true);
    expect(await repository.find('MCH-C', 'r-3')).toBeUndefined();
  });

  it('keeps amounts beyond 2^53 minor units exact', async () => {
    const big = 2n ** 60n;
    await repository.insertIfAbsent(payin('r-4', { amountMinor: big }));
    expect((await repository.find('MCH-A', 'r-4'))?.amountMinor).toBe(big);
  });

  it('creates exactly one row when inserts race', async () => {
    const results = await Promise.all(Array.from({ length: 8 }, () => repository.insertIfAbsent(payin('r-5'))));
    expect(results.filter((r) => r.created)).toHaveLength(1);
  });

  it('answers ping', async () => {
    await expect(repository.ping()).resolves.toBeUndefined();
  });
}

describe('PayinRepository on PGlite', () => {
  repositorySuite(async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pglite-'));
    const repository = new SqlPayinRepository(await openPglite(dir));
    return { repository, dispose: async () => { await repository.close(); fs.rmSync(dir, { recursive: true, force: true }); } };
  });

  it('survives a restart of the service', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'restart-'));
    const body = '{"amount":25,"currency":"NGN","customerEmail":"ada@example.com","reference":"durable-1"}';
    const first = await startTestApp({ DATA_DIR: dataDir });
    const created = await signedCall(first.baseUrl, { path: '/payment/api/payins', body, credential: MERCHANT_A });
    expect(created.status).toBe(201);
    await first.app.close();
    const second = await startTestApp({ DATA_DIR: dataDir });
    try {
      const read = await signedCall(second.baseUrl, { path: '/payment/api/payins/durable-1', credential: MERCHANT_A });
      expect(read.json).toEqual(created.json);
    } finally {
      await second.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describeWithStore('PostgreSQL', DATABASE_URL, 'PayinRepository on PostgreSQL', () => {
  repositorySuite(async () => {
    const schema = `payins_test_${process.pid}_${Date.now()}`;
    const admin = new Pool({ connectionString: DATABASE_URL });
    await admin.query(`CREATE SCHEMA ${schema}`);
    const repository = new SqlPayinRepository(await openPostgres(DATABASE_URL, { schema }));
    return {
      repository,
      dispose: async () => {
        await repository.close();
        await admin.query(`DROP SCHEMA ${schema} CASCADE`);
        await admin.end();
      },
    };
  });

  it('runs migrations once when two instances boot together', async () => {
    const schema = `payins_migrate_${process.pid}_${Date.now()}`;
    const admin = new Pool({ connectionString: DATABASE_URL });
    await admin.query(`CREATE SCHEMA ${schema}`);
    try {
      const clients = await Promise.all([openPostgres(DATABASE_URL, { schema }), openPostgres(DATABASE_URL, { schema })]);
      const { rows } = await admin.query(`SELECT count(*)::int AS n FROM ${schema}.schema_migrations`);
      expect(rows[0].n).toBe(1);
      await Promise.all(clients.map((c) => c.close()));
    } finally {
      await admin.query(`DROP SCHEMA ${schema} CASCADE`);
      await admin.end();
    }
  });

  it('serves payins end to end with DATABASE_URL set', async () => {
    // A database of the test's own, dropped afterwards.
    const database = `paysign_e2e_${process.pid}_${Date.now()}`;
    const admin = new Pool({ connectionString: DATABASE_URL });
    await admin.query(`CREATE DATABASE ${database}`);
    const url = new URL(DATABASE_URL);
    url.pathname = `/${database}`;
    const api = await startTestApp({ DATABASE_URL: url.toString() });
    try {
      const reference = `pg-e2e-${Date.now()}`;
      const created = await signedCall(api.baseUrl, { path: '/payment/api/payins', body: JSON.stringify({ amount: 12.34, currency: 'NGN', customerEmail: 'ada@example.com', reference }), credential: MERCHANT_A });
      expect(created.status).toBe(201);
      expect((await signedCall(api.baseUrl, { path: `/payment/api/payins/${reference}`, credential: MERCHANT_A })).json).toEqual(created.json);
    } finally {
      await api.close();
      await admin.query(`DROP DATABASE ${database} WITH (FORCE)`);
      await admin.end();
    }
  });
});
