import * as fs from 'node:fs';
import * as path from 'node:path';

/** The data directories this process holds: a second open of one of them in this process is refused as another process's would be. */
const held = new Set<string>();

/** DATA_DIR is held by a live process: the embedded database takes one process at a time. */
export class DataDirInUseError extends Error {
  override readonly name = 'DataDirInUseError';
}

/**
 * Takes the embedded database's lock in `dataDir`, a file holding this
 * process's pid, created only if absent: two processes on one embedded
 * database would each overwrite the other's writes. A lock whose process
 * is gone (a kill -9) is taken over. Resolves the release, which removes
 * the lock.
 */
export function lockDataDir(dataDir: string): () => void {
  const dir = path.resolve(dataDir);
  const lockPath = path.join(dir, 'payins.pglite.lock');
  if (held.has(dir)) throw inUse(dir, lockPath, process.pid);
  for (let attempt = 0; ; attempt++) {
    try {
      const fd = fs.openSync(lockPath, 'wx', 0o600);
      fs.writeSync(fd, `${process.pid}\n`);
      fs.closeSync(fd);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 0) throw error;
      const holder = Number.parseInt(fs.readFileSync(lockPath, 'utf8'), 10);
      // Our own pid in a lock this process does not hold: a restart that got the dead holder's pid, as a container's first process does.
      if (Number.isInteger(holder) && holder !== process.pid && alive(holder)) throw inUse(dir, lockPath, holder);
      fs.rmSync(lockPath, { force: true });
    }
  }
  held.add(dir);
  return () => {
    held.delete(dir);
    fs.rmSync(lockPath, { force: true });
  };
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function inUse(dir: string, lockPath: string, pid: number): DataDirInUseError {
  return new DataDirInUseError(
    `DATA_DIR ${dir} is in use by process ${pid} (its lock is ${lockPath}): the embedded database takes one process at a time, and a second would overwrite the first's writes. Stop that process first, or give this one another DATA_DIR; to run several instances, use PostgreSQL (DATABASE_URL). If no instance of the service or ledger-check runs on this DATA_DIR, the process is another program that got the pid of one that died: remove ${lockPath}.`,
  );
}
