// The benchmark commands run and print their figures; how fast they are is never checked here.
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

it('npm run -s bench:webhooks delivers every event it wrote, and prints the rate, the latency and the CPU per delivery', () => {
  const figures = run('bench:webhooks', '--events', '40', '--merchants', '2');
  expect(figures).toMatchObject({ events: 40, merchants: 2, instances: 1, delivered: 40, deliveriesPerSec: expect.any(Number) });
  expect(figures.latencyMs).toEqual({ p50: expect.any(Number), p99: expect.any(Number), max: expect.any(Number) });
  expect(figures.cpu).toEqual({ serviceMicrosPerDelivery: expect.any(Number), machineMicrosPerDelivery: expect.any(Number) });
}, 300_000);
