import type { Logger } from 'pino';
import type { LatencySeries } from '../metrics/latency-histogram';
import type { ServiceMetrics } from '../metrics/service-metrics';
import { isStoreFailure, StoreUnavailableError, type StoreName } from './store-failure';

/** A store as readiness sees it: its probe, and a ping that goes through that probe. */
export interface WatchedStore {
  probe: StoreProbe;
  ping(): Promise<void>;
}

export interface StoreProbeOptions {
  /** How the store is named in logs, metrics and its 503, for example `nonce store`. */
  store: StoreName;
  /** What an operator should check when it fails, for example `REDIS_URL and the Redis server`. */
  check: string;
  metrics: ServiceMetrics;
  logger: Logger;
  /** Errors that are answers, not failures (a full store); they neither count nor log. Default: none. */
  isRefusal?: (error: unknown) => boolean;
}

/**
 * Times every operation on a store and counts its failures; logs one warning
 * when the store stops answering and one line when it answers again, rather
 * than a line per failed request. Only a failure of the store itself (its
 * driver or connection) marks it down, and leaves as a StoreUnavailableError;
 * any other error is a bug of ours, passed on untouched for a 500.
 */
export class StoreProbe {
  private down = false;
  /** The latency series of each operation, resolved once: every signed request makes two or three store operations. */
  private readonly latencyByOperation = new Map<string, LatencySeries>();

  constructor(private readonly options: StoreProbeOptions) {}

  /** Whether the store answered its last operation; true until one fails. */
  get answering(): boolean {
    return !this.down;
  }

  async observe<T>(operation: string, run: () => Promise<T>): Promise<T> {
    const { metrics, store } = this.options;
    const latency = this.latencyOf(operation);
    const startedAt = performance.now();
    try {
      const result = await run();
      this.markUp();
      return result;
    } catch (error) {
      if (this.options.isRefusal?.(error)) {
        this.markUp();
        throw error;
      }
      if (!isStoreFailure(error)) throw error;
      metrics.storeErrors.inc({ store, operation });
      this.markDown(operation, error);
      throw error instanceof StoreUnavailableError ? error : new StoreUnavailableError(store, { cause: error });
    } finally {
      latency.observe((performance.now() - startedAt) / 1000);
    }
  }

  private latencyOf(operation: string): LatencySeries {
    let latency = this.latencyByOperation.get(operation);
    if (latency === undefined) {
      latency = this.options.metrics.storeDuration.with({ store: this.options.store, operation });
      this.latencyByOperation.set(operation, latency);
    }
    return latency;
  }

  private markDown(operation: string, error: unknown): void {
    if (this.down) return;
    this.down = true;
    const { store, check, logger } = this.options;
    logger.warn(
      { store, operation, err: error instanceof Error ? error.message : String(error), check },
      `${store} unreachable: requests that need it are refused with 503 until it answers again; check ${check}`,
    );
  }

  private markUp(): void {
    if (!this.down) return;
    this.down = false;
    this.options.logger.info({ store: this.options.store }, `${this.options.store} answers again: requests are admitted`);
  }
}

/** Runs store work through `probe` when there is one (the service), or as it is (a unit test of the SQL). */
export function observeThrough(probe: StoreProbe | undefined): <T>(operation: string, work: () => Promise<T>) => Promise<T> {
  return (operation, work) => (probe ? probe.observe(operation, work) : work());
}
