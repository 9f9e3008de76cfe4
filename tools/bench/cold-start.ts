// How long a new user waits for the service: on a fresh clone of this
// repository's HEAD, after `npm ci` (not timed), `npm start` until
// /payment/health/ready answers 200 (timed); then, stopped, `npm start` again
// in the same clone (warm: built, and the embedded database made). Each start
// is stopped with SIGTERM once ready. Each start is also split where the
// service's own log lines mark it: until its first line (building what
// changed, and loading the service's modules), and opening the embedded
// database (from "opening the embedded payin database" to "payin store schema
// is up to date": on a fresh clone, PGlite creating it).
// A benchmark, not a test: it prints what it measured and never fails on timing.
//   npm run -s bench:cold-start [-- --reuse DIR] [-- --json] [-- --short]
// --reuse DIR keeps the clone and its node_modules in DIR between runs: each
// run first removes every file git does not track there but node_modules
// (git clean -fdx -e node_modules), so that the first start is as on a fresh clone.
// --short links this checkout's node_modules into the clone instead of running
// npm ci there: it proves the command works (CI runs it so), and its figures
// are not a fresh clone's.
import { execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { freePort, ROOT } from './service-build';

const { values } = parseArgs({ options: { reuse: { type: 'string' }, json: { type: 'boolean', default: false }, short: { type: 'boolean', default: false } } });
const READY_DEADLINE_MS = 300_000;

interface StartFigures {
  /** From `npm start` to /payment/health/ready answering 200. */
  readySeconds: number;
  /** From `npm start` to the service's first log line. */
  firstLineSeconds: number;
  /** Opening (on a fresh clone, creating) the embedded database, migrations included. */
  databaseSeconds: number;
}

const seconds = (ms: number) => Math.round(ms / 100) / 10;

/** `npm start` in `clone` until ready, with when its log lines came; then stopped with SIGTERM and waited for. */
async function timedStart(clone: string): Promise<StartFigures> {
  const port = await freePort();
  const started = performance.now();
  // Its own process group, so that SIGTERM reaches npm's child, the service, as a terminal's Ctrl-C would.
  const child = spawn('npm', ['start'], { cwd: clone, detached: true, stdio: ['ignore', 'pipe', 'ignore'], env: { ...process.env, PORT: String(port), NX_DAEMON: 'false', NX_NO_CLOUD: 'true' } });
  // When each log message first arrived, on this clock: the service's own timestamps start after the build.
  const arrivals = new Map<string, number>();
  let pending = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    const lines = (pending + chunk.toString()).split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) {
      const message = /"msg":"([^"]*)"/.exec(line)?.[1];
      if (message !== undefined && !arrivals.has(message)) arrivals.set(message, performance.now());
    }
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const at = (message: string) => {
    const arrived = arrivals.get(message);
    if (arrived === undefined) throw new Error(`npm start logged no "${message}"`);
    return arrived;
  };
  try {
    for (;;) {
      if (await fetch(`http://127.0.0.1:${port}/payment/health/ready`).then((r) => r.ok, () => false)) {
        return {
          readySeconds: seconds(performance.now() - started),
          firstLineSeconds: seconds(Math.min(...arrivals.values()) - started),
          databaseSeconds: seconds(at('payin store schema is up to date') - at('opening the embedded payin database; its first start takes several seconds')),
        };
      }
      if (child.exitCode !== null || performance.now() - started > READY_DEADLINE_MS) throw new Error(`npm start in ${clone} did not become ready`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  } finally {
    if (child.exitCode === null) process.kill(-(child.pid as number), 'SIGTERM');
    await exited;
  }
}

/** --short: each node_modules folder of this checkout (the root's and the workspaces' own), linked into `clone` where npm ci would have made it. */
function linkInstalledPackages(clone: string): void {
  const workspaces = ['.', ...['apps', 'libs', 'tools'].flatMap((group) => (fs.existsSync(path.join(ROOT, group)) ? fs.readdirSync(path.join(ROOT, group)).map((name) => path.join(group, name)) : []))];
  for (const workspace of workspaces) {
    const installed = path.join(ROOT, workspace, 'node_modules');
    if (fs.existsSync(installed) && fs.existsSync(path.join(clone, workspace))) fs.symlinkSync(installed, path.join(clone, workspace, 'node_modules'));
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
  if (values.short && !fs.existsSync(path.join(clone, 'node_modules'))) linkInstalledPackages(clone);
  if (!fs.existsSync(path.join(clone, 'node_modules'))) run('npm', ['ci', '--no-audit', '--no-fund']);
  const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: clone, encoding: 'utf8' }).trim();
  try {
    const fresh = await timedStart(clone);
    const warm = await timedStart(clone);
    const result = { node: process.version, commit, fresh, warm };
    if (values.json) console.log(JSON.stringify(result));
    else {
      const line = (f: StartFigures) => `${f.readySeconds} s (first log line at ${f.firstLineSeconds} s; the embedded database ${f.databaseSeconds} s)`;
      console.log(`npm start until /payment/health/ready answers 200, on a clone of ${commit} after npm ci:`);
      console.log(`  fresh clone (nothing built, no database): ${line(fresh)}`);
      console.log(`  again, warm (built, database made):       ${line(warm)}`);
    }
  } finally {
    if (!values.reuse) fs.rmSync(clone, { recursive: true, force: true });
  }
}

void main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
