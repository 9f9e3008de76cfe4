import type { Logger } from 'pino';
import type { Clock } from '../config/clock';
import type { PayinEventOf } from './payin-events';
import type { PayinRepository } from './payin-repository.interface';

export interface PayinExpirySweeperOptions {
  payins: PayinRepository;
  /** Abandoning a payin notifies it like any other transition. */
  eventOf: PayinEventOf;
  clock: Clock;
  logger: Logger;
  intervalMs: number;
  batchSize: number;
}

/**
 * Abandons the payins that expired unpaid, on every instance. Safe with N
 * instances: each batch is one UPDATE guarded by `status = 'PENDING'` over
 * rows taken with SKIP LOCKED, so instances split the work and a payin moves
 * once. Reads do not wait for it: they abandon an expired payin themselves.
 */
export class PayinExpirySweeper {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private storeDown = false;
  private stopped = false;

  constructor(private readonly options: PayinExpirySweeperOptions) {}

  start(): void {
    if (this.timer) return;
    this.stopped = false;
    this.timer = setInterval(() => void this.sweep(), this.options.intervalMs);
    this.timer.unref();
  }

  /** Stops the timer and waits for a sweep in progress, so the store is not closed under it. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }

  /** One sweep: batches until none is full. Never throws; a store failure is logged once, and retried at the next tick. */
  sweep(): Promise<void> {
    this.running ??= this.drain().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private async drain(): Promise<void> {
    const { payins, clock, logger, batchSize, eventOf } = this.options;
    try {
      let abandoned = 0;
      for (;;) {
        const batch = await payins.expireDue(new Date(clock()), { limit: batchSize }, eventOf);
        abandoned += batch.length;
        if (batch.length < batchSize || this.stopped) break;
      }
      if (abandoned > 0) logger.info({ abandoned }, 'abandoned payins that expired unpaid');
      this.storeDown = false;
    } catch (error) {
      if (!this.storeDown) logger.warn({ err: (error as Error).message }, 'could not abandon expired payins; retrying at the next sweep');
      this.storeDown = true;
    }
  }
}
