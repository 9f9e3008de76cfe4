// The scheduled ledger check's store on PostgreSQL, which instances share: one
// claim per interval, a lock that two checks never hold at once, statements
// that keep their tables' share locks only while they run, and a statement
// stopped by the server at its timeout.
import type { SqlClient } from '../src/db/sql-client';
import { countBroken } from '../src/ledger/ledger-check';
import { LEDGER_CHECK_LOCK, LedgerCheckStore } from '../src/ledger/ledger-check-store';
import { LEDGER_INVARIANTS } from '../src/ledger-invariants';
import { SCHEMA } from '../src/schema';
import { DATABASE_URL, describeWithStore, openPrivateSchema } from './support/stores';

describeWithStore('PostgreSQL', DATABASE_URL, 'the ledger check store', () => {
  let client: SqlClient;
  let dispose: () => Promise<void>;
  let now = new Date('2026-11-24T09:00:00.000Z').getTime();
  const storeClock = () => now;
  const store = (statementTimeoutMs = 60_000) => new LedgerCheckStore(client, storeClock, { shared: { statementTimeoutMs } });
  beforeEach(async () => {
    ({ client, dispose } = await openPrivateSchema('ledger_check_store', SCHEMA));
  });
  afterEach(() => dispose());

  it('claims a check once per interval, by the store clock, whoever asks', async () => {
    const claims = await Promise.all([store().claim(3600), store().claim(3600), store().claim(3600)]);
    expect(claims.filter((claim) => claim !== undefined)).toEqual([new Date(now)]);
    now += 3_599_000;
    expect(await store().claim(3600)).toBeUndefined();
    now += 1000;
    expect(await store().claim(3600)).toEqual(new Date(now));
  });

  it('records what a check found, and keeps the last good instant through a broken one', async () => {
    const first = new Date(now);
    expect(await store().runExclusive(first, async () => ({ 'each journal sums to zero': 0 }))).toEqual({ 'each journal sums to zero': 0 });
    expect(await store().last()).toEqual({ failures: { 'each journal sums to zero': 0 }, lastGoodSeconds: first.getTime() / 1000 });
    await store().runExclusive(new Date(now + 3_600_000), async () => ({ 'each journal sums to zero': 3 }));
    expect(await store().last()).toEqual({ failures: { 'each journal sums to zero': 3 }, lastGoodSeconds: first.getTime() / 1000 });
  });

  it('holds its lock through the check, keeps no table locked between statements, and stops each statement at its timeout', async () => {
    const seen: Array<{ statementTimeout: string; advisory: number; tables: string[] }> = [];
    const findings = await store(45_000).runExclusive(new Date(now), async (tx) => {
      const checkPid = Number((await tx.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]?.pid);
      const counted: Record<string, number> = {};
      for (const invariant of LEDGER_INVARIANTS) {
        Object.assign(counted, await countBroken(tx, [invariant]));
        // Another session's view of the check's: its lock is held, and the tables its statement read are free again.
        const { rows } = await client.query<{ advisory: string; tables: string[] | null }>(
          `SELECT count(*) FILTER (WHERE locktype = 'advisory' AND objid = $1)::text AS advisory,
                  array_agg(DISTINCT relation::regclass::text) FILTER (WHERE locktype = 'relation' AND relation::regclass::text NOT LIKE 'pg_%') AS tables
           FROM pg_locks WHERE pid = $2`,
          [LEDGER_CHECK_LOCK, checkPid],
        );
        const { rows: timeout } = await tx.query<{ statement_timeout: string }>('SHOW statement_timeout');
        seen.push({ statementTimeout: timeout[0]?.statement_timeout ?? '', advisory: Number(rows[0]?.advisory), tables: rows[0]?.tables ?? [] });
      }
      return counted;
    });
    expect(Object.values(findings ?? {})).toEqual(LEDGER_INVARIANTS.map(() => 0));
    expect(seen).toEqual(LEDGER_INVARIANTS.map(() => ({ statementTimeout: '45s', advisory: 1, tables: [] })));
  });

  it('runs nothing while another session holds the lock', async () => {
    let ran = false;
    const found = await client.transaction(async (other) => {
      await other.query('SELECT pg_advisory_xact_lock($1)', [LEDGER_CHECK_LOCK]);
      // A second pool connection, so not the one holding the lock.
      return store().runExclusive(new Date(now), async () => {
        ran = true;
        return {};
      });
    });
    expect([found, ran]).toEqual([undefined, false]);
    expect((await store().last()).failures).toBeUndefined();
  });

  it('gives up a statement at its timeout, with the server\'s cancel, and records nothing', async () => {
    // A statement that waits on a lock another session holds: the timeout counts the wait, so it ends without a real delay to sit out.
    const run = client.transaction(async (other) => {
      await other.query('LOCK TABLE payins IN ACCESS EXCLUSIVE MODE');
      return store(1).runExclusive(new Date(now), (tx) => countBroken(tx, LEDGER_INVARIANTS));
    });
    await expect(run).rejects.toMatchObject({ cause: expect.objectContaining({ code: '57014' }) });
    expect((await store().last()).failures).toBeUndefined();
  });
});
