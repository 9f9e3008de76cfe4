import type { Scheduler } from './scheduler';

/**
 * A Scheduler on a clock that moves only when told: tests advance it and the
 * jobs due run, with no real waiting. Internal: for tests.
 */
export class ManualScheduler implements Scheduler {
  private nowMs = 0;
  private nextId = 0;
  private readonly pending = new Map<number, { at: number; run: () => void }>();

  now(): number {
    return this.nowMs;
  }

  after(delayMs: number, run: () => void): () => void {
    const id = this.nextId++;
    this.pending.set(id, { at: this.nowMs + delayMs, run });
    return () => this.pending.delete(id);
  }

  /** The delays of the calls waiting, from now. */
  waiting(): number[] {
    return [...this.pending.values()].map((entry) => entry.at - this.nowMs).sort((a, b) => a - b);
  }

  /** Moves the clock by `ms`, running each call that falls due in order, and lets the work it starts settle. */
  async advance(ms: number): Promise<void> {
    const until = this.nowMs + ms;
    for (;;) {
      const due = [...this.pending.entries()].filter(([, entry]) => entry.at <= until).sort(([, a], [, b]) => a.at - b.at)[0];
      if (!due) break;
      this.pending.delete(due[0]);
      this.nowMs = due[1].at;
      due[1].run();
      await settle();
    }
    this.nowMs = until;
    await settle();
  }
}

/** Lets promise chains started by a timer run to their next real wait. */
export async function settle(): Promise<void> {
  for (let i = 0; i < 10; i += 1) await new Promise<void>((resolve) => setImmediate(resolve));
}
