// The paysign executable: wires the CLI to the real process.
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { runPaysign } from './paysign';

runPaysign(process.argv.slice(2), {
  env: process.env,
  stdout: (line) => process.stdout.write(`${line}\n`),
  stderr: (line) => process.stderr.write(`${line}\n`),
  now: () => Math.floor(Date.now() / 1000),
  randomUUID,
  readFile,
  fetch: globalThis.fetch,
}).then((code) => {
  process.exitCode = code;
});
