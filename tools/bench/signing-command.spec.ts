// The benchmark command runs and prints its figures; how fast they are is never checked here.
import { execFileSync } from 'node:child_process';
import * as path from 'node:path';

it('npm run -s bench:signing -- --json --short prints one JSON line of every figure', () => {
  const output = execFileSync('npm', ['run', '-s', 'bench:signing', '--', '--json', '--short'], { cwd: path.resolve(__dirname, '../..'), encoding: 'utf8' });
  const last = JSON.parse(output.trim().split('\n').pop() ?? '{}') as Record<string, unknown> & { flat16k: Record<string, unknown>; coldCache: unknown };
  const figures = ['rawOpsPerSec', 'signOpsPerSec', 'verifyOpsPerSec', 'signRatio', 'verifyRatio'];
  for (const key of figures) {
    expect(last[key]).toEqual(expect.any(Number));
    expect(last.flat16k[key]).toEqual(expect.any(Number));
  }
  expect(last).toMatchObject({ mode: 'short', bodyBytes: expect.any(Number) });
  expect(last.flat16k.bodyBytes).toBeGreaterThan(15_000);
  const cold = { evictedMiB: expect.any(Number), samples: 20, sha256Ns: expect.any(Number), hmacNs: expect.any(Number), verifyNs: expect.any(Number) };
  expect(last.coldCache).toEqual([{ ...cold, evictedMiB: 1 }, { ...cold, evictedMiB: 4 }]);
}, 60_000);
