// Seeds payins for one merchant straight into the payin database, fast: one
// INSERT ... SELECT FROM generate_series per batch, run by the database
// itself. Two mixes:
// - `uniform` (the reports' tests and bench): successful payins, nine in
//   ten (the rest FAILED), all by card, of amounts spread evenly, 5000
//   customers (some names with commas and quotes, which the CSV quotes);
// - `realistic` (the dashboard's payins page and its bench): statuses as a
//   shop sees them (78 % SUCCESSFUL, 12 % FAILED, 6 % ABANDONED, 3 % PENDING,
//   1 % CANCELLED), channels (60 % card, 20 % bank transfer, 10 % USSD, 10 %
//   any), 50,000 customers whose emails come in mixed case, and round naira
//   amounts, most small, a few large.
// Created one every `spacingMs` from `from`, to the millisecond as the
// service writes them. With `withLedger`, each successful one gets the
// journals and entries the service posts (credit, fee, settlement) and the
// merchant's balances, so that balance-entries is as big. For benchmarks and
// manual checks, never the service itself.
//   npm run -s seed:payins -- --merchant MCH-SANDBOX-0001 --count 1000000 [--mix realistic|uniform] [--from 2026-01-01T00:00:00Z] [--spacing-ms 1000] [--reference-prefix seed] [--with-ledger]
// against DATABASE_URL (migrated first). It refuses to seed a prefix twice.
import { parseArgs } from 'node:util';
import type { SqlQueryable } from '../src/db/sql-client';

export interface SeedOptions {
  merchantId: string;
  count: number;
  /** The first payin's creation. Default 2026-01-01T00:00:00Z. */
  from?: Date;
  /** Milliseconds between two payins' creation. Default 1000. */
  spacingMs?: number;
  /** Rows per statement. Default 50000. */
  batchRows?: number;
  /** A prefix of the references, so that two seeds of one merchant do not collide. Default `seed`. */
  referencePrefix?: string;
  /** Also the ledger's journals, entries and balances of the successful ones. Default false. */
  withLedger?: boolean;
  /** Called after each batch with the rows written so far. */
  progress?: (written: number) => void;
  /** Which spread of statuses, channels, customers and amounts (see the top of this file). Default `uniform`. */
  mix?: SeedMix;
}

export type SeedMix = 'uniform' | 'realistic';

/** The columns that differ by mix, as SQL over the row number `i` and its creation `t`. */
const MIXES: Record<SeedMix, { status: string; amount: string; email: string; gateway: string }> = {
  uniform: {
    status: "CASE WHEN i % 10 = 0 THEN 'FAILED' ELSE 'SUCCESSFUL' END",
    amount: '100 + (i::bigint * 7919) % 100000000',
    email: "'customer' || (i % 5000) || '@example.com'",
    gateway: "'card'",
  },
  realistic: {
    status: "CASE WHEN i % 100 < 78 THEN 'SUCCESSFUL' WHEN i % 100 < 90 THEN 'FAILED' WHEN i % 100 < 96 THEN 'ABANDONED' WHEN i % 100 < 99 THEN 'PENDING' ELSE 'CANCELLED' END",
    // Naira in steps of 50, most under 20,000, one in fifty up to 2,000,000.
    amount: 'CASE WHEN i % 50 = 7 THEN ((i::bigint * 7919) % 40000 + 1) * 5000 ELSE ((i::bigint * 104729) % 400 + 1) * 5000 END',
    email: "CASE WHEN i % 7 = 0 THEN 'Customer' ELSE 'customer' END || ((i::bigint * 2654435761) % 50000) || CASE WHEN i % 3 = 0 THEN '@Example.com' ELSE '@example.com' END",
    gateway: "CASE WHEN i % 10 < 6 THEN 'card' WHEN i % 10 < 8 THEN 'bank_transfer' WHEN i % 10 < 9 THEN 'ussd' END",
  },
};

