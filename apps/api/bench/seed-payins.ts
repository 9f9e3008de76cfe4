// Seeds payins for one merchant straight into the payin database, fast: one
// INSERT ... SELECT FROM generate_series per batch, run by the database
// itself. Successful payins (nine in ten; the rest FAILED), of varied amounts
// and customers (some with commas and quotes, which the CSV quotes), created
// one every `spacingMs` from `from`, to the millisecond as the service writes
// them. With `withLedger`, each successful one gets the journals and entries
// the service posts (credit, fee, settlement) and the merchant's balances,
// so that balance-entries is as big. For benchmarks and manual checks, never
// the service itself.
//   npm run -s seed:payins -- --count 1000000 --merchant-id MCH-SANDBOX-0001 [--from 2026-01-01T00:00:00Z] [--spacing-ms 1000] [--with-ledger]
// against DATABASE_URL (migrated first).
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
}

/** Seeds `count` payins; resolves with how many were written. */
export async function seedPayins(client: SqlQueryable, options: SeedOptions): Promise<number> {
  const from = (options.from ?? new Date('2026-01-01T00:00:00Z')).toISOString();
  const spacing = options.spacingMs ?? 1000;
  const batch = options.batchRows ?? 50_000;
  const prefix = options.referencePrefix ?? 'seed';
  for (let start = 1; start <= options.count; start += batch) {
    const end = Math.min(options.count, start + batch - 1);
    const params = [options.merchantId, from, spacing, prefix, start, end];
    await client.query(
      `INSERT INTO payins (merchant_id, reference, status, amount_minor, fee_minor, currency, customer_email, customer_name, gateway, narration, request_fingerprint,
                           created_at, expires_at, paid_at, failed_at, failure_reason, version, provider)
       SELECT $1, $4 || '-' || i, CASE WHEN i % 10 = 0 THEN 'FAILED' ELSE 'SUCCESSFUL' END,
              100 + (i::bigint * 7919) % 100000000, CASE WHEN i % 10 = 0 THEN NULL ELSE (100 + (i::bigint * 7919) % 100000000) * 15 / 1000 END, 'NGN',
              'customer' || (i % 5000) || '@example.com', CASE WHEN i % 3 = 0 THEN 'Obi, Ada "' || (i % 97) || '"' ELSE 'Ada Obi ' || (i % 97) END,
              'card', 'Order ' || i, 'seed',
              t, t + interval '30 minutes', CASE WHEN i % 10 = 0 THEN NULL ELSE t + interval '2 minutes' END,
              CASE WHEN i % 10 = 0 THEN t + interval '1 minute' END, CASE WHEN i % 10 = 0 THEN 'card_declined' END, 2, 'sandbox'
       FROM generate_series($5::int, $6::int) AS i, LATERAL (SELECT $2::timestamptz + (i - 1)::bigint * $3::int * interval '1 millisecond' AS t) AS created`,
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

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      count: { type: 'string' },
      'merchant-id': { type: 'string' },
      from: { type: 'string' },
      'spacing-ms': { type: 'string' },
      'reference-prefix': { type: 'string' },
      'with-ledger': { type: 'boolean', default: false },
    },
  });
  const count = Number(values.count);
  if (!Number.isSafeInteger(count) || count < 1 || !values['merchant-id']) {
    process.stderr.write('Usage: npm run -s seed:payins -- --count N --merchant-id M [--from RFC3339] [--spacing-ms MS] [--reference-prefix P] [--with-ledger]\nWrites to DATABASE_URL, migrated first.\n');
    process.exit(2);
  }
  const { openPostgres } = await import('../src/db/sql-clients');
  const { SCHEMA } = await import('../src/schema');
  const url = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
  // No driver timeout: one batch of 50000 rows, with its ledger, takes seconds.
  const client = await openPostgres(url, { migrations: SCHEMA, pool: { size: 2, connectTimeoutMs: 10_000, queryTimeoutMs: 3_600_000 } });
  try {
    const startedAt = performance.now();
    await seedPayins(client, {
      merchantId: values['merchant-id'],
      count,
      ...(values.from ? { from: new Date(values.from) } : {}),
      ...(values['spacing-ms'] ? { spacingMs: Number(values['spacing-ms']) } : {}),
      ...(values['reference-prefix'] ? { referencePrefix: values['reference-prefix'] } : {}),
      withLedger: values['with-ledger'],
      progress: (written) => process.stderr.write(`\r${written} of ${count} payins`),
    });
    await client.query('ANALYZE payins');
    process.stderr.write(`\nSeeded ${count} payins for ${values['merchant-id']} in ${((performance.now() - startedAt) / 1000).toFixed(1)} s.\n`);
  } finally {
    await client.close();
  }
}

if (require.main === module) void main();
