/** Where jobs wait: real timers in the service, a clock the test moves in tests. */
export interface Scheduler {
  /** Calls `run` once, `delayMs` from now; the returned function cancels it. A pending call never keeps the process alive. */
  after(delayMs: number, run: () => void): () => void;
}

export const realScheduler: Scheduler = {
  after(delayMs, run) {
    const timer = setTimeout(run, delayMs);
    timer.unref();
    return () => clearTimeout(timer);
  },
};
