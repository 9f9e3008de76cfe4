import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

// The summary script resolves its results folder relative to itself, so each case
// runs a copy of it inside a scratch tree.
function runSummary(results: Record<string, { passed: number; failed: number; skipped: number }> | undefined) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'summary-'));
  const scripts = path.join(root, 'tools', 'scripts');
  fs.mkdirSync(scripts, { recursive: true });
  fs.copyFileSync(path.join(__dirname, 'test-summary.js'), path.join(scripts, 'test-summary.js'));
  if (results) {
    fs.mkdirSync(path.join(root, '.test-results'));
    for (const [name, counts] of Object.entries(results)) fs.writeFileSync(path.join(root, '.test-results', `${name}.json`), JSON.stringify(counts));
  }
  try {
    return { code: 0, out: execFileSync(process.execPath, [path.join(scripts, 'test-summary.js')], { encoding: 'utf8', stdio: 'pipe' }) };
  } catch (error) {
    const e = error as { status: number; stdout: string; stderr: string };
    return { code: e.status, out: e.stdout + e.stderr };
  }
}

describe('test-summary', () => {
  it.each<[string, { given: Parameters<typeof runSummary>[0]; want: { code: number; out: string } }]>([
    ['sums every project', { given: { a: { passed: 3, failed: 0, skipped: 1 }, b: { passed: 2, failed: 0, skipped: 0 } }, want: { code: 0, out: 'Tests: 5 passed, 0 failed, 1 skipped\n' } }],
    ['fails when a test failed', { given: { a: { passed: 3, failed: 1, skipped: 0 } }, want: { code: 1, out: 'Tests: 3 passed, 1 failed, 0 skipped\n' } }],
    ['fails when nothing ran', { given: undefined, want: { code: 1, out: 'No test results were recorded: did any test run?\n' } }],
  ])('%s', (_name, { given, want }) => {
    expect(runSummary(given)).toEqual(want);
  });
});
