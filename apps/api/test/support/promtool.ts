import { spawnSync } from 'node:child_process';

/** Prometheus's rule checker, from Debian's prometheus package (.ci/run installs it). */
export const PROMTOOL = process.env.PROMTOOL_PATH ?? 'promtool';

export interface PromtoolRun {
  status: number | null;
  /** stdout and stderr together: promtool reports failed tests on one and errors on the other. */
  output: string;
}

/**
 * The longest one promtool run may take. A rules test takes about 12 s of CPU
 * alone; while the other projects' suites and the browser suites run beside
 * it on two cores, it has taken over a minute.
 */
const PROMTOOL_TIMEOUT_MS = 300_000;

/** Runs promtool with `args`, and never throws on a non-zero exit: tests assert on the status. A run cut short by the timeout throws, so that it is never read as a failed test case. */
export function promtool(args: string[]): PromtoolRun {
  const run = spawnSync(PROMTOOL, args, { encoding: 'utf8', timeout: PROMTOOL_TIMEOUT_MS });
  if (run.error || run.signal) throw new Error(`promtool ${args.join(' ')} did not finish: ${run.error?.message ?? `killed by ${run.signal}`} (limit ${PROMTOOL_TIMEOUT_MS / 1000} s)`);
  return { status: run.status, output: `${run.stdout ?? ''}${run.stderr ?? ''}` };
}

const installHint = "Install Debian's prometheus package (apt-get install -y --no-install-recommends prometheus), or set PROMTOOL_PATH.";

/** `describe` for a suite that runs promtool: skipped loudly without it on a developer's machine, failed under CI=true. */
export function describeWithPromtool(name: string, suite: () => void): void {
  if (spawnSync(PROMTOOL, ['--version'], { encoding: 'utf8' }).status === 0) describe(name, suite);
  else if (process.env.CI === 'true') {
    describe(name, () => {
      it('needs promtool', () => {
        throw new Error(`${PROMTOOL} is missing; under CI=true a monitoring test fails instead of skipping. ${installHint}`);
      });
    });
  } else {
    console.warn(`SKIPPED "${name}": ${PROMTOOL} is missing. ${installHint}`);
    describe.skip(name, suite);
  }
}
