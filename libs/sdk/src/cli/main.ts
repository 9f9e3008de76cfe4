// The paysign executable: wires the CLI to the real process.
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { runPaysign } from './paysign';

// Output piped into a command that stops reading (`| head`) is no failure of ours.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });
}

runPaysign(process.argv.slice(2), {
  env: process.env,
  stdout: (line) => process.stdout.write(`${line}\n`),
  stderr: (line) => process.stderr.write(`${line}\n`),
  now: () => Math.floor(Date.now() / 1000),
  randomUUID,
  readFile,
  fetch: globalThis.fetch,
  write: (chunk) => new Promise<void>((resolve) => (process.stdout.write(chunk) ? resolve() : process.stdout.once('drain', () => resolve()))),
  untilStopped: new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  }),
}).then((code) => {
  process.exitCode = code;
});
