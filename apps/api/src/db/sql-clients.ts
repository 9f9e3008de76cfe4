import * as fs from 'node:fs';
import * as path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { Client as PgClient, QueryConfig, QueryResult } from 'pg';
import type { Logger } from 'pino';
import { redactUrl } from '../logging/redact-url';
import { lockDataDir } from './data-dir-lock';
import { migrate, type Migration } from './migrations';
import { recordWritePosition, refuseLostWrites } from './write-position';
import { isStoreFailure, StoreUnavailableError } from '../stores/store-failure';
import type { QueryOptions, SqlClient } from './sql-client';

/** The embedded default: PGlite (PostgreSQL in WebAssembly), durable under `dataDir`, migrated. */
export interface OpenOptions {
  /** The schema to bring the database to at open. */
  migrations: readonly Migration[];
  logger?: Logger;
}

/**
 * The embedded database in `dataDir`, for this process alone (its lock),
 * refused when it holds fewer writes than it recorded at its last close.
 */
export async function openPglite(dataDir: string, options: OpenOptions): Promise<SqlClient> {
  const dir = path.join(dataDir, 'payins.pglite');
  fs.mkdirSync(dir, { recursive: true });
  const release = lockDataDir(dataDir);
  let client: SqlClient | undefined;
  try {
    client = await pgliteClient(new PGlite(dir), options);
    await refuseLostWrites(client, dataDir);
  } catch (error) {
    await client?.close().catch(() => undefined);
    release();
    throw error;
  }
  const opened = client;
  return {
    ...opened,
    close: async () => {
      try {
        await recordWritePosition(opened, dataDir);
      } finally {
        try {
          await opened.close();
        } finally {
          release();
        }
      }
    },
  };
}

/** A PGlite database as a SqlClient, migrated. */
export async function pgliteClient(db: PGlite, options: OpenOptions): Promise<SqlClient> {
  await db.waitReady;
  const client: SqlClient = {
    query: async <R>(sql: string, params?: unknown[]) => ({ rows: (await db.query<R>(sql, params)).rows }),
    transaction: (work) => db.transaction((tx) => work({ query: async <R>(sql: string, params?: unknown[]) => ({ rows: (await tx.query<R>(sql, params)).rows }) })),
    close: () => db.close(),
  };
  await migrate(client, options.migrations, options.logger);
  return reportingStoreFailures(client);
}

/** The pool's limits: DATABASE_POOL_SIZE, DATABASE_CONNECT_TIMEOUT_MS and DATABASE_QUERY_TIMEOUT_MS. */
export interface PoolLimits {
  size: number;
  /** How long a query waits for a free connection; past it, the store is unavailable (503, retryable). */
  connectTimeoutMs: number;
  queryTimeoutMs: number;
}

export const DEFAULT_POOL_LIMITS: PoolLimits = { size: 10, connectTimeoutMs: 2000, queryTimeoutMs: 5000 };

/** What `openPostgres` takes besides the runtime URL. */
export interface PostgresOptions extends OpenOptions {
  /**
   * DATABASE_MIGRATION_URL: the role the migrations run as, on one connection of their own, closed once they
   * are done. Defaults to the runtime URL, whose pool serves everything else.
   */
  migrationUrl?: string;
  /** Tests only: the search_path of every connection. */
  schema?: string;
  pool?: PoolLimits;
  /** Production: the boot line saying which role serves requests is a warning when that role could change the schema. Default false. */
  warnWhenRuntimeCanAlterSchema?: boolean;
}

/**
 * PostgreSQL through a pool of `databaseUrl`, migrated at open on a
 * connection of `migrationUrl`. Refused when the two name different databases.
 */
export async function openPostgres(databaseUrl: string, options: PostgresOptions): Promise<SqlClient> {
  const limits = options.pool ?? DEFAULT_POOL_LIMITS;
  const migrationUrl = options.migrationUrl ?? databaseUrl;
  const searchPath = options.schema ? { options: `-c search_path=${options.schema}` } : {};
  // Loaded here, not at the top: a service on the embedded database never loads the PostgreSQL driver.
  const { Client, Pool } = await import('pg');
  const migrationVariable = migrationUrl === databaseUrl ? 'DATABASE_URL' : 'DATABASE_MIGRATION_URL';
  const migrated = await migrateOn(new Client({ connectionString: migrationUrl, connectionTimeoutMillis: limits.connectTimeoutMs, ...searchPath }), options, `${migrationVariable} ${redactUrl(migrationUrl)}`);
  const pool = new Pool({
    connectionString: databaseUrl,
    max: limits.size,
    connectionTimeoutMillis: limits.connectTimeoutMs,
    query_timeout: limits.queryTimeoutMs,
    ...searchPath,
  });
  // An idle client's error (the server went away) must not crash the process; the next query reports it.
  pool.on('error', () => undefined);
  const runtime = await pool.query<RoleRow>(ROLE_QUERY).then(
    (result) => result.rows[0] as RoleRow,
    async (error: Error) => {
      await pool.end().catch(() => undefined);
      throw new Error(`DATABASE_URL ${redactUrl(databaseUrl)} cannot be reached: ${error.message}`);
    },
  );
  if (runtime.database !== migrated.database) {
    await pool.end().catch(() => undefined);
    throw new Error(
      `DATABASE_MIGRATION_URL names the database "${migrated.database}" and DATABASE_URL the database "${runtime.database}": both must name the one database the service keeps its payins in (through a pooler, the database it connects to)`,
    );
  }
  logRoles(options, migrated.role, runtime);
  return reportingStoreFailures({
    query: async <R>(sql: string, params?: unknown[], options?: QueryOptions) => ({ rows: (await runStatement(pool, sql, params, options)).rows as R[] }),
    transaction: async (work) => {
      const connection = await pool.connect();
      let broken: Error | undefined;
      // A connection that dies while checked out (a failover, a terminated backend) emits 'error' on itself, not on
      // the pool: without a listener that would crash the process. The query in flight rejects, and this records why.
      const onError = (error: Error) => (broken = error);
      connection.on('error', onError);
      try {
        await connection.query('BEGIN');
        const result = await work({ query: async <R>(sql: string, params?: unknown[], options?: QueryOptions) => ({ rows: (await runStatement(connection, sql, params, options)).rows as R[] }) });
        await connection.query('COMMIT');
        return result;
      } catch (error) {
        // A connection that cannot even roll back is dropped from the pool, not reused.
        await connection.query('ROLLBACK').catch((rollbackError: Error) => (broken = rollbackError));
        throw error;
      } finally {
        connection.off('error', onError);
        connection.release(broken);
      }
    },
    close: () => pool.end(),
  });
}

