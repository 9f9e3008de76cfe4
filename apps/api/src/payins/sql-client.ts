/** The part of PGlite and node-postgres that the repository uses; both have it. */
export interface SqlClient {
  query<R>(sql: string, params?: unknown[]): Promise<{ rows: R[] }>;
  close(): Promise<void>;
}
