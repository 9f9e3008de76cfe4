import { spawn } from 'node:child_process';
import * as path from 'node:path';

const CHILD = path.join(__dirname, 'logger-exit.child.ts');
const LINES = 5000;

/** Runs logger-exit.child.ts to its end and collects its standard output. */
function runChild(ending: string): Promise<{ code: number | null; lines: Array<Record<string, unknown>> }> {
  return new Promise((resolve, reject) => {
    // tsx as a loader inside one node process: its command would run the file in a second process and relay signals to it.
    const child = spawn(process.execPath, ['--require', 'tsx/cjs', CHILD, ending, String(LINES)], { stdio: ['ignore', 'pipe', 'inherit'] });
    const chunks: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      const text = Buffer.concat(chunks).toString('utf8');
      resolve({ code, lines: text.split('\n').filter((line) => line !== '').map((line) => JSON.parse(line) as Record<string, unknown>) });
    });
  });
}

describe('the service logger, writing asynchronously', () => {
  it.each([
    ['a crash, whose handler exits 1', 'crash', 1],
    ['a SIGTERM, whose handler exits 0', 'sigterm', 0],
    ['the event loop running dry', 'end', 0],
  ])('writes every line logged just before %s, in order', async (_name, ending, code) => {
    const result = await runChild(ending);
    expect(result.code).toBe(code);
    expect(result.lines).toHaveLength(LINES + 1);
    expect(result.lines.slice(0, LINES).map((line) => line.requestId)).toEqual(Array.from({ length: LINES }, (_, i) => `req-${i}`));
    expect(result.lines[LINES]).toMatchObject({ msg: 'last line', service: 'payment-api', level: 30 });
  }, 30_000);
});