/** Seeds `count` payins; resolves with how many were written. */
export async function seedPayins(client: SqlQueryable, options: SeedOptions): Promise<number> {
  const from = (options.from ?? new Date('2026-01-01T00:00:00Z')).toISOString();
  const spacing = options.spacingMs ?? 1000;
  const batch = options.batchRows ?? 50_000;
  const prefix = options.referencePrefix ?? 'seed';
  for (let start = 1; start <= options.count; start += batch) {
    const end = Math.min(options.count, start + batch - 1);
    const params = [options.merchantId, from, spacing, prefix, start, end];
    const mix = MIXES[options.mix ?? 'uniform'];
    await client.query(
      `INSERT INTO payins (merchant_id, reference, status, amount_minor, fee_minor, currency, customer_email, customer_name, gateway, narration, request_fingerprint,
                           created_at, expires_at, paid_at, failed_at, failure_reason, version, provider)
       SELECT $1, $4 || '-' || i, status, amount, CASE WHEN status = 'SUCCESSFUL' THEN amount * 15 / 1000 END, 'NGN',
              email, CASE WHEN i % 3 = 0 THEN 'Obi, Ada "' || (i % 97) || '"' ELSE 'Ada Obi ' || (i % 97) END,
              gateway, 'Order ' || i, 'seed',
              t, t + interval '30 minutes', CASE WHEN status = 'SUCCESSFUL' THEN t + interval '2 minutes' END,
              CASE status WHEN 'FAILED' THEN t + interval '1 minute' WHEN 'ABANDONED' THEN t + interval '30 minutes' WHEN 'CANCELLED' THEN t + interval '5 minutes' END,
              CASE status WHEN 'FAILED' THEN 'card_declined' WHEN 'ABANDONED' THEN 'checkout_expired' WHEN 'CANCELLED' THEN 'customer_cancelled' END,
              CASE WHEN status = 'PENDING' THEN 1 ELSE 2 END, 'sandbox'
       FROM generate_series($5::int, $6::int) AS i,
            LATERAL (SELECT $2::timestamptz + (i - 1)::bigint * $3::int * interval '1 millisecond' AS t) AS created,
            LATERAL (SELECT ${mix.status} AS status, (${mix.amount})::bigint AS amount, ${mix.email} AS email, ${mix.gateway} AS gateway) AS drawn`,
      params,
    );
    if (options.withLedger) await seedLedger(client, params);
    options.progress?.(end);
  }
  if (options.withLedger) await seedBalances(client, options.merchantId);
  return options.count;
}

/** The journals and entries the service posts for a successful payin that settled at once: credit, fee, settlement. */
async function seedLedger(client: SqlQueryable, params: unknown[]): Promise<void> {
  await client.query(
    `WITH paid AS (SELECT merchant_id, reference, amount_minor, fee_minor, paid_at FROM payins
                   WHERE merchant_id = $1 AND reference IN (SELECT $4 || '-' || i FROM generate_series($5::int, $6::int) AS i) AND status = 'SUCCESSFUL'
                     AND $2::text IS NOT NULL AND $3::int IS NOT NULL),
          journals AS (INSERT INTO ledger_journals (type, merchant_id, currency, object_type, object_id, created_at)
                       SELECT t.type, p.merchant_id, 'NGN', 'payin', p.reference, p.paid_at FROM paid p CROSS JOIN (VALUES ('payin_credit'), ('settlement')) AS t (type)
                       RETURNING id, type, merchant_id, object_id, created_at)
     INSERT INTO ledger_entries (journal_id, account_id, merchant_id, kind, currency, type, amount_minor, object_type, object_id, created_at)
     SELECT j.id, e.account_id, e.merchant_id, e.kind, 'NGN', e.type, e.amount, 'payin', j.object_id, j.created_at
     FROM journals j JOIN paid p ON p.reference = j.object_id CROSS JOIN LATERAL (VALUES
       ('payin_credit', 'platform:NGN:provider_settlement', NULL, 'provider_settlement', 'payin_credit', -p.amount_minor),
       ('payin_credit', 'merchant:' || j.merchant_id || ':NGN:pending', j.merchant_id, 'pending', 'payin_credit', p.amount_minor),
       ('payin_credit', 'merchant:' || j.merchant_id || ':NGN:pending', j.merchant_id, 'pending', 'payin_fee', -p.fee_minor),
       ('payin_credit', 'platform:NGN:fee_revenue', NULL, 'fee_revenue', 'payin_fee', p.fee_minor),
       ('settlement', 'merchant:' || j.merchant_id || ':NGN:pending', j.merchant_id, 'pending', 'settlement', p.fee_minor - p.amount_minor),
       ('settlement', 'merchant:' || j.merchant_id || ':NGN:available', j.merchant_id, 'available', 'settlement', p.amount_minor - p.fee_minor)
     ) AS e (journal_type, account_id, merchant_id, kind, type, amount)
     WHERE e.journal_type = j.type AND e.amount <> 0`,
    params,
  );
}

