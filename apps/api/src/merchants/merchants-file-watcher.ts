import * as fs from 'node:fs';
import type { Logger } from 'pino';
import type { ServiceMode } from '../config/app-config';
import type { ServiceMetrics } from '../metrics/service-metrics';
import { MerchantsFileUnreadable, readMerchantsFile, type MerchantRegistry } from './merchant-registry';

/** Why a reload was refused: the file could not be read (permissions, missing), or was read and is not a valid merchants file. */
export type MerchantsReloadFailure = 'unreadable' | 'invalid';

export interface MerchantsFileWatcherOptions {
  file: string;
  mode: ServiceMode;
  /** How often the file is checked for changes; 0 watches nothing, and only `reload()` (SIGHUP) reads it. */
  intervalMs: number;
  logger: Logger;
  /** The file's version (fileVersion) just before the merchants in force were read; the watcher reads it itself when not given. */
  versionRead?: string | undefined;
  /** Where refused reloads are counted. Default: nowhere. */
  metrics?: Pick<ServiceMetrics, 'merchantsReloadFailures'>;
}

/** What tells one state of the file from another: its inode (a rename or a kubelet's symlink swap), size and modification time. */
export function fileVersion(file: string): string | undefined {
  try {
    const stats = fs.statSync(file);
    return `${stats.ino}:${stats.size}:${stats.mtimeMs}`;
  } catch {
    return undefined;
  }
}

/**
 * Reloads MERCHANTS_FILE without a restart, on SIGHUP and when the file
 * changes on disk. A new file is validated whole first: an invalid one is
 * refused with an error line and the one in force stays. Polling its version
 * (inode, size, modification time), rather than inotify, also sees a file
 * replaced by rename or by a mounted ConfigMap or Secret, whose kubelet swaps
 * a symlink. Each poll compares with the version last read, not with the
 * previous poll, so a change made while the service started is seen too.
 * A refused file is read again at each poll until one is put in force, so
 * that mending its permissions (which leaves its modification time as it
 * was) is seen, and each refusal is counted; it is logged once, and again
 * only when the reason changes.
 */
export class MerchantsFileWatcher {
  private timer: NodeJS.Timeout | undefined;
  private versionSeen: string | undefined;
  /** The last refusal's message while the file on disk is refused; undefined once one is in force. */
  private refusal: string | undefined;

  constructor(
    private readonly registry: MerchantRegistry,
    private readonly options: MerchantsFileWatcherOptions,
  ) {
    this.versionSeen = 'versionRead' in options ? options.versionRead : fileVersion(options.file);
  }

  start(): void {
    if (this.options.intervalMs <= 0 || this.timer) return;
    this.poll();
    this.timer = setInterval(() => this.poll(), this.options.intervalMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Reads, validates and puts the file in force; false when it was refused. */
  reload(reason: string): boolean {
    const { file, mode, logger } = this.options;
    let entries;
    try {
      entries = readMerchantsFile(file, { mode });
    } catch (error) {
      const failure: MerchantsReloadFailure = error instanceof MerchantsFileUnreadable ? 'unreadable' : 'invalid';
      this.options.metrics?.merchantsReloadFailures.inc({ reason: failure });
      const message = (error as Error).message;
      if (reason !== 'file still refused' || message !== this.refusal) {
        logger.error({ file, reason, failure, err: message }, 'merchants file refused: the merchants already in force stay in force');
      }
      this.refusal = message;
      return false;
    }
    this.refusal = undefined;
    const changes = this.registry.replace(entries);
    logger.info({ file, reason, ...changes }, 'merchants file reloaded');
    return true;
  }

  private poll(): void {
    const version = fileVersion(this.options.file);
    if (version === this.versionSeen) {
      if (this.refusal !== undefined) this.reload('file still refused');
      return;
    }
    // Noted before the read: a write landing during it is another version, reloaded at the next poll.
    this.versionSeen = version;
    this.reload('file changed');
  }
}
