// A process that logs through the service's logger, then ends as the service
// does (service.ts): `crash` throws, and its uncaughtException handler calls
// process.exit(1); `sigterm` signals itself, and its SIGTERM handler calls
// process.exit(0); `end` lets the event loop run dry. Every line is logged in
// one synchronous loop just before, so most are still queued when it ends.
// Run by logger.spec.ts with tsx as a loader; not part of the service.
import { createLogger } from './logger';

const LINES = Number(process.argv[3] ?? '5000');
const logger = createLogger({ logLevel: 'info' });
for (let i = 0; i < LINES; i++) logger.info({ requestId: `req-${i}`, status: 200, outcome: 'OK' }, 'request completed');
logger.info('last line');

switch (process.argv[2]) {
  case 'crash':
    process.on('uncaughtException', () => process.exit(1));
    setImmediate(() => {
      throw new Error('a crash');
    });
    break;
  case 'sigterm':
    process.once('SIGTERM', () => process.exit(0));
    process.kill(process.pid, 'SIGTERM');
    break;
  default:
    break;
}
