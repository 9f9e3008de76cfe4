import * as fs from 'node:fs';
import * as path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
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

/** PostgreSQL through a pool, migrated at open. `schema` (tests only) sets the search_path of every connection. */
export async function openPostgres(databaseUrl: string, options: OpenOptions & { schema?: string; pool?: PoolLimits }): Promise<SqlClient> {
  const limits = options.pool ?? DEFAULT_POOL_LIMITS;
  // Loaded here, not at the top: a service on the embedded database never loads the PostgreSQL driver.
  const { Pool } = await import('pg');
  const pool = new Pool({
    connectionString: databaseUrl,
    max: limits.size,
    connectionTimeoutMillis: limits.connectTimeoutMs,
    query_timeout: limits.queryTimeoutMs,
    ...(options.schema ? { options: `-c search_path=${options.schema}` } : {}),
  });
  // An idle client's error (the server went away) must not crash the process; the next query reports it.
  pool.on('error', () => undefined);
  // Migrate on one dedicated connection: the advisory lock and each transaction belong to a session.
  const connection = await pool.connect().catch(async (error: Error) => {
    await pool.end().catch(() => undefined);
    throw new Error(`DATABASE_URL ${redactUrl(databaseUrl)} cannot be reached: ${error.message}`);
  });
  let broken: Error | undefined;
  const onError = (error: Error) => (broken = error);
  connection.on('error', onError);
  try {
    await migrate({ query: async <R>(sql: string, params?: unknown[]) => ({ rows: (await connection.query(sql, params)).rows as R[] }) }, options.migrations, options.logger);
  } finally {
    connection.off('error', onError);
    connection.release(broken);
  }
  return reportingStoreFailures({
    query: async <R>(sql: string, params?: unknown[], options?: QueryOptions) => ({ rows: (await pool.query(pgQuery(sql, params, options))).rows as R[] }),
    transaction: async (work) => {
      const connection = await pool.connect();
      let broken: Error | undefined;
      // A connection that dies while checked out (a failover, a terminated backend) emits 'error' on itself, not on
      // the pool: without a listener that would crash the process. The query in flight rejects, and this records why.
      const onError = (error: Error) => (broken = error);
      connection.on('error', onError);
      try {
        await connection.query('BEGIN');
        const result = await work({ query: async <R>(sql: string, params?: unknown[], options?: QueryOptions) => ({ rows: (await connection.query(pgQuery(sql, params, options))).rows as R[] }) });
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

/** A statement as node-postgres takes it: with its own read timeout, which replaces the pool's, when one is given. */
function pgQuery(sql: string, params: unknown[] | undefined, options: QueryOptions | undefined): { text: string; values?: unknown[]; query_timeout?: number } {
  return { text: sql, ...(params === undefined ? {} : { values: params }), ...(options?.timeoutMs === undefined ? {} : { query_timeout: options.timeoutMs }) };
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
