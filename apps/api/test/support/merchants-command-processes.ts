import { spawn } from 'node:child_process';
import * as path from 'node:path';
import type { CommandResult } from '../../src/merchants/merchants-command';

const CHILD = path.join(__dirname, 'merchants-command-child.ts');
const TSCONFIG = path.resolve(__dirname, '../../tsconfig.json');

/** One merchants command in a process of its own, started with `go()` once `ready` has resolved. */
export interface CommandProcess {
  ready: Promise<void>;
  go(): void;
  /** What the command printed and its exit code. */
  done: Promise<CommandResult>;
}

/** Starts the merchants command `argv` in a child process (TypeScript through tsx), held until `go()`. */
export function commandProcess(argv: readonly string[]): CommandProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD, ...argv], {
    env: { ...process.env, TSX_TSCONFIG_PATH: TSCONFIG },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  let signalReady: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => (signalReady = resolve));
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
    if (stdout.startsWith('ready\n')) signalReady();
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const done = new Promise<CommandResult>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      const line = stdout.split('\n').find((l) => l.startsWith('{'));
      if (!line) reject(new Error(`the merchants command process exited ${code} without a result:\n${stdout}${stderr}`));
      else resolve(JSON.parse(line) as CommandResult);
    });
  });
  // A process that ends before it is ready fails `ready` too, rather than leaving it pending.
  done.catch(() => undefined);
  const readyOrFailed = Promise.race([ready, done.then(() => Promise.reject(new Error(`the merchants command process exited before it was ready:\n${stderr}`)))]);
  return { ready: readyOrFailed, go: () => child.stdin.write('go\n'), done };
}
