/** How one statement is run, where it differs from every other. */
export interface QueryOptions {
  /** The longest the PostgreSQL driver waits for this statement, instead of DATABASE_QUERY_TIMEOUT_MS; the embedded store has no timeout. */
  timeoutMs?: number;
}

/** What a query runs on: the client itself, or one transaction of it. */
export interface SqlQueryable {
  query<R>(sql: string, params?: unknown[], options?: QueryOptions): Promise<{ rows: R[] }>;
}

/** Injection token of the service's SqlClient: the payin database. */
export const SqlClient = Symbol('SqlClient');

/** The part of PGlite and node-postgres that the repositories use; both have it. */
export interface SqlClient extends SqlQueryable {
  /** Runs `work` in one transaction on one connection: committed if it resolves, rolled back if it throws. */
  transaction<T>(work: (tx: SqlQueryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** A timestamptz as a Date: node-postgres gives Dates, and a PGlite driver may give the text. */
export const toDate = (value: Date | string): Date => (value instanceof Date ? value : new Date(value));
