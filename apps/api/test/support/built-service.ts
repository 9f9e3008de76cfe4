import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { TEST_MERCHANTS_FILE } from './credentials';
import { freePort } from './private-redis';
import { createPrivateDatabase } from './stores';

const MAIN = path.resolve(__dirname, '../../dist/main.js');

export interface BuiltService {
  child: ChildProcess;
  baseUrl: string;
  exited: Promise<number | null>;
  /** Every JSON line the service has written so far. */
  logs(): Array<Record<string, unknown>>;
  /** Sends SIGTERM, as an orchestrator does, and resolves with the exit code once the service has drained and exited (null if the signal killed it). */
  stop(): Promise<number | null>;
  /** Kills the process if it still runs, and removes its data and its database (not those it was given). */
  dispose(): Promise<void>;
}

export interface BuiltServiceOptions {
  /** The PostgreSQL database to run on, which outlives the process (a restart); default a database of its own, dropped on dispose. */
  databaseUrl?: string;
  /** Run on the embedded store in this DATA_DIR instead of PostgreSQL; it outlives the process. */
  dataDir?: string;
  /**
   * The deployable folder (`npm run deploy:build`) of another release, to run
   * instead of this build: an operator's `node main.js` in that folder, with
   * only the variables given, none of this test runner's. Default this build's dist/main.js.
   */
  release?: string;
  /** The Node binary to run it on; default this test runner's. */
  nodeBinary?: string;
  /** Node's own options, before main.js (such as `--require` of a test's preload); default none. */
  nodeArgs?: string[];
}

/**
 * Runs the built service (dist/main.js) as its own process, on a free port,
 * with nonces in memory and payins in a PostgreSQL database of its own: these
 * suites are about the process, and a new embedded database would add seconds
 * to each boot.
 */
export async function startBuiltService(env: Record<string, string> = {}, options: BuiltServiceOptions = {}): Promise<BuiltService> {
  const main = options.release ? path.join(options.release, 'main.js') : MAIN;
  if (!fs.existsSync(main)) throw new Error(options.release ? `${main} is missing: ${options.release} is not a deployable folder` : `${MAIN} is missing: run \`npx nx run api:build\` (nx runs it before api:test)`);
  const port = await freePort();
  const dataDir = options.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'built-service-'));
  // A database of its own, dropped on dispose; or the one given, which outlives this process (a restart); or none, on the embedded store.
  const database = options.databaseUrl || options.dataDir ? undefined : await createPrivateDatabase('paysign_built');
  const databaseUrl = options.dataDir ? '' : (options.databaseUrl ?? (database as { url: string }).url);
  // A new embedded database is created (initdb, in WebAssembly) at the first boot: seconds, many more on a busy machine.
  const bootTimeoutMs = options.dataDir ? 90_000 : 30_000;
  const inherited = options.release ? { PATH: process.env.PATH } : process.env;
  const child = spawn(options.nodeBinary ?? process.execPath, [...(options.nodeArgs ?? []), main], {
    cwd: options.release,
    env: { ...inherited, PORT: String(port), DATA_DIR: dataDir, MERCHANTS_FILE: TEST_MERCHANTS_FILE, ENQUIRY_TIMEOUT_MS: '1500', REDIS_URL: '', DATABASE_URL: databaseUrl, SHUTDOWN_DRAIN_MS: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code, signal) => resolve(code ?? (signal ? 0 : null))));
  // The code the process chose: null when a signal ended it before it could drain.
  const exitCode = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  let output = '';
  const logs = () => output.split('\n').filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as Record<string, unknown>);
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  await new Promise<void>((resolve, reject) => {
    const deadline = setTimeout(() => reject(new Error(`the service did not listen within ${bootTimeoutMs / 1000} s:\n${output}`)), bootTimeoutMs);
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('payment service listening')) {
        clearTimeout(deadline);
        resolve();
      }
    });
    child.once('exit', () => reject(new Error(`the service exited before listening:\n${output}`)));
  });
  const dispose = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await exited;
    }
    if (!options.dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    await database?.drop();
  };
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    return exitCode;
  };
  return { child, baseUrl: `http://127.0.0.1:${port}`, exited, logs, stop, dispose };
}

