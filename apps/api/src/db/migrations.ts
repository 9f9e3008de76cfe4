import type { Logger } from 'pino';
import type { SqlQueryable } from './sql-client';

/** One step of the schema: its statements run in one transaction, once. Append new ones; never edit a shipped one. */
export interface Migration {
  id: number;
  name: string;
  statements: readonly string[];
}

/**
 * The advisory lock that serialises migrations across instances. Any fixed
 * bigint will do, as long as nothing else in the database takes the same one.
 */
const MIGRATION_LOCK_ID = 727001;

/**
 * Runs the migrations not yet applied, in order, each in its own transaction,
 * under an advisory lock so that instances booting together do not race. A
 * database a newer release has migrated further is used as it is, with a warning.
 */
export async function migrate(client: SqlQueryable, migrations: readonly Migration[], logger?: Logger): Promise<void> {
  // Lock first: even CREATE TABLE IF NOT EXISTS races when two sessions run it at once.
  await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
  try {
    await client.query('CREATE TABLE IF NOT EXISTS schema_migrations (id integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())');
    const applied = new Set((await client.query<{ id: number }>('SELECT id FROM schema_migrations')).rows.map((r) => Number(r.id)));
    const known = new Set(migrations.map((migration) => migration.id));
    const newer = [...applied].filter((id) => !known.has(id)).sort((a, b) => a - b);
    // A rollback, or an instance of the previous release restarting during a rolling upgrade. Migrations only
    // expand (a column or table this release does not know is one it never reads), so it runs; it must not refuse.
    if (newer.length > 0) logger?.warn({ newerMigrations: newer }, 'payin store schema is ahead of this release: migrations applied by a newer release are left as they are');
    for (const migration of migrations) {
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
    logger?.info({ migrations: migrations.length }, 'payin store schema is up to date');
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]);
  }
}
