import * as path from 'node:path';
import { createApp } from './app.factory';
import { ConfigError, loadConfig } from './config/app-config';
import { createLogger } from './logging/logger';

// This file sits one level below apps/api both as source (src/) and bundled (dist/).
const API_ROOT = path.resolve(__dirname, '..');

async function main(): Promise<void> {
  const config = loadConfig(process.env, {
    sandboxMerchantsFile: path.join(API_ROOT, 'config/merchants.sandbox.json'),
    contractPath: path.resolve(API_ROOT, '../../openapi/payment-api.yaml'),
  });
  const logger = createLogger(config);
  const app = await createApp(config, { logger });
  // SIGTERM and SIGINT close the server: in-flight requests complete, then the stores close.
  app.enableShutdownHooks(['SIGTERM', 'SIGINT']);
  await app.listen({ port: config.port, host: config.host });
  logger.info(
    { port: config.port, host: config.host, mode: config.mode, nonceStore: config.redisUrl ? 'redis' : 'memory', payinStore: config.databaseUrl ? 'postgres' : 'pglite' },
    `payment service listening on http://${config.host}:${config.port}/payment`,
  );
}

main().catch((error: unknown) => {
  const message = error instanceof ConfigError ? error.message : `The service failed to start: ${(error as Error).message}`;
  process.stderr.write(`${message}\n`);
  process.exit(1);
});
