import type { Logger } from 'pino';
import type { SqlQueryable } from './sql-client';

/** Ordered schema migrations, the same SQL on PGlite and PostgreSQL. Append; never edit a shipped one. */
export const MIGRATIONS: ReadonlyArray<{ id: number; name: string; statements: readonly string[] }> = [
  {
    id: 1,
    name: 'create payins',
    statements: [
      `CREATE TABLE payins (
      merchant_id text NOT NULL,
      reference text NOT NULL,
      status text NOT NULL,
      amount_minor bigint NOT NULL CHECK (amount_minor > 0),
      currency text NOT NULL,
      customer_email text NOT NULL,
      customer_name text,
      gateway text,
      narration text,
      notify_url text,
      redirect_url text,
      request_fingerprint text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (merchant_id, reference)
    )`,
    ],
  },
  {
    id: 2,
    name: 'payin lifecycle, checkout and listing',
    // Payins created before this have no checkout seed, so no link; their
    // expiry is backfilled as creation + 30 min, the default, after which the
    // sweeper abandons them. Creation times are set by the service to the millisecond
    // from now on, so the listing cursor can name a position exactly.
    statements: [
      `ALTER TABLE payins
        ADD COLUMN expires_at timestamptz,
        ADD COLUMN paid_at timestamptz,
        ADD COLUMN failed_at timestamptz,
        ADD COLUMN failure_reason text,
        ADD COLUMN checkout_seed text,
        ADD COLUMN checkout_token_hash text`,
      `UPDATE payins SET created_at = date_trunc('milliseconds', created_at), expires_at = date_trunc('milliseconds', created_at) + interval '30 minutes'`,
      'ALTER TABLE payins ALTER COLUMN expires_at SET NOT NULL',
      'CREATE UNIQUE INDEX payins_checkout_token_hash ON payins (checkout_token_hash)',
      'CREATE INDEX payins_listing ON payins (merchant_id, created_at DESC, reference DESC)',
      "CREATE INDEX payins_pending_expiry ON payins (expires_at) WHERE status = 'PENDING'",
    ],
  },
  {
    id: 3,
    name: 'webhook outbox',
    // An event row is written in the transaction that makes its payin final
    // (the outbox), and each attempt to deliver it is kept for debugging.
    statements: [
      `CREATE TABLE webhook_events (
        id text PRIMARY KEY,
        merchant_id text NOT NULL,
        reference text NOT NULL,
        type text NOT NULL,
        payload text NOT NULL,
        notify_url text NOT NULL,
        created_at timestamptz NOT NULL,
        status text NOT NULL,
        attempt_count integer NOT NULL DEFAULT 0,
        next_attempt_at timestamptz,
        locked_until timestamptz,
        FOREIGN KEY (merchant_id, reference) REFERENCES payins (merchant_id, reference)
      )`,
      "CREATE INDEX webhook_events_due ON webhook_events (next_attempt_at) WHERE status = 'pending'",
      'CREATE INDEX webhook_events_of_payin ON webhook_events (merchant_id, reference, created_at)',
      `CREATE TABLE webhook_attempts (
        event_id text NOT NULL REFERENCES webhook_events (id),
        attempt integer NOT NULL,
        started_at timestamptz NOT NULL,
        duration_ms integer NOT NULL,
        status_code integer,
        error text,
        response_body text,
        next_attempt_at timestamptz,
        PRIMARY KEY (event_id, attempt)
      )`,
    ],
  },
];

/**
 * The advisory lock that serialises migrations across instances. Any fixed
 * bigint will do, as long as nothing else in the database takes the same one.
 */
const MIGRATION_LOCK_ID = 727001;

/** Runs the migrations not yet applied, each in its own transaction, under an advisory lock so that instances booting together do not race. */
export async function migrate(client: SqlQueryable, logger?: Logger): Promise<void> {
  // Lock first: even CREATE TABLE IF NOT EXISTS races when two sessions run it at once.
  await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
  try {
    await client.query('CREATE TABLE IF NOT EXISTS schema_migrations (id integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())');
    const applied = new Set((await client.query<{ id: number }>('SELECT id FROM schema_migrations')).rows.map((r) => Number(r.id)));
    for (const migration of MIGRATIONS) {
      if (applied.has(migration.id)) continue;
      logger?.info({ migration: migration.id, name: migration.name }, 'applying payin store migration');
      await client.query('BEGIN');
      try {
        for (const statement of migration.statements) await client.query(statement);
        await client.query('INSERT INTO schema_migrations (id, name) VALUES ($1, $2)', [migration.id, migration.name]);
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK');
        throw error;
      }
    }
    logger?.info({ migrations: MIGRATIONS.length }, 'payin store schema is up to date');
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]);
  }
}
