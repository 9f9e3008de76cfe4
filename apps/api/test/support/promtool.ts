import { spawnSync } from 'node:child_process';

/** Prometheus's rule checker, from Debian's prometheus package (.ci/run installs it). */
export const PROMTOOL = process.env.PROMTOOL_PATH ?? 'promtool';

export interface PromtoolRun {
  status: number | null;
  /** stdout and stderr together: promtool reports failed tests on one and errors on the other. */
  output: string;
}

/** Runs promtool with `args`, and never throws on a non-zero exit: tests assert on the status. */
export function promtool(args: string[]): PromtoolRun {
  const run = spawnSync(PROMTOOL, args, { encoding: 'utf8', timeout: 60_000 });
  return { status: run.status, output: `${run.stdout ?? ''}${run.stderr ?? ''}` };
}

const installHint = "Install Debian's prometheus package (apt-get install -y --no-install-recommends prometheus), or set PROMTOOL_PATH.";

/** `describe` for a suite that runs promtool: skipped loudly without it on a developer's machine, failed under CI=true. */
export function describeWithPromtool(name: string, suite: () => void): void {
  if (promtool(['--version']).status === 0) describe(name, suite);
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