/** The accounts the entries name, with the merchant's balances as the sum of its entries. */
async function seedBalances(client: SqlQueryable, merchantId: string): Promise<void> {
  await client.query(
    `INSERT INTO ledger_accounts (id, merchant_id, currency, kind, balance_minor)
     SELECT 'platform:NGN:' || kind, NULL, 'NGN', kind, NULL FROM (VALUES ('provider_settlement'), ('fee_revenue')) AS k (kind)
     ON CONFLICT (id) DO NOTHING`,
  );
  await client.query(
    `INSERT INTO ledger_accounts (id, merchant_id, currency, kind, balance_minor)
     SELECT account_id, $1, 'NGN', kind, sum(amount_minor) FROM ledger_entries WHERE merchant_id = $1 GROUP BY account_id, kind
     ON CONFLICT (id) DO UPDATE SET balance_minor = EXCLUDED.balance_minor`,
    [merchantId],
  );
}

/** Whether this prefix was seeded for the merchant already: its first payin exists. */
export async function alreadySeeded(client: SqlQueryable, merchantId: string, referencePrefix = 'seed'): Promise<boolean> {
  const { rows } = await client.query('SELECT 1 FROM payins WHERE merchant_id = $1 AND reference = $2', [merchantId, `${referencePrefix}-1`]);
  return rows.length > 0;
}

const USAGE =
  'Usage: npm run -s seed:payins -- --merchant M --count N [--mix realistic|uniform] [--from RFC3339] [--spacing-ms MS] [--reference-prefix P] [--with-ledger]\nWrites to DATABASE_URL, migrated first. --mix defaults to realistic.\n';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      count: { type: 'string' },
      merchant: { type: 'string' },
      'merchant-id': { type: 'string' },
      mix: { type: 'string', default: 'realistic' },
      from: { type: 'string' },
      'spacing-ms': { type: 'string' },
      'reference-prefix': { type: 'string', default: 'seed' },
      'with-ledger': { type: 'boolean', default: false },
    },
  });
  const count = Number(values.count);
  const merchantId = values.merchant ?? values['merchant-id'];
  const mix = values.mix as SeedMix;
  if (!Number.isSafeInteger(count) || count < 1 || !merchantId || !Object.hasOwn(MIXES, mix)) {
    process.stderr.write(USAGE);
    process.exit(2);
  }
  const { openPostgres } = await import('../src/db/sql-clients');
  const { SCHEMA } = await import('../src/schema');
  const url = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
  // No driver timeout: one batch of 50000 rows, with its ledger, takes seconds.
  const client = await openPostgres(url, { migrations: SCHEMA, pool: { size: 2, connectTimeoutMs: 10_000, queryTimeoutMs: 3_600_000 } });
  try {
    const prefix = values['reference-prefix'];
    if (await alreadySeeded(client, merchantId, prefix)) {
      process.stderr.write(`${merchantId} already has payins seeded under the prefix ${prefix}; nothing was written. Pass another --reference-prefix to add more.\n`);
      process.exitCode = 1;
      return;
    }
    const startedAt = performance.now();
    await seedPayins(client, {
      merchantId,
      count,
      mix,
      referencePrefix: prefix,
      ...(values.from ? { from: new Date(values.from) } : {}),
      ...(values['spacing-ms'] ? { spacingMs: Number(values['spacing-ms']) } : {}),
      withLedger: values['with-ledger'],
      progress: (written) => process.stderr.write(`\r${written} of ${count} payins`),
    });
    await client.query('ANALYZE payins');
    process.stderr.write(`\nSeeded ${count} payins (${mix}) for ${merchantId} in ${((performance.now() - startedAt) / 1000).toFixed(1)} s.\n`);
  } finally {
    await client.close();
  }
}

if (require.main === module) void main();
