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
  /** Kills the process if it still runs, and removes its data and its database. */
  dispose(): Promise<void>;
}

/**
 * Runs the built service (dist/main.js) as its own process, on a free port,
 * with nonces in memory and payins in a PostgreSQL database of its own: these
 * suites are about the process, and a new embedded database would add seconds
 * to each boot.
 */
export async function startBuiltService(env: Record<string, string> = {}, options: { databaseUrl?: string } = {}): Promise<BuiltService> {
  if (!fs.existsSync(MAIN)) throw new Error(`${MAIN} is missing: run \`npx nx run api:build\` (nx runs it before api:test)`);
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'built-service-'));
  // A database of its own, dropped on dispose; or the one given, which outlives this process (a restart).
  const database = options.databaseUrl ? undefined : await createPrivateDatabase('paysign_built');
  const databaseUrl = options.databaseUrl ?? (database as { url: string }).url;
  const child = spawn(process.execPath, [MAIN], {
    env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, MERCHANTS_FILE: TEST_MERCHANTS_FILE, ENQUIRY_TIMEOUT_MS: '1500', REDIS_URL: '', DATABASE_URL: databaseUrl, SHUTDOWN_DRAIN_MS: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code, signal) => resolve(code ?? (signal ? 0 : null))));
  let output = '';
  const logs = () => output.split('\n').filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as Record<string, unknown>);
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  await new Promise<void>((resolve, reject) => {
    const deadline = setTimeout(() => reject(new Error(`the service did not listen within 30 s:\n${output}`)), 30_000);
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
    fs.rmSync(dataDir, { recursive: true, force: true });
    await database?.drop();
  };
  return { child, baseUrl: `http://127.0.0.1:${port}`, exited, logs, dispose };
}

