// What the benchmarks that start the service share: its build, and a port to run it on.
import { execFileSync } from 'node:child_process';
import * as net from 'node:net';
import * as path from 'node:path';

export const ROOT = path.resolve(__dirname, '../..');

/**
 * Builds the service from these sources (nx reuses a build of unchanged
 * sources). With BENCH_SKIP_BUILD=1 it uses apps/api/dist as it is: the
 * bench:short runner builds once, then runs every command on that build.
 */
export function buildService(): void {
  if (process.env.BENCH_SKIP_BUILD === '1') return;
  execFileSync(path.join(ROOT, 'node_modules/.bin/nx'), ['run', 'api:build', '--output-style=static'], { cwd: ROOT, stdio: 'ignore', env: { ...process.env, NX_DAEMON: 'false' } });
}

export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
