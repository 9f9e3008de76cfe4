import pino from 'pino';
import { StoreTimeoutError } from '../stores/store-failure';
import { JobRunner } from './job-runner';
import { ManualScheduler, settle } from './manual-scheduler';

function runnerWithLogs(options: { random?: () => number } = {}) {
  const scheduler = new ManualScheduler();
  const logs: Array<Record<string, unknown>> = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => void logs.push(JSON.parse(line) as Record<string, unknown>) });
  const counted: Array<[string, string]> = [];
  const runner = new JobRunner({ logger, scheduler, random: options.random ?? (() => 0), metrics: { jobRun: (job, outcome) => void counted.push([job, outcome]) } });
  return { runner, scheduler, logs, counted };
}

/** A run that ends only when the test says so. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

describe('JobRunner', () => {
  it('waits the interval stretched by its jitter between the end of one run and the start of the next', async () => {
    const { runner, scheduler } = runnerWithLogs({ random: () => 0.5 });
    const startedAt: number[] = [];
    runner.add({ name: 'sweep', intervalMs: 1000, jitter: 0.2, run: async () => void startedAt.push(scheduler.now()) });
    runner.start();
    expect(scheduler.waiting()).toEqual([1100]);
    await scheduler.advance(3300);
    expect(startedAt).toEqual([1100, 2200, 3300]);
    await runner.stop();
  });

  it('never runs a job twice at once: a run still going when the next is due is joined, not doubled', async () => {
    const { runner, scheduler } = runnerWithLogs();
    const slow = gate();
    let running = 0;
    let most = 0;
    runner.add({
      name: 'claim',
      intervalMs: 100,
      run: async () => {
        running += 1;
        most = Math.max(most, running);
        await slow.opened;
        running -= 1;
      },
    });
    runner.start();
    await scheduler.advance(100);
    const joined = [runner.runNow('claim'), runner.runNow('claim')];
    await scheduler.advance(1000);
    expect(running).toBe(1);
    slow.open();
    await Promise.all(joined);
    expect(most).toBe(1);
    await runner.stop();
  });

  it('answers runNow during a run in flight with one more run after it, so that the run it waits for starts after the call', async () => {
    const { runner } = runnerWithLogs();
    const first = gate();
    let value = 'old';
    const seen: string[] = [];
    runner.add({
      name: 'claim',
      intervalMs: 1000,
      run: async () => {
        const read = value;
        if (seen.length === 0) await first.opened;
        seen.push(read);
      },
    });
    const inFlight = runner.runNow('claim');
    await settle();
    value = 'new';
    const after = runner.runNow('claim');
    first.open();
    await Promise.all([inFlight, after]);
    expect(seen).toEqual(['old', 'new']);
    await runner.stop();
  });

  it('runs a woken job at once when idle, and once more right after the run in flight when woken during it', async () => {
    const { runner, scheduler } = runnerWithLogs();
    const first = gate();
    const startedAt: number[] = [];
    let runs = 0;
    runner.add({
      name: 'claim',
      intervalMs: 1000,
      run: async () => {
        startedAt.push(scheduler.now());
        runs += 1;
        if (runs === 1) await first.opened;
      },
    });
    runner.start();
    runner.wake('claim');
    runner.wake('claim');
    runner.wake('claim');
    await settle();
    expect(runs).toBe(1);
    first.open();
    await settle();
    // Three wakes during one run make one more run, not three, and both happen before any interval passes.
    expect(startedAt).toEqual([0, 0]);
    await scheduler.advance(1000);
    expect(startedAt).toEqual([0, 0, 1000]);
    await runner.stop();
    runner.wake('claim');
    await settle();
    expect(runs).toBe(3);
  });

  it('runs a job of a runner never started only when asked: runNow arms no timer, so a test that runs jobs by hand keeps them still', async () => {
    const { runner, scheduler } = runnerWithLogs();
    let runs = 0;
    runner.add({ name: 'dispatch', intervalMs: 1000, run: async () => void runs++ });
    await runner.runNow('dispatch');
    runner.wake('dispatch');
    expect(runs).toBe(1);
    expect(scheduler.waiting()).toEqual([]);
    await scheduler.advance(10_000);
    expect(runs).toBe(1);
    runner.start();
    await scheduler.advance(1000);
    expect(runs).toBe(2);
    expect(scheduler.waiting()).toEqual([1000]);
  });

  it('runs again at once while a run says there is more, then pauses', async () => {
    const { runner, scheduler } = runnerWithLogs();
    const batches = [true, true, false];
    let runs = 0;
    runner.add({ name: 'batches', intervalMs: 500, run: async () => ({ again: batches[runs++] ?? false }) });
    runner.start();
    await scheduler.advance(500);
    expect(runs).toBe(3);
    expect(scheduler.waiting()).toEqual([500]);
    await runner.stop();
  });

  it('on stop starts no new run, aborts the signal of the one in flight and waits for it to end', async () => {
    const { runner, scheduler } = runnerWithLogs();
    let sawAbort = false;
    let ended = false;
    runner.add({
      name: 'deliver',
      intervalMs: 100,
      run: (signal) =>
        new Promise<void>((resolve) => {
          signal.addEventListener('abort', () => {
            sawAbort = true;
            setImmediate(() => {
              ended = true;
              resolve();
            });
          });
        }),
    });
    runner.start();
    await scheduler.advance(100);
    await runner.stop();
    expect(sawAbort).toBe(true);
    expect(ended).toBe(true);
    expect(scheduler.waiting()).toEqual([]);
    await scheduler.advance(10_000);
    await settle();
    expect(scheduler.waiting()).toEqual([]);
  });

  it('logs once when a job starts failing and once when it runs again, and counts every run', async () => {
    const { runner, scheduler, logs, counted } = runnerWithLogs();
    const outcomes = [true, false, false, false, true, true];
    let run = 0;
    runner.add({
      name: 'payin-expiry',
      intervalMs: 100,
      run: async () => {
        if (!outcomes[run++]) throw new StoreTimeoutError('no answer in 1 s');
      },
    });
    runner.start();
    await scheduler.advance(600);
    const lines = logs.filter((line) => line.job === 'payin-expiry').map((line) => [line.level, line.msg]);
    expect(lines).toEqual([
      [40, 'payin-expiry: failing, a store does not answer; retrying every 100 ms'],
      [30, 'payin-expiry: runs again'],
    ]);
    expect(counted.map(([, outcome]) => outcome)).toEqual(['ok', 'failed', 'failed', 'failed', 'ok', 'ok']);
    await runner.stop();
  });

  it('logs a failure that is not a store failure as a bug, with its stack', async () => {
    const { runner, scheduler, logs } = runnerWithLogs();
    runner.add({
      name: 'broken',
      intervalMs: 100,
      run: async () => {
        throw new TypeError('Cannot read properties of undefined');
      },
    });
    runner.start();
    await scheduler.advance(300);
    const lines = logs.filter((line) => line.job === 'broken');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 50, err: { name: 'TypeError', stack: expect.stringContaining('job-runner.spec') } });
    await runner.stop();
  });
});
