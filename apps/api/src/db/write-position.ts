import * as fs from 'node:fs';
import * as path from 'node:path';
import type { SqlQueryable } from './sql-client';

/** The embedded database holds fewer writes than it recorded at its last close: some it acknowledged are gone. */
export class LostWritesError extends Error {
  override readonly name = 'LostWritesError';
}

const POSITION_FILE = 'payins.pglite.position';

/** The database's write-ahead log position now: it only grows while the database keeps what it wrote. */
async function positionOf(client: SqlQueryable): Promise<bigint> {
  const { rows } = await client.query<{ lsn: string }>('SELECT pg_current_wal_lsn()::text AS lsn');
  const [high, low] = (rows[0]?.lsn ?? '0/0').split('/').map((part) => BigInt(`0x${part}`)) as [bigint, bigint];
  return (high << 32n) | low;
}

/**
 * Refuses a database in `dataDir` that is behind the position recorded
 * beside it at its last close: writes it acknowledged are missing (two
 * processes ran on one DATA_DIR, or an older copy was put in its place).
 * A kill -9 records nothing, so it never raises this.
 */
export async function refuseLostWrites(client: SqlQueryable, dataDir: string): Promise<void> {
  const file = path.join(dataDir, POSITION_FILE);
  if (!fs.existsSync(file)) return;
  const recorded = BigInt(fs.readFileSync(file, 'utf8').trim() || '0');
  const now = await positionOf(client);
  if (now >= recorded) return;
  throw new LostWritesError(
    `The embedded database in DATA_DIR ${path.resolve(dataDir)} is behind the position it recorded at its last close (${now} < ${recorded}): writes it acknowledged are missing, as when two processes ran on one DATA_DIR or an older copy was put in its place. Restore DATA_DIR from a backup; to start from this database anyway, knowing what it lost, remove ${file}.`,
  );
}

/** Records the database's position beside it, replacing the file atomically: what the next open compares with. */
export async function recordWritePosition(client: SqlQueryable, dataDir: string): Promise<void> {
  const file = path.join(dataDir, POSITION_FILE);
  const temporary = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, `${await positionOf(client)}\n`, { mode: 0o600 });
  fs.renameSync(temporary, file);
}
