import type { Logger } from 'pino';
import { isStoreFailure } from '../stores/store-failure';
import { realScheduler, type Scheduler } from './scheduler';

/** What one run of a job came to: `again` runs it once more at once (a claim came back full), instead of after the interval. */
export type JobRunOutcome = void | { again: boolean };

export interface JobDefinition {
  /** Names the job in logs and metrics, for example `payin-expiry`. */
  name: string;
  /** The pause between the end of one run and the start of the next. */
  intervalMs: number;
  /** Each pause is stretched by up to this fraction, at random, so that instances started together do not run together. Default 0.1. */
  jitter?: number;
  /** One run. `signal` aborts at shutdown: a run that waits on something slow stops waiting. */
  run(signal: AbortSignal): Promise<JobRunOutcome>;
}

/** What the job runner counts per job; ServiceMetrics implements it for Prometheus. */
export interface JobMetrics {
  jobRun(job: string, outcome: 'ok' | 'failed', durationSeconds: number): void;
}

export interface JobRunnerOptions {
  logger: Logger;
  metrics?: JobMetrics;
  scheduler?: Scheduler;
  random?: () => number;
  /** A monotonic clock for run durations; default performance.now. */
  elapsedMs?: () => number;
}

const DEFAULT_JITTER = 0.1;
/** Runs in a row that `again` may ask for before the runner pauses for the interval anyway, so a job that always has more cannot starve the event loop's timers. */
const MAX_RUNS_IN_A_ROW = 100;

/**
 * Runs every periodic job of an instance (sweeps, claims, pings), each the
 * same way: one run at a time, a jittered pause between runs, one log line
 * when a job starts failing and one when it recovers (not one per run),
 * runs, failures and durations counted, and on stop no new run and the
 * runs in flight awaited, so that the stores are never closed under one.
 */
export class JobRunner {
  private readonly jobs: ScheduledJob[] = [];
  private readonly shutdown = new AbortController();
  private started = false;

  constructor(private readonly options: JobRunnerOptions) {}

  /** Adds a job; it first runs one interval after start. */
  add(definition: JobDefinition): void {
    if (definition.intervalMs <= 0) throw new RangeError(`job ${definition.name}: the interval must be positive, got ${definition.intervalMs} ms`);
    const job = new ScheduledJob(definition, this.options, this.shutdown.signal);
    this.jobs.push(job);
    if (this.started) job.schedule();
  }

  start(): void {
    if (this.started || this.shutdown.signal.aborted) return;
    this.started = true;
    for (const job of this.jobs) job.schedule();
  }

  /**
   * Runs a job now, out of turn (tests, and a first sweep at boot), and
   * resolves when that run ends. A run in flight may have started before
   * the caller's reason to run (a test moved the clock): the job then runs
   * once more right after it, never twice at once.
   */
  runNow(name: string): Promise<void> {
    const job = this.jobs.find((candidate) => candidate.name === name);
    if (!job) throw new Error(`no job named ${name}`);
    return job.runAfterAnyInFlight();
  }

  /**
   * Runs a job as soon as it can: now if it is idle, or once more right after
   * the run in flight if there is one, since that run may have started before
   * whatever calls `wake` happened (a delivery freed a slot). Never waits.
   */
  wake(name: string): void {
    const job = this.jobs.find((candidate) => candidate.name === name);
    if (!job) throw new Error(`no job named ${name}`);
    if (this.started) job.wake();
  }

  /** Starts no new run, aborts the signal of the runs in flight, and waits for them to end. */
  async stop(): Promise<void> {
    this.shutdown.abort();
    await Promise.all(this.jobs.map((job) => job.stop()));
  }
}

class ScheduledJob {
  private cancelTimer: (() => void) | undefined;
  private running: Promise<void> | undefined;
  private failing = false;
  /** Set by `wake` while a run is in flight: the run's result may already be stale, so the job runs again at once. */
  private woken = false;
  /** Whether the job runs on its interval: from the runner's start on. A job only ever run out of turn (`runNow` before start) never arms a timer. */
  private recurring = false;
  private readonly scheduler: Scheduler;
  private readonly random: () => number;
  private readonly elapsedMs: () => number;

  constructor(
    private readonly definition: JobDefinition,
    private readonly options: JobRunnerOptions,
    private readonly signal: AbortSignal,
  ) {
    this.scheduler = options.scheduler ?? realScheduler;
    this.random = options.random ?? Math.random;
    this.elapsedMs = options.elapsedMs ?? (() => performance.now());
  }

  get name(): string {
    return this.definition.name;
  }

  schedule(delayMs = this.pauseMs()): void {
    if (this.signal.aborted) return;
    this.recurring = true;
    this.cancelTimer?.();
    this.cancelTimer = this.scheduler.after(delayMs, () => {
      this.cancelTimer = undefined;
      void this.runOnce();
    });
  }

  runOnce(): Promise<void> {
    this.running ??= this.runInARow().finally(() => {
      this.running = undefined;
      if (this.recurring) this.schedule();
    });
    return this.running;
  }

  wake(): void {
    if (this.signal.aborted) return;
    void this.runAfterAnyInFlight();
  }

  /** A run that starts after this call: now when idle, else right after the run in flight, in the same single flight. */
  runAfterAnyInFlight(): Promise<void> {
    if (!this.running) return this.runOnce();
    this.woken = true;
    return this.running;
  }

  async stop(): Promise<void> {
    this.cancelTimer?.();
    this.cancelTimer = undefined;
    await this.running;
  }

  private async runInARow(): Promise<void> {
    for (let runs = 0; runs < MAX_RUNS_IN_A_ROW && !this.signal.aborted; runs += 1) {
      this.woken = false;
      const outcome = await this.runMeasured();
      if (!this.woken && (!outcome || !outcome.again)) return;
    }
  }

  private async runMeasured(): Promise<JobRunOutcome> {
    const { logger, metrics } = this.options;
    const startedAt = this.elapsedMs();
    try {
      const outcome = await this.definition.run(this.signal);
      metrics?.jobRun(this.name, 'ok', (this.elapsedMs() - startedAt) / 1000);
      if (this.failing) logger.info({ job: this.name }, `${this.name}: runs again`);
      this.failing = false;
      return outcome;
    } catch (error) {
      metrics?.jobRun(this.name, 'failed', (this.elapsedMs() - startedAt) / 1000);
      if (!this.failing) this.logFailure(error);
      this.failing = true;
      return undefined;
    }
  }

  /** A store that does not answer is a warning with what to check; anything else is a bug, logged with its stack. Once per change of state. */
  private logFailure(error: unknown): void {
    const { logger } = this.options;
    const err = error instanceof Error ? error : new Error(String(error));
    if (isStoreFailure(err)) {
      logger.warn({ job: this.name, err: err.message }, `${this.name}: failing, a store does not answer; retrying every ${this.definition.intervalMs} ms`);
    } else {
      logger.error({ job: this.name, err: { name: err.name, message: err.message, stack: err.stack } }, `${this.name}: failed; retrying every ${this.definition.intervalMs} ms`);
    }
  }

  private pauseMs(): number {
    const jitter = this.definition.jitter ?? DEFAULT_JITTER;
    return Math.round(this.definition.intervalMs * (1 + jitter * this.random()));
  }
}
