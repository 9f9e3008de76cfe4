// The benchmark commands run and print their figures; how fast they are is never checked here.
// Only the commands that build nothing: the others rebuild the service (nx run api:build), which
// would rewrite apps/api/dist under the suites that boot it meanwhile. CI runs those after npm test,
// with `npm run -s bench:short` (short.ts).
import { execFileSync } from 'node:child_process';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');
const lastJsonLine = (output: string) => JSON.parse(output.trim().split('\n').pop() ?? '{}') as Record<string, unknown>;
const run = (script: string, ...args: string[]) => lastJsonLine(execFileSync('npm', ['run', '-s', script, '--', ...args, '--json'], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }));

it('npm run -s bench:nonce-store prints the longest claims with the nonces held at each', () => {
  const figures = run('bench:nonce-store', '--claims', '20000');
  expect(figures).toMatchObject({ claims: 20_000, heldAtEnd: 20_000, p50Ms: expect.any(Number), p999Ms: expect.any(Number), tableMiB: expect.any(Number) });
  expect(figures.longest).toHaveLength(8);
  expect((figures.longest as Array<Record<string, unknown>>)[0]).toEqual({ claim: expect.any(Number), heldNonces: expect.any(Number), ms: expect.any(Number) });
}, 120_000);

// On PostgreSQL (DATABASE_URL, as the service's suites use it); a machine without it fails here, as CI must.
it('npm run -s bench:ledger-check prints what each statement of the scheduled ledger check took, on a ledger where every invariant holds', () => {
  const figures = run('bench:ledger-check', '--payins', '2000', '--writes', '20');
  expect(figures).toMatchObject({ payins: 2000, payouts: 200, journals: 4400, entries: 11_000, checkMs: expect.any(Number), payinWriteAlone: { writes: 20 } });
  // One statement per invariant of the service's ledger check (apps/api/src/ledger-invariants.ts), each finding nothing broken.
  expect((figures.statements as Array<{ brokenRows: number }>).map((statement) => statement.brokenRows)).toEqual(Array(10).fill(0));
}, 120_000);
