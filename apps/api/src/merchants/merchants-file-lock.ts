import * as fs from 'node:fs';

/** How long an edit waits for another edit of the same file to finish before it gives up. */
export const LOCK_WAIT_MS = 10_000;
/** How often a waiting edit tries the lock again. */
export const LOCK_RETRY_MS = 25;

export interface MerchantsFileLockOptions {
  /** How long to wait for the lock. Default: LOCK_WAIT_MS. */
  waitMs?: number;
  /** The clock the wait is measured by. Default: Date.now. */
  now?: () => number;
  /** Blocks for `ms` between tries. Default: a synchronous wait of the thread (Atomics.wait). */
  pause?: (ms: number) => void;
  /** Whether process `pid` still runs; a lock whose holder has died is taken over. Default: signal 0. */
  isAlive?: (pid: number) => boolean;
}

/** The lock could not be taken within the wait: another edit holds it, and it is named. */
export class MerchantsFileLockBusy extends Error {
  override readonly name = 'MerchantsFileLockBusy';
}

/** The lock file of `file`: beside it, so that every edit of the same file, from any process, meets it. */
export function lockPathOf(file: string): string {
  return `${file}.lock`;
}

/**
 * Runs `edit` holding the exclusive lock of `file`, so that two edits never
 * both read the same file and each write back their own change, the other's
 * lost. The lock is a file created with O_EXCL, holding its holder's pid;
 * one whose pid no longer runs (a tool killed mid-edit) is taken over. It
 * is released when `edit` returns or throws.
 */
export function withMerchantsFileLock<T>(file: string, edit: () => T, options: MerchantsFileLockOptions = {}): T {
  const lockPath = lockPathOf(file);
  const { waitMs = LOCK_WAIT_MS, now = Date.now, pause = pauseThread, isAlive = processIsAlive } = options;
  const deadline = now() + waitMs;
  let handle: number | undefined;
  for (;;) {
    try {
      handle = fs.openSync(lockPath, 'wx', 0o600);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = holderOf(lockPath);
    if (holder !== undefined && !isAlive(holder)) {
      takeOver(lockPath, holder);
      continue;
    }
    if (now() >= deadline) {
      const who = holder === undefined ? 'another edit' : `process ${holder}`;
      throw new MerchantsFileLockBusy(
        `${file} is being edited by ${who} (lock ${lockPath}), which did not finish within ${waitMs / 1000} s. Wait for it and run the command again; if no merchants command is running, remove ${lockPath}.`,
      );
    }
    pause(LOCK_RETRY_MS);
  }
  try {
    fs.writeSync(handle, `${process.pid}\n`);
    fs.closeSync(handle);
    return edit();
  } finally {
    // Only its own lock: one another edit holds is never removed by this one.
    if (holderOf(lockPath) === process.pid) fs.rmSync(lockPath, { force: true });
  }
}

/** The pid a lock file names; undefined while its holder has not written it yet, or once it is gone. */
function holderOf(lockPath: string): number | undefined {
  let text: string;
  try {
    text = fs.readFileSync(lockPath, 'utf8');
  } catch {
    return undefined;
  }
  const pid = Number.parseInt(text, 10);
  return Number.isSafeInteger(pid) && pid > 0 ? pid : undefined;
}

/**
 * Removes the lock of a dead holder. It is first moved aside and read again,
 * so that when two edits find the same dead lock, the second does not remove
 * the lock the first has meanwhile taken: it puts that one back.
 */
function takeOver(lockPath: string, deadHolder: number): void {
  const aside = `${lockPath}.${process.pid}.stale`;
  try {
    fs.renameSync(lockPath, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  if (holderOf(aside) !== deadHolder) {
    // A live lock taken in the meantime: back in place, unless yet another edit has taken the lock since.
    try {
      fs.linkSync(aside, lockPath);
    } catch {
      // The lock is held by the newer edit; this one waits for it.
    }
  }
  fs.rmSync(aside, { force: true });
}

function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

const pauseCell = new Int32Array(new SharedArrayBuffer(4));

/** The command is synchronous from start to end, so its wait blocks the thread rather than the event loop. */
function pauseThread(ms: number): void {
  Atomics.wait(pauseCell, 0, 0, ms);
}
