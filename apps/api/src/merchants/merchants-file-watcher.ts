import * as fs from 'node:fs';
import type { Logger } from 'pino';
import type { ServiceMode } from '../config/app-config';
import { readMerchantsFile, type MerchantRegistry } from './merchant-registry';

export interface MerchantsFileWatcherOptions {
  file: string;
  mode: ServiceMode;
  /** How often the file is checked for changes; 0 watches nothing, and only `reload()` (SIGHUP) reads it. */
  intervalMs: number;
  logger: Logger;
}

/**
 * Reloads MERCHANTS_FILE without a restart, on SIGHUP and when the file
 * changes on disk. A new file is validated whole first: an invalid one is
 * refused with an error line and the one in force stays. Polling, rather than
 * inotify, also sees a file replaced by rename or by a mounted ConfigMap.
 */
export class MerchantsFileWatcher {
  private readonly onChange = (current: fs.Stats, previous: fs.Stats) => {
    if (current.mtimeMs !== previous.mtimeMs || current.size !== previous.size || current.ino !== previous.ino) this.reload('file changed');
  };

  constructor(
    private readonly registry: MerchantRegistry,
    private readonly options: MerchantsFileWatcherOptions,
  ) {}

  start(): void {
    if (this.options.intervalMs > 0) fs.watchFile(this.options.file, { interval: this.options.intervalMs, persistent: false }, this.onChange);
  }

  stop(): void {
    fs.unwatchFile(this.options.file, this.onChange);
  }

  /** Reads, validates and puts the file in force; false when it was refused. */
  reload(reason: string): boolean {
    const { file, mode, logger } = this.options;
    let entries;
    try {
      entries = readMerchantsFile(file, { mode });
    } catch (error) {
      logger.error({ file, reason, err: (error as Error).message }, 'merchants file refused: the merchants already in force stay in force');
      return false;
    }
    const changes = this.registry.replace(entries);
    logger.info({ file, reason, ...changes }, 'merchants file reloaded');
    return true;
  }
}
