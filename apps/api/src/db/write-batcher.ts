export interface WriteBatcherOptions {
  /** The most items one write carries; more wait for the next. */
  maxBatch: number;
  /**
   * Whether a batch's failure may be one item's doing (a value the store
   * refuses), rather than the store's (it is down or too slow): then each item
   * of the batch is written alone, so that one item cannot fail the others.
   */
  mayBeOneItem?: (error: unknown) => boolean;
  /** Pauses before writing a failed batch again, when the failure is the store's (`!mayBeOneItem`); none by default. */
  retryDelaysMs?: readonly number[];
  /** Waits before a retry; tests give one that does not sleep. */
  pause?: (ms: number) => Promise<void>;
}

/**
 * Writes what many callers hand it in as few statements as the store allows
 * (group commit): an item added while no write is in flight is written at
 * once, and the items added during a write go together in the next one. At
 * low load nothing waits; under load, one round trip and one commit carry a
 * whole batch. Each caller's promise settles with the write that carried its
 * item: resolved once it is stored, with what the write answered for it when
 * the write answers one result per item, in order; rejected with the write's
 * error once its retries are spent.
 */
export class WriteBatcher<T, R = void> {
  private queue: Array<{ item: T; resolve: (result: R) => void; reject: (error: unknown) => void }> = [];
  private writing = false;
  private readonly mayBeOneItem: (error: unknown) => boolean;
  private readonly pause: (ms: number) => Promise<void>;

  constructor(
    private readonly write: (items: T[]) => Promise<readonly R[] | void>,
    private readonly options: WriteBatcherOptions,
  ) {
    if (!Number.isInteger(options.maxBatch) || options.maxBatch < 1) throw new RangeError(`a write batch must hold at least one item, got ${options.maxBatch}`);
    this.mayBeOneItem = options.mayBeOneItem ?? (() => false);
    this.pause = options.pause ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
  }

  add(item: T): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      if (!this.writing) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.writing = true;
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, this.options.maxBatch);
      try {
        const results = await this.writeRetrying(batch.map((entry) => entry.item));
        batch.forEach((entry, i) => entry.resolve(results?.[i] as R));
      } catch (error) {
        if (batch.length > 1 && this.mayBeOneItem(error)) await Promise.all(batch.map((entry) => this.write([entry.item]).then((results) => entry.resolve(results?.[0] as R), entry.reject)));
        else for (const entry of batch) entry.reject(error);
      }
    }
    this.writing = false;
  }

  /** One write, made again after each pause of `retryDelaysMs` while the store is what fails it. */
  private async writeRetrying(items: T[]): Promise<readonly R[] | void> {
    for (const delayMs of [...(this.options.retryDelaysMs ?? []), undefined]) {
      try {
        return await this.write(items);
      } catch (error) {
        if (delayMs === undefined || this.mayBeOneItem(error)) throw error;
        await this.pause(delayMs);
      }
    }
  }
}
