// The built service's log lines reach its output when it stops: each request's
// line is written before the next event is handled (logging/logger.ts), so
// neither SIGTERM nor a crash leaves one behind. On every Node line the
// service claims: this one and those in PAYSIGN_TEST_NODE_BINARIES (.ci/run).
import { execFileSync } from 'node:child_process';
import * as path from 'node:path';
import { signedCall } from './support/api-client';
import { startBuiltService, type BuiltService } from './support/built-service';
import { MERCHANT_A } from './support/credentials';

const NODE_BINARIES = [process.execPath, ...(process.env.PAYSIGN_TEST_NODE_BINARIES ?? '').split(',').filter(Boolean)];
const nodeVersion = (binary: string) => execFileSync(binary, ['--version'], { encoding: 'utf8' }).trim();
const CRASH_PRELOAD = path.join(__dirname, 'support/crash-on-sigusr2.cjs');
/** Enough requests answered at once that their lines are written in the last moments before the signal. */
const REQUESTS = 40;

/** Sends REQUESTS signed requests at once, and answers their request ids once every one is answered. */
async function answeredRequestIds(service: BuiltService): Promise<string[]> {
  const responses = await Promise.all(Array.from({ length: REQUESTS }, () => signedCall(service.baseUrl, { path: '/payment/merchant-api/banks', credential: MERCHANT_A })));
  for (const response of responses) expect(response.status).toBe(200);
  return responses.map((response) => response.headers.get('x-request-id') as string);
}

const loggedRequestIds = (service: BuiltService) => new Set(service.logs().filter((line) => line.msg === 'request completed').map((line) => line.requestId));

describe.each(NODE_BINARIES.map((binary) => [nodeVersion(binary), binary] as const))('the log lines of the built service on Node %s', (_version, nodeBinary) => {
  it('reach the output when SIGTERM stops it just after the requests are answered', async () => {
    const service = await startBuiltService({}, { nodeBinary });
    try {
      const ids = await answeredRequestIds(service);
      service.child.kill('SIGTERM');
      expect(await service.exited).toBe(0);
      const logged = loggedRequestIds(service);
      expect(ids.filter((id) => !logged.has(id))).toEqual([]);
      expect(service.logs().map((line) => line.msg)).toContain('shutdown: complete');
    } finally {
      await service.dispose();
    }
  });

  it('reach the output when an uncaught exception ends it just after the requests are answered', async () => {
    const service = await startBuiltService({}, { nodeBinary, nodeArgs: ['--require', CRASH_PRELOAD] });
    try {
      const ids = await answeredRequestIds(service);
      service.child.kill('SIGUSR2');
      expect(await service.exited).toBe(1);
      const logged = loggedRequestIds(service);
      expect(ids.filter((id) => !logged.has(id))).toEqual([]);
      expect(service.logs()).toContainEqual(expect.objectContaining({ level: 60, msg: 'the service failed: the crash log-output.e2e.spec.ts asked for' }));
    } finally {
      await service.dispose();
    }
  });
});
