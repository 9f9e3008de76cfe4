// What the scheduled ledger check (the ledger-check job) costs on a ledger of
// a given size, on PostgreSQL: a private database migrated to the service's
// schema and filled with successful payins (each credited with its fee, then
// settled) and a tenth as many successful payouts (held, then debited), every
// invariant holding; then the check's statements timed one by one, as the job
// runs them (LedgerCheckStore.runExclusive over countBroken), and the time of
// a payin's ledger write measured alone and while a check runs. A benchmark,
// not a test; the database is dropped at the end.
//   npm run -s bench:ledger-check [-- --payins 1000000] [-- --merchants 100] [-- --writes 300] [-- --json]
import { parseArgs } from 'node:util';
import { Pool } from 'pg';
import type { SqlClient } from '../src/db/sql-client';
import { openPostgres } from '../src/db/sql-clients';
import { countBroken } from '../src/ledger/ledger-check';
import { LedgerCheckStore } from '../src/ledger/ledger-check-store';
import { LEDGER_INVARIANTS } from '../src/ledger-invariants';
import { SCHEMA } from '../src/schema';

const { values } = parseArgs({
  options: {
    payins: { type: 'string', default: '1000000' },
    merchants: { type: 'string', default: '100' },
    writes: { type: 'string', default: '300' },
    json: { type: 'boolean', default: false },
  },
});
const PAYINS = Number(values.payins);
const PAYOUTS = Math.floor(PAYINS / 10);
const MERCHANTS = Number(values.merchants);
const WRITES = Number(values.writes);
const DATABASE_URL = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
/** The service's default DATABASE_QUERY_TIMEOUT_MS, which bounds each statement of the check. */
const DEFAULT_QUERY_TIMEOUT_MS = 5000;

/** Successful payins of 1000 naira with a fee of 15, credited and settled; successful payouts of 500 with a fee of 10, held and debited. */
const FILL = [
  `INSERT INTO payins (merchant_id, reference, status, amount_minor, fee_minor, currency, customer_email, request_fingerprint, created_at, expires_at, paid_at, version, provider)
   SELECT 'MCH-' || (i % ${MERCHANTS}), 'bench-' || i, 'SUCCESSFUL', 100000, 1500, 'NGN', 'ada@example.com', 'fp', now(), now() + interval '30 minutes', now(), 2, 'sandbox'
   FROM generate_series(1, ${PAYINS}) AS i`,
  `INSERT INTO payouts (merchant_id, reference, status, amount_minor, fee_minor, currency, bank_code, account_number, account_name, name_match, narration, enquiry_id, request_fingerprint,
                        provider_reference, provider, created_at, processing_at, completed_at, version)
   SELECT 'MCH-' || (i % ${MERCHANTS}), 'bench-out-' || i, 'SUCCESSFUL', 50000, 1000, 'NGN', '058', '0123456789', 'ADA LOVELACE', 'exact', 'bench', 'enq-' || i, 'fp',
          'bench-out-' || i, 'sandbox', now(), now(), now(), 3
   FROM generate_series(1, ${PAYOUTS}) AS i`,
  `INSERT INTO ledger_accounts (id, merchant_id, currency, kind, balance_minor)
   SELECT 'merchant:MCH-' || m || ':NGN:' || kind, 'MCH-' || m, 'NGN', kind, 0 FROM generate_series(0, ${MERCHANTS - 1}) AS m CROSS JOIN (VALUES ('pending'), ('available'), ('held')) AS k (kind)
   UNION ALL SELECT 'platform:NGN:' || kind, NULL, 'NGN', kind, NULL FROM (VALUES ('provider_settlement'), ('fee_revenue')) AS k (kind)`,
  `INSERT INTO ledger_journals (type, merchant_id, currency, object_type, object_id, created_at)
   SELECT t.type, p.merchant_id, 'NGN', 'payin', p.reference, now() FROM payins p CROSS JOIN (VALUES ('payin_credit'), ('settlement')) AS t (type)
   UNION ALL
   SELECT t.type, p.merchant_id, 'NGN', 'payout', p.reference, now() FROM payouts p CROSS JOIN (VALUES ('payout_hold'), ('payout_debit')) AS t (type)`,
  `INSERT INTO ledger_entries (journal_id, account_id, merchant_id, kind, currency, type, amount_minor, object_type, object_id, created_at)
   SELECT j.id, e.account_id, e.merchant_id, e.kind, 'NGN', e.type, e.amount, j.object_type, j.object_id, now()
   FROM ledger_journals j CROSS JOIN LATERAL (VALUES
     ('payin_credit', 'platform:NGN:provider_settlement', NULL, 'provider_settlement', 'payin_credit', -100000),
     ('payin_credit', 'merchant:' || j.merchant_id || ':NGN:pending', j.merchant_id, 'pending', 'payin_credit', 98500),
     ('payin_credit', 'platform:NGN:fee_revenue', NULL, 'fee_revenue', 'payin_fee', 1500),
     ('settlement', 'merchant:' || j.merchant_id || ':NGN:pending', j.merchant_id, 'pending', 'settlement', -98500),
     ('settlement', 'merchant:' || j.merchant_id || ':NGN:available', j.merchant_id, 'available', 'settlement', 98500),
     ('payout_hold', 'merchant:' || j.merchant_id || ':NGN:available', j.merchant_id, 'available', 'payout_hold', -51000),
     ('payout_hold', 'merchant:' || j.merchant_id || ':NGN:held', j.merchant_id, 'held', 'payout_hold', 51000),
     ('payout_debit', 'merchant:' || j.merchant_id || ':NGN:held', j.merchant_id, 'held', 'payout_debit', -51000),
     ('payout_debit', 'platform:NGN:provider_settlement', NULL, 'provider_settlement', 'payout_debit', 50000),
     ('payout_debit', 'platform:NGN:fee_revenue', NULL, 'fee_revenue', 'payout_fee', 1000)
   ) AS e (journal_type, account_id, merchant_id, kind, type, amount)
   WHERE e.journal_type = j.type`,
  `UPDATE ledger_accounts a SET balance_minor = s.total FROM (SELECT account_id, sum(amount_minor) AS total FROM ledger_entries WHERE merchant_id IS NOT NULL GROUP BY account_id) s
   WHERE a.id = s.account_id`,
  'ANALYZE',
];

