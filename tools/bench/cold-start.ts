// How long a new user waits for the service: on a fresh clone of this
// repository's HEAD, after `npm ci` (not timed), `npm start` until
// /payment/health/ready answers 200 (timed); then, stopped, `npm start` again
// in the same clone (warm: built, and the embedded database made). Each start
// is stopped with SIGTERM once ready.
// A benchmark, not a test: it prints what it measured and never fails on timing.
//   npm run -s bench:cold-start [-- --reuse DIR] [-- --json]
// --reuse DIR keeps the clone and its node_modules in DIR between runs: each
// run first removes every file git does not track there but node_modules
// (git clean -fdx -e node_modules), so that the first start is as on a fresh clone.
import { execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { freePort, ROOT } from './service-build';

const { values } = parseArgs({ options: { reuse: { type: 'string' }, json: { type: 'boolean', default: false } } });
const READY_DEADLINE_MS = 300_000;

/** `npm start` in `clone` until ready: the seconds it took, then stopped with SIGTERM and waited for. */
async function timedStart(clone: string): Promise<number> {
  const port = await freePort();
  const started = performance.now();
  // Its own process group, so that SIGTERM reaches npm's child, the service, as a terminal's Ctrl-C would.
  const child = spawn('npm', ['start'], { cwd: clone, detached: true, stdio: 'ignore', env: { ...process.env, PORT: String(port), NX_DAEMON: 'false', NX_NO_CLOUD: 'true' } });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    for (;;) {
      if (await fetch(`http://127.0.0.1:${port}/payment/health/ready`).then((r) => r.ok, () => false)) return (performance.now() - started) / 1000;
      if (child.exitCode !== null || performance.now() - started > READY_DEADLINE_MS) throw new Error(`npm start in ${clone} did not become ready`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  } finally {
    if (child.exitCode === null) process.kill(-(child.pid as number), 'SIGTERM');
    await exited;
  }
}

async function main(): Promise<void> {
  const clone = values.reuse ? path.resolve(values.reuse) : fs.mkdtempSync(path.join(os.tmpdir(), 'paysign-cold-start-'));
  const run = (command: string, args: string[], cwd = clone) => execFileSync(command, args, { cwd, stdio: ['ignore', 'ignore', 'inherit'] });
  if (!fs.existsSync(path.join(clone, '.git'))) {
    run('git', ['clone', '--quiet', ROOT, clone], ROOT);
  } else {
    run('git', ['fetch', '--quiet', ROOT, 'HEAD']);
    run('git', ['checkout', '--quiet', '--force', 'FETCH_HEAD']);
    run('git', ['clean', '-fdxq', '-e', 'node_modules']);
  }
  if (!fs.existsSync(path.join(clone, 'node_modules'))) run('npm', ['ci', '--no-audit', '--no-fund']);
  const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: clone, encoding: 'utf8' }).trim();
  try {
    const fresh = await timedStart(clone);
    const warm = await timedStart(clone);
    const result = { node: process.version, commit, freshSeconds: Math.round(fresh * 10) / 10, warmSeconds: Math.round(warm * 10) / 10 };
    if (values.json) console.log(JSON.stringify(result));
    else {
      console.log(`npm start until /payment/health/ready answers 200, on a clone of ${commit} after npm ci:`);
      console.log(`  fresh clone (nothing built, no database): ${result.freshSeconds} s`);
      console.log(`  again, warm (built, database made):       ${result.warmSeconds} s`);
    }
  } finally {
    if (!values.reuse) fs.rmSync(clone, { recursive: true, force: true });
  }
}

void main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
