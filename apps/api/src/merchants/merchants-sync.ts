import type { Logger } from 'pino';
import type { ServiceMetrics } from '../metrics/service-metrics';
import type { MerchantRegistry } from './merchant-registry';
import { MERCHANTS_CHANNEL, type MerchantStore } from './merchant-store';

/** How many MERCHANTS_SYNC_MAX_LAG_MS without an answer from the database make the merchants in force untrusted; several, so that a busy event loop alone never does. */
const STALE_AFTER_LAGS = 3;
const STALE_AFTER_MIN_MS = 5000;

/** Why a load was refused: the database did not answer, or a merchant in it did not load. */
export type MerchantsReloadFailure = 'unreachable' | 'invalid';

export interface MerchantsSyncOptions {
  /** MERCHANTS_SYNC_MAX_LAG_MS: how late a change whose announcement was lost may be loaded; the version check runs twice in it. */
  maxLagMs: number;
  /** How often the keys' last use is written. */
  lastUsedFlushMs: number;
  logger: Logger;
  metrics?: Pick<ServiceMetrics, 'merchantsReloadFailures'>;
  /**
   * Subscribes to the announcements of changes (PostgreSQL LISTEN), calling
   * back on each, and on `onLost` once its connection is gone; resolves to
   * its unsubscribe. Absent on the embedded database, which no other process
   * writes while the service holds it.
   */
  listen?: (onChange: () => void, onLost: () => void) => Promise<() => Promise<void>>;
  /** The real clock the database's answers are timed by; a test's own. */
  now?: () => number;
}

/**
 * Keeps the registry equal to the merchants in the database, on every
 * instance: a change is loaded when its announcement arrives (LISTEN/NOTIFY,
 * immediate), and in any case at the next version check, twice every
 * MERCHANTS_SYNC_MAX_LAG_MS, so that a lost announcement (a dropped
 * connection, a pooler that drops LISTEN) cannot keep a revoked key alive
 * for longer. A load reads one snapshot, and replaces the registry whole.
 */
export class MerchantsSync {
  private timer: NodeJS.Timeout | undefined;
  private flushTimer: NodeJS.Timeout | undefined;
  private unlisten: (() => Promise<void>) | undefined;
  private loaded: bigint;
  /** The load in flight, and the one asked for meanwhile, which starts when it ends. */
  private running: Promise<void> | undefined;
  private queued: Promise<void> | undefined;
  private lastRefusals = '';

  constructor(
    private readonly registry: MerchantRegistry,
    private readonly store: MerchantStore,
    private readonly options: MerchantsSyncOptions,
    loadedVersion: bigint,
  ) {
    this.loaded = loadedVersion;
  }

  async start(): Promise<void> {
    if (this.timer) return;
    this.answered();
    // Twice per MERCHANTS_SYNC_MAX_LAG_MS: a change found at a check is loaded and in force within the other half.
    this.timer = setInterval(() => void this.check(), Math.max(50, Math.floor(this.options.maxLagMs / 2)));
    this.timer.unref();
    this.flushTimer = setInterval(() => void this.flushLastUsed(), this.options.lastUsedFlushMs);
    this.flushTimer.unref();
    await this.subscribe();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    clearInterval(this.flushTimer);
    this.timer = undefined;
    await this.unlisten?.().catch(() => undefined);
    this.unlisten = undefined;
    await this.queued;
    await this.running;
    await this.flushLastUsed();
  }

  /**
   * Loads the merchants, whatever the version, in a load that starts after
   * this call: after a change this instance made itself, so that it is in
   * force before its answer. A load already in flight may have read before
   * that change, so the caller waits for the next one, which every caller
   * meanwhile shares.
   */
  refresh(reason = 'changed here'): Promise<void> {
    if (this.queued) return this.queued;
    const start = (): Promise<void> => {
      this.queued = undefined;
      const running = this.load(reason).finally(() => {
        if (this.running === running) this.running = undefined;
      });
      this.running = running;
      return running;
    };
    if (!this.running) return start();
    this.queued = this.running.then(start, start);
    return this.queued;
  }

