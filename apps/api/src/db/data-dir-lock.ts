import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/** The data directories this process holds: a second open of one of them in this process is refused as another process's would be. */
const held = new Set<string>();

/** How often the holder touches its lock, and after how long untouched a lock of another host is taken for abandoned. */
const HEARTBEAT_MS = 10_000;
const ABANDONED_AFTER_MS = 60_000;

/** DATA_DIR is held by a live process: the embedded database takes one process at a time. */
export class DataDirInUseError extends Error {
  override readonly name = 'DataDirInUseError';
}

interface Holder {
  pid: number;
  host: string;
}

/**
 * Takes the embedded database's lock in `dataDir`: a file naming this
 * process (`pid host`), put in place whole with link(2), which fails when
 * one exists, so that no process ever reads a lock half written. Two
 * processes on one embedded database would each overwrite the other's
 * writes. A lock is taken over only when its holder is gone: a process of
 * this host that no longer runs (a kill -9), or, for a holder on another
 * host (another container on the same volume), a lock its holder has not
 * touched for a minute. The holder touches it every ten seconds. Resolves
 * the release, which removes the lock.
 */
export function lockDataDir(dataDir: string): () => void {
  const dir = path.resolve(dataDir);
  const lockPath = path.join(dir, 'payins.pglite.lock');
  const me: Holder = { pid: process.pid, host: os.hostname() };
  if (held.has(dir)) throw inUse(dir, lockPath, me);
  const draft = `${lockPath}.${me.pid}.${Date.now()}`;
  fs.writeFileSync(draft, `${me.pid} ${me.host}\n`, { mode: 0o600 });
  try {
    for (let attempt = 0; ; attempt++) {
      try {
        fs.linkSync(draft, lockPath);
        break;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt >= 3) throw error;
        const holder = holderOf(lockPath);
        if (holder === undefined || !abandoned(lockPath, holder, me)) throw inUse(dir, lockPath, holder);
        // Moved aside before it is checked again: of two processes taking one abandoned lock over, only one moves it.
        const aside = `${lockPath}.abandoned.${me.pid}`;
        try {
          fs.renameSync(lockPath, aside);
        } catch (renameError) {
          if ((renameError as NodeJS.ErrnoException).code === 'ENOENT') continue;
          throw renameError;
        }
        const moved = holderOf(aside);
        fs.rmSync(aside, { force: true });
        // Another process put a fresh lock in place between the check and the move: it is the holder.
        if (moved === undefined || moved.pid !== holder.pid || moved.host !== holder.host) throw inUse(dir, lockPath, moved);
      }
    }
  } finally {
    fs.rmSync(draft, { force: true });
  }
  held.add(dir);
  const heartbeat = setInterval(() => {
    const now = new Date();
    try {
      fs.utimesSync(lockPath, now, now);
    } catch {
      // The next beat tries again; a lock missing altogether is the operator's doing.
    }
  }, HEARTBEAT_MS);
  heartbeat.unref();
  return () => {
    clearInterval(heartbeat);
    held.delete(dir);
    if (sameHolder(holderOf(lockPath), me)) fs.rmSync(lockPath, { force: true });
  };
}

/** The lock's holder, or undefined when it cannot be read as one (which counts as held: it may be being written by hand). */
function holderOf(lockPath: string): Holder | undefined {
  try {
    const [pidText, host] = fs.readFileSync(lockPath, 'utf8').trim().split(' ');
    const pid = Number(pidText);
    return Number.isInteger(pid) && pid > 0 && host ? { pid, host } : undefined;
  } catch {
    return undefined;
  }
}

function sameHolder(a: Holder | undefined, b: Holder): boolean {
  return a !== undefined && a.pid === b.pid && a.host === b.host;
}

/** Whether the lock's holder is gone: on this host, a process that no longer runs, or this pid held by no one here (a restart that got the dead holder's pid, as a container's first process does); elsewhere, a lock untouched for a minute. */
function abandoned(lockPath: string, holder: Holder, me: Holder): boolean {
  if (holder.host === me.host) return holder.pid === me.pid || !alive(holder.pid);
  try {
    return Date.now() - fs.statSync(lockPath).mtimeMs > ABANDONED_AFTER_MS;
  } catch {
    return false;
  }
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

function inUse(dir: string, lockPath: string, holder: Holder | undefined): DataDirInUseError {
  const who = holder ? `process ${holder.pid} on ${holder.host}` : 'another process (its lock cannot be read)';
  return new DataDirInUseError(
    `DATA_DIR ${dir} is in use by ${who} (its lock is ${lockPath}): the embedded database takes one process at a time, and a second would overwrite the first's writes. Stop that process first, or give this one another DATA_DIR; to run several instances, use PostgreSQL (DATABASE_URL). If no instance of the service or ledger-check runs on this DATA_DIR, remove ${lockPath}.`,
  );
}
