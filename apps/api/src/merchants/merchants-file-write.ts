import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';

/** Permissions of a merchants file the tool creates: its owner's only. */
export const NEW_FILE_PERMISSIONS = 0o600;

/** The new file could not be given the old one's owner and group; nothing was written. */
export class MerchantsFileOwnerRefused extends Error {
  override readonly name = 'MerchantsFileOwnerRefused';
}

/**
 * Replaces `file` with `text` atomically: a temporary file beside it, fsync,
 * rename, fsync of the directory, so that a reader sees the old file or the
 * new one, never half of one. The new file keeps the old one's owner, group
 * and permissions: the service may read it through its group (chgrp and
 * 0640), and a file that came back owned by whoever ran the tool would be
 * unreadable to it. When the owner cannot be kept, nothing is written.
 */
export function replaceFileAtomically(file: string, text: string): void {
  const before = statOrUndefined(file);
  const temporary = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  const handle = fs.openSync(temporary, 'wx', NEW_FILE_PERMISSIONS);
  try {
    try {
      if (before) keepOwner(handle, file, before);
      // Set rather than given to open, which the umask would narrow.
      fs.fchmodSync(handle, before ? before.mode & 0o7777 : NEW_FILE_PERMISSIONS);
      fs.writeSync(handle, text);
      fs.fsyncSync(handle);
    } finally {
      fs.closeSync(handle);
    }
    fs.renameSync(temporary, file);
  } catch (error) {
    fs.rmSync(temporary, { force: true });
    throw error;
  }
  // The rename itself is durable only once the directory is synced.
  const directory = fs.openSync(path.dirname(file), 'r');
  try {
    fs.fsyncSync(directory);
  } finally {
    fs.closeSync(directory);
  }
}

function keepOwner(handle: number, file: string, before: fs.Stats): void {
  const made = fs.fstatSync(handle);
  if (made.uid === before.uid && made.gid === before.gid) return;
  try {
    fs.fchownSync(handle, before.uid, before.gid);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'EPERM' && code !== 'EACCES') throw error;
    const runner = `uid ${process.getuid?.() ?? '?'}`;
    throw new MerchantsFileOwnerRefused(
      `${file} belongs to uid ${before.uid} and gid ${before.gid}, and this user (${runner}) cannot give the new file that owner and group, so the service might no longer read it. Run the command as root or as uid ${before.uid} (for example with sudo -u), in a group that is ${before.gid}.`,
    );
  }
}

function statOrUndefined(file: string): fs.Stats | undefined {
  try {
    return fs.statSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}
