import type { Logger } from 'pino';
import type { Counter } from 'prom-client';

/**
 * The sends an instance has under way to a provider, each holding a slot
 * until the provider answers, its timeout passes or the service shuts
 * down: a provider slow to answer holds its slot, never the whole dispatch.
 */
export class ProviderSends {
  private readonly sending = new Set<Promise<void>>();
  private readonly stopping = new AbortController();

  constructor(
    private readonly options: {
      /** Sends at once, at most (the dispatch's concurrency setting). */
      slots: number;
      /** The longest a call waits for the provider; past it, the outcome is unknown. */
      timeoutMs: number;
      /** Calls by `call` and `outcome` (the answer's, or `unknown` when the call failed or timed out). */
      calls: Counter<'call' | 'outcome'>;
      logger: Logger;
      /** What the calls are about, for the log line of a call that failed. */
      object: 'payout' | 'refund';
      /** Called when a send ends and frees its slot: the dispatch's wake. */
      onFree: () => void;
    },
  ) {}

  /** Slots free for new sends. */
  get free(): number {
    return this.options.slots - this.sending.size;
  }

  /** Aborted at shutdown: a send under way stops waiting for the provider, and its object is settled by a status check. */
  get shutdown(): AbortSignal {
    return this.stopping.signal;
  }

  /** Runs `send` in a slot, without waiting for it; it must never throw. */
  start(send: (shutdown: AbortSignal) => Promise<void>): void {
    const sent = send(this.stopping.signal).finally(() => {
      this.sending.delete(sent);
      this.options.onFree();
    });
    this.sending.add(sent);
  }

  /** Resolves when every send under way has ended: tests wait on it after running the dispatch. */
  async idle(): Promise<void> {
    while (this.sending.size > 0) await Promise.all([...this.sending]);
  }

  /** At shutdown: the sends under way stop waiting, and this resolves when they have ended. */
  async stop(): Promise<void> {
    this.stopping.abort();
    await this.idle();
  }

  /** A provider call under the timeout and the shutdown; undefined when it failed or timed out: the outcome is unknown, never a refusal. */
  async call<T extends { outcome: string }>(name: string, shutdown: AbortSignal, work: (signal: AbortSignal) => Promise<T>): Promise<T | undefined> {
    const signal = AbortSignal.any([shutdown, AbortSignal.timeout(this.options.timeoutMs)]);
    try {
      const answer = await work(signal);
      this.options.calls.inc({ call: name, outcome: answer.outcome });
      return answer;
    } catch (error) {
      this.options.calls.inc({ call: name, outcome: 'unknown' });
      this.options.logger.warn({ call: name, err: { name: (error as Error).name, message: (error as Error).message } }, `${this.options.object} provider call failed or timed out; the outcome is unknown`);
      return undefined;
    }
  }
}
