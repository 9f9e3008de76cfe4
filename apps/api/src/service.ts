import * as path from 'node:path';
import type { Type } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { Logger } from 'pino';
import { createApp } from './app.factory';
import { loadConfig, type AppConfig } from './config/app-config';
import { Readiness } from './lifecycle/readiness';
import { createLogger } from './logging/logger';
import { MerchantsFileWatcher } from './merchants/merchants-file-watcher';

// This file sits one level below apps/api both as source (src/) and bundled (dist/),
// and at the root of a deployed folder, which holds its own config/ and openapi/.
const API_ROOT = path.resolve(__dirname, '..');

/** Runs the service from the environment until a signal stops it. `extraControllers` are mounted beside its own (bench:server mounts one). */
export async function runService(extraControllers: Type[] = []): Promise<void> {
  // Until the config is read, failures are logged at the default level.
  process.on('uncaughtException', (error) => fail('the service failed', error));
  const config = loadConfig(process.env, installPaths());
  const logger = createLogger(config);
  logger.info({ mode: config.mode, nonceStore: config.redisUrl ? 'redis' : 'memory', payinStore: config.databaseUrl ? 'postgres' : 'pglite' }, 'payment service starting');
  const app = await createApp(config, { logger, extraControllers });
  handleSignals(app, config, logger);
  await app.listen({ port: config.port, host: config.host });
  logger.info({ port: config.port, host: config.host }, `payment service listening on http://${config.host}:${config.port}/payment`);
}

/** The shipped files: beside the bundle in a deployed folder, else in the monorepo. */
function installPaths() {
  const deployed = path.basename(__dirname) !== 'dist' && path.basename(__dirname) !== 'src';
  if (deployed) {
    return {
      sandboxMerchantsFile: path.join(__dirname, 'config/merchants.sandbox.json'),
      contractPath: path.join(__dirname, 'openapi/payment-api.yaml'),
      docs: { redocBundlePath: path.join(__dirname, 'docs/redoc.standalone.js'), protocolPath: path.join(__dirname, 'docs/protocol.md'), vectorsPath: path.join(__dirname, 'docs/vectors.json') },
    };
  }
  const repository = path.resolve(API_ROOT, '../..');
  return {
    sandboxMerchantsFile: path.join(API_ROOT, 'config/merchants.sandbox.json'),
    contractPath: path.join(repository, 'openapi/payment-api.yaml'),
    docs: {
      redocBundlePath: require.resolve('redoc/bundles/redoc.standalone.js', { paths: [API_ROOT] }),
      protocolPath: path.join(repository, 'docs/protocol.md'),
      vectorsPath: path.join(repository, 'libs/signing/vectors.json'),
    },
  };
}

/**
 * SIGTERM: readiness fails at once, the server keeps serving for the drain
 * delay so that load balancers stop sending traffic, then it closes: in-flight
 * requests complete, connections still open after the grace period are cut,
 * and the stores close. SIGINT (Ctrl-C) skips the drain. SIGHUP reloads
 * MERCHANTS_FILE.
 */
function handleSignals(app: NestFastifyApplication, config: AppConfig, logger: Logger): void {
  let stopping = false;
  const stop = async (signal: NodeJS.Signals, drainMs: number) => {
    if (stopping) return;
    stopping = true;
    app.get(Readiness).beginDrain(signal);
    if (drainMs > 0) {
      logger.info({ drainMs }, 'shutdown: draining before the server closes');
      await new Promise((resolve) => setTimeout(resolve, drainMs));
    }
    logger.info({ graceMs: config.shutdownGraceMs }, 'shutdown: closing the server; in-flight requests complete');
    await app.close();
    logger.info('shutdown: complete');
    process.exit(0);
  };
  process.once('SIGTERM', (signal) => void stop(signal, config.shutdownDrainMs).catch((error: unknown) => fail('shutdown failed', error)));
  process.once('SIGINT', (signal) => void stop(signal, 0).catch((error: unknown) => fail('shutdown failed', error)));
  process.on('SIGHUP', () => {
    const watcher = app.get(MerchantsFileWatcher, { strict: false });
    if (watcher) watcher.reload('SIGHUP');
    else logger.warn('SIGHUP: no merchants file to reload');
  });
}

/** A failure as one JSON line on stderr, then exit 1. */
export function fail(message: string, error: unknown): never {
  const err = error instanceof Error ? error : new Error(String(error));
  createLogger({ logLevel: 'info' }, process.stderr).fatal({ err: { name: err.name, message: err.message } }, `${message}: ${err.message}`);
  process.exit(1);
}