/** A payin's ledger write as the service makes one: the payin, its credit journal and entries, the merchant's pending balance and the settlement due, in one transaction. */
async function payinWrite(client: SqlClient, n: number): Promise<number> {
  const merchant = `MCH-${n % MERCHANTS}`;
  const reference = `bench-write-${n}`;
  const startedAt = performance.now();
  await client.transaction(async (tx) => {
    await tx.query(
      `INSERT INTO payins (merchant_id, reference, status, amount_minor, fee_minor, currency, customer_email, request_fingerprint, created_at, expires_at, paid_at, version, provider)
       VALUES ($1, $2, 'SUCCESSFUL', 100000, 1500, 'NGN', 'ada@example.com', 'fp', now(), now() + interval '30 minutes', now(), 2, 'sandbox')`,
      [merchant, reference],
    );
    const { rows } = await tx.query<{ id: string }>(`INSERT INTO ledger_journals (type, merchant_id, currency, object_type, object_id, created_at) VALUES ('payin_credit', $1, 'NGN', 'payin', $2, now()) RETURNING id`, [merchant, reference]);
    await tx.query(
      `INSERT INTO ledger_entries (journal_id, account_id, merchant_id, kind, currency, type, amount_minor, object_type, object_id, created_at) VALUES
         ($1, 'platform:NGN:provider_settlement', NULL, 'provider_settlement', 'NGN', 'payin_credit', -100000, 'payin', $3, now()),
         ($1, 'merchant:' || $2 || ':NGN:pending', $2, 'pending', 'NGN', 'payin_credit', 98500, 'payin', $3, now()),
         ($1, 'platform:NGN:fee_revenue', NULL, 'fee_revenue', 'NGN', 'payin_fee', 1500, 'payin', $3, now())`,
      [rows[0]?.id, merchant, reference],
    );
    await tx.query(`UPDATE ledger_accounts SET balance_minor = balance_minor + 98500 WHERE id = 'merchant:' || $1 || ':NGN:pending'`, [merchant]);
    await tx.query(`INSERT INTO ledger_settlements_due (merchant_id, object_type, object_id, currency, amount_minor, due_at) VALUES ($1, 'payin', $2, 'NGN', 98500, now() + interval '1 day')`, [merchant, reference]);
  });
  return performance.now() - startedAt;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? Number.NaN;
const round = (ms: number) => Math.round(ms * 10) / 10;

async function writeLatencies(client: SqlClient, from: number, until: () => boolean, most: number): Promise<{ writes: number; p50Ms: number; p99Ms: number; maxMs: number }> {
  const durations: number[] = [];
  for (let n = from; durations.length < most && !until(); n++) durations.push(await payinWrite(client, n));
  durations.sort((a, b) => a - b);
  return { writes: durations.length, p50Ms: round(percentile(durations, 0.5)), p99Ms: round(percentile(durations, 0.99)), maxMs: round(durations[durations.length - 1] ?? Number.NaN) };
}

async function main(): Promise<void> {
  const name = `paysign_bench_ledger_${process.pid}_${Date.now()}`;
  const admin = new Pool({ connectionString: DATABASE_URL });
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(DATABASE_URL);
  url.pathname = `/${name}`;
  // No driver timeout here: the figures are the statements' whole cost, to compare with DATABASE_QUERY_TIMEOUT_MS.
  const client = await openPostgres(url.toString(), { migrations: SCHEMA, pool: { size: 4, connectTimeoutMs: 10_000, queryTimeoutMs: 3_600_000 } });
  try {
    const fillStartedAt = performance.now();
    for (const statement of FILL) await client.query(statement);
    const fillSeconds = Math.round((performance.now() - fillStartedAt) / 100) / 10;
    const sizes = (await client.query<{ journals: string; entries: string; bytes: string }>(
      `SELECT (SELECT count(*) FROM ledger_journals)::text AS journals, (SELECT count(*) FROM ledger_entries)::text AS entries,
              (SELECT sum(pg_total_relation_size(c.oid)) FROM pg_class c WHERE c.relname IN ('payins', 'payouts', 'refunds', 'ledger_journals', 'ledger_entries', 'ledger_accounts', 'ledger_settlements_due'))::text AS bytes`,
    )).rows[0];

    const store = new LedgerCheckStore(client, 'database', { shared: { statementTimeoutMs: 3_600_000 } });
    const alone = await writeLatencies(client, 0, () => false, WRITES);
    // The check, each statement timed, with writes going on beside it until it ends.
    const statements: Array<{ invariant: string; ms: number; brokenRows: number }> = [];
    let checking = true;
    const checkStartedAt = performance.now();
    const check = store
      .runExclusive(new Date(), async (tx) => {
        const findings: Record<string, number> = {};
        for (const invariant of LEDGER_INVARIANTS) {
          const startedAt = performance.now();
          const counted = await countBroken(tx, [invariant]);
          findings[invariant.invariant] = counted[invariant.invariant] ?? Number.NaN;
          statements.push({ invariant: invariant.invariant, ms: Math.round(performance.now() - startedAt), brokenRows: findings[invariant.invariant] as number });
        }
        return findings;
      })
      .finally(() => (checking = false));
    const during = await writeLatencies(client, WRITES, () => !checking, Number.MAX_SAFE_INTEGER);
    await check;
    const checkMs = Math.round(performance.now() - checkStartedAt);

    const figures = {
      payins: PAYINS,
      payouts: PAYOUTS,
      journals: Number(sizes?.journals),
      entries: Number(sizes?.entries),
      tablesMiB: Math.round(Number(sizes?.bytes) / 1024 / 1024),
      fillSeconds,
      checkMs,
      longestStatementMs: Math.max(...statements.map((statement) => statement.ms)),
      statementsOverDefaultQueryTimeout: statements.filter((statement) => statement.ms > DEFAULT_QUERY_TIMEOUT_MS).length,
      statements,
      payinWriteAlone: alone,
      payinWriteDuringCheck: during,
    };
    if (values.json) {
      console.log(JSON.stringify(figures));
      return;
    }
    console.log(`ledger: ${PAYINS} payins, ${PAYOUTS} payouts, ${figures.journals} journals, ${figures.entries} entries, ${figures.tablesMiB} MiB (filled in ${fillSeconds} s)`);
    for (const { invariant, ms, brokenRows } of statements) console.log(`${String(ms).padStart(8)} ms  ${brokenRows === 0 ? 'holds ' : `BROKEN (${brokenRows})`}  ${invariant}`);
    console.log(`check: ${checkMs} ms in all; longest statement ${figures.longestStatementMs} ms; ${figures.statementsOverDefaultQueryTimeout} over the default DATABASE_QUERY_TIMEOUT_MS (${DEFAULT_QUERY_TIMEOUT_MS} ms)`);
    console.log(`a payin's ledger write: alone p50 ${alone.p50Ms} ms, p99 ${alone.p99Ms} ms (${alone.writes} writes); during the check p50 ${during.p50Ms} ms, p99 ${during.p99Ms} ms, max ${during.maxMs} ms (${during.writes} writes)`);
  } finally {
    await client.close();
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