  /** The version check: loads only when the database's version moved past the one in force. */
  async check(): Promise<void> {
    try {
      const version = await this.store.version();
      if (version === this.loaded) this.answered();
      else await this.refresh('version moved');
      // Not listening (the connection dropped): try again, the check meanwhile bounding the lag.
      if (!this.unlisten && this.options.listen && this.timer) await this.subscribe();
    } catch (error) {
      this.refused('unreachable', (error as Error).message);
    }
  }

  private async load(reason: string): Promise<void> {
    let loaded;
    try {
      loaded = await this.store.loadAll();
    } catch (error) {
      return this.refused('unreachable', (error as Error).message);
    }
    const changes = this.registry.replace(loaded.entries);
    this.loaded = loaded.version;
    this.answered();
    const refusals = JSON.stringify(loaded.refused);
    if (loaded.refused.length > 0) {
      this.options.metrics?.merchantsReloadFailures.inc({ reason: 'invalid' }, loaded.refused.length);
      if (refusals !== this.lastRefusals) this.options.logger.error({ refused: loaded.refused }, 'merchants left out of the load: their keys are refused until they are mended');
    }
    this.lastRefusals = refusals;
    this.options.logger.info({ reason, version: String(loaded.version), ...changes }, 'merchants loaded');
  }

  /**
   * The database answered: the merchants in force match it for now. Past
   * STALE_AFTER_LAGS lags (at least STALE_AFTER_MIN_MS) without an answer,
   * the registry trusts no key (503), so that a revocation is never ignored
   * for long by an instance that cannot see it.
   */
  private answered(): void {
    this.registry.keepFreshUntil((this.options.now ?? Date.now)() + Math.max(STALE_AFTER_MIN_MS, this.options.maxLagMs * STALE_AFTER_LAGS));
  }

  private refused(failure: MerchantsReloadFailure, message: string): void {
    this.options.metrics?.merchantsReloadFailures.inc({ reason: failure });
    this.options.logger.warn({ failure, err: message }, 'merchants could not be loaded: the merchants already in force stay in force');
  }

  private async subscribe(): Promise<void> {
    if (!this.options.listen) return;
    try {
      this.unlisten = await this.options.listen(
        () => void this.refresh('announced'),
        () => {
          // Announcements made while it was gone are lost: load now, and the version check subscribes again.
          this.unlisten = undefined;
          void this.refresh('listener lost');
        },
      );
    } catch (error) {
      this.unlisten = undefined;
      this.options.logger.warn({ err: (error as Error).message, channel: MERCHANTS_CHANNEL }, 'cannot listen for merchant changes; the version check sees them within MERCHANTS_SYNC_MAX_LAG_MS');
    }
  }

  /** Writes when the keys used since the last write were last used: every MERCHANTS_LAST_USED_FLUSH_SECONDS, and at stop. */
  async flushLastUsed(): Promise<void> {
    const used = this.registry.takeUsed();
    try {
      await this.store.recordLastUsed(used);
    } catch (error) {
      // A lost batch only leaves lastUsedAt older than it is; it is never retried into a write per request.
      this.options.logger.warn({ err: (error as Error).message, keys: used.size }, 'could not record when keys were last used');
    }
  }
}

/** A LISTEN on a connection of its own to `databaseUrl` (never the pool's: a pooler in transaction mode would drop it). */
export function postgresListener(databaseUrl: string): NonNullable<MerchantsSyncOptions['listen']> {
  return async (onChange, onLost) => {
    const { Client } = await import('pg');
    const client = new Client({ connectionString: databaseUrl, connectionTimeoutMillis: 2000 });
    let closed = false;
    client.on('error', () => undefined);
    client.on('end', () => {
      if (!closed) onLost();
    });
    await client.connect();
    client.on('notification', (message) => {
      if (message.channel === MERCHANTS_CHANNEL) onChange();
    });
    await client.query(`LISTEN ${MERCHANTS_CHANNEL}`);
    return async () => {
      closed = true;
      await client.end();
    };
  };
}