/** Who a connection is, and whether it could change the schema: a superuser, or a member of the role that owns `schema_migrations`. */
interface RoleRow {
  role: string;
  database: string;
  can_alter_schema: boolean | null;
}

const ROLE_QUERY = `SELECT current_user AS role, current_database() AS database,
  (SELECT rolsuper FROM pg_roles WHERE rolname = current_user)
    OR coalesce(pg_has_role(current_user, (SELECT relowner FROM pg_class WHERE oid = to_regclass('schema_migrations')), 'USAGE'), false) AS can_alter_schema`;

/**
 * Migrates on a connection of its own: no query timeout (a migration that
 * rewrites a large table takes what it takes), closed once done. Its
 * transactions hold the lock, not its session, so a pooler would do; a direct
 * connection is still what DATABASE_MIGRATION_URL is for (LISTEN needs one).
 */
async function migrateOn(connection: PgClient, options: OpenOptions, named: string): Promise<{ role: string; database: string }> {
  // A connection cut mid-migration emits 'error' on itself: without a listener that would crash the process. The query in flight rejects.
  connection.on('error', () => undefined);
  await connection.connect().catch(async (error: Error) => {
    await connection.end().catch(() => undefined);
    throw new Error(`${named} cannot be reached: ${error.message}`);
  });
  const query = async <R>(sql: string, params?: unknown[]) => ({ rows: (await connection.query(sql, params)).rows as R[] });
  try {
    await migrate(
      {
        query,
        transaction: async (work) => {
          await connection.query('BEGIN');
          try {
            const result = await work({ query });
            await connection.query('COMMIT');
            return result;
          } catch (error) {
            await connection.query('ROLLBACK').catch(() => undefined);
            throw error;
          }
        },
      },
      options.migrations,
      options.logger,
    );
    const { role, database } = (await query<RoleRow>(ROLE_QUERY)).rows[0] as RoleRow;
    return { role, database };
  } finally {
    await connection.end().catch(() => undefined);
  }
}

/** One line at boot: which role migrated, which serves requests, and whether that one could change the schema. */
function logRoles(options: PostgresOptions, migrationRole: string, runtime: RoleRow): void {
  const fields = { migrationRole, runtimeRole: runtime.role, runtimeCanAlterSchema: runtime.can_alter_schema === true };
  if (!fields.runtimeCanAlterSchema) {
    options.logger?.info(fields, `payin store: migrations run as role "${migrationRole}", requests as role "${runtime.role}", which cannot change the schema`);
    return;
  }
  const message = `payin store: requests run as role "${runtime.role}", which can change the schema (it owns the tables or is a superuser); give DATABASE_URL a role with row privileges only and DATABASE_MIGRATION_URL the owner (docs/operations.md, "Database roles")`;
  if (options.warnWhenRuntimeCanAlterSchema) options.logger?.warn(fields, message);
  else options.logger?.info(fields, message);
}

/** A pool or one of its connections: what a statement runs on. */
interface Queryable {
  query(text: string, values?: unknown[]): Promise<QueryResult>;
  query(config: QueryConfig): Promise<QueryResult>;
}

/**
 * A statement on node-postgres, with its own read timeout, which replaces the
 * pool's, when one is given. Without one it goes as text and values: the
 * driver copies a config object descriptor by descriptor on every query,
 * 0.9 % of a payin create's CPU profile (`bench:server -- --money --profile`).
 */
function runStatement(on: Queryable, sql: string, params: unknown[] | undefined, options: QueryOptions | undefined): Promise<QueryResult> {
  if (options?.timeoutMs === undefined) return on.query(sql, params);
  return on.query(timedStatement(sql, params, options.timeoutMs));
}

/** A statement with its own read timeout, as node-postgres takes it: a config object, never a named one (transaction pooling would break it). */
function timedStatement(sql: string, params: unknown[] | undefined, timeoutMs: number): QueryConfig {
  return { text: sql, ...(params === undefined ? {} : { values: params }), query_timeout: timeoutMs } as QueryConfig;
}

/**
 * The client, with its driver's failures (a connection refused or cut, a
 * timeout, a database shutting down) turned into StoreUnavailableError, so
 * that every repository on it answers 503 for them and a bug for the rest.
 */
function reportingStoreFailures(client: SqlClient): SqlClient {
  const reported = (error: unknown): never => {
    throw isStoreFailure(error) && !(error instanceof StoreUnavailableError) ? new StoreUnavailableError('payin store', { cause: error }) : error;
  };
  return {
    query: <R>(sql: string, params?: unknown[], options?: QueryOptions) => client.query<R>(sql, params, options).catch(reported),
    transaction: (work) => client.transaction(work).catch(reported),
    close: () => client.close(),
  };
}
