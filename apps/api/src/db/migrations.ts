import type { Logger } from 'pino';
import type { SqlClient } from './sql-client';

/** One step of the schema: its statements run in one transaction, once. Append new ones; never edit a shipped one. */
export interface Migration {
  id: number;
  name: string;
  statements: readonly string[];
}

/**
 * The advisory lock that serialises migrations across instances. Any fixed
 * bigint will do, as long as nothing else in the database takes the same one.
 * Releases before this one held it for the session: a session's lock and a
 * transaction's on the same key exclude each other, so both still serialise.
 */
const MIGRATION_LOCK_ID = 727001;

/** What migrations run on: queries, and transactions each on one connection. */
export type MigrationClient = Pick<SqlClient, 'query' | 'transaction'>;

/**
 * Runs the migrations not yet applied, in order, each in its own transaction.
 * Each transaction takes a transaction-scoped advisory lock and checks again
 * that its migration is still missing, so that instances booting together do
 * not race; nothing is held between transactions, so a pooler in transaction
 * mode, which may hand each transaction another server connection, keeps it
 * safe. A database already up to date is only read: a role with no right to
 * change the schema opens it. A database a newer release has migrated further
 * is used as it is, with a warning.
 */
export async function migrate(client: MigrationClient, migrations: readonly Migration[], logger?: Logger): Promise<void> {
  let present = (await client.query<{ present: boolean }>("SELECT to_regclass('schema_migrations') IS NOT NULL AS present")).rows[0]?.present === true;
  const applied = present ? new Set((await client.query<{ id: number }>('SELECT id FROM schema_migrations')).rows.map((r) => Number(r.id))) : new Set<number>();
  const known = new Set(migrations.map((migration) => migration.id));
  const newer = [...applied].filter((id) => !known.has(id)).sort((a, b) => a - b);
  // A rollback, or an instance of the previous release restarting during a rolling upgrade. Migrations only
  // expand (a column or table this release does not know is one it never reads), so it runs; it must not refuse.
  if (newer.length > 0) logger?.warn({ newerMigrations: newer }, 'payin store schema is ahead of this release: migrations applied by a newer release are left as they are');
  const missing = migrations.filter((migration) => !applied.has(migration.id));
  for (const migration of missing) {
    await client.transaction(async (tx) => {
      // Lock first: even CREATE TABLE IF NOT EXISTS races when two sessions run it at once.
      await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_ID]);
      if (!present) await tx.query(CREATE_SCHEMA_MIGRATIONS);
      // Another instance may have applied it while this one waited for the lock.
      if ((await tx.query('SELECT 1 FROM schema_migrations WHERE id = $1', [migration.id])).rows.length > 0) return;
      logger?.info({ migration: migration.id, name: migration.name }, 'applying payin store migration');
      for (const statement of migration.statements) await tx.query(statement);
      await tx.query('INSERT INTO schema_migrations (id, name) VALUES ($1, $2)', [migration.id, migration.name]);
    });
    present = true;
  }
  // No migration given (the ledger check) on an empty database: the table is still made, so that it reads as "migration 0".
  if (!present) {
    await client.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_ID]);
      await tx.query(CREATE_SCHEMA_MIGRATIONS);
    });
  }
  logger?.info({ migrations: migrations.length }, 'payin store schema is up to date');
}

const CREATE_SCHEMA_MIGRATIONS = 'CREATE TABLE IF NOT EXISTS schema_migrations (id integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())';
