import type { Type } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { Logger } from 'pino';
import { createApp, type CreateAppOptions } from './app.factory';
import { loadConfig, type AppConfig } from './config/app-config';
import { installPaths } from './config/install-paths';
import { Readiness } from './lifecycle/readiness';
import { createLogger } from './logging/logger';
import { MerchantsSync } from './merchants/merchants-sync';

/** Runs the service from the environment until a signal stops it. `extraControllers` and `bench` are bench:server's (apps/api/bench/bench-server.ts); main.ts passes neither. */
export async function runService(extraControllers: Type[] = [], bench: Pick<CreateAppOptions, 'fastifyRoutes' | 'ablate'> = {}): Promise<void> {
  // Until the config is read, failures are logged at the default level.
  process.on('uncaughtException', (error) => fail('the service failed', error));
  const config = loadConfig(process.env, installPaths(__dirname));
  const logger = createLogger(config);
  logger.info({ mode: config.mode, nonceStore: config.redisUrl ? 'redis' : 'memory', payinStore: config.databaseUrl ? 'postgres' : 'pglite' }, 'payment service starting');
  const app = await createApp(config, { logger, extraControllers, ...bench });
  handleSignals(app, config, logger);
  await app.listen({ port: config.port, host: config.host });
  logger.info({ port: config.port, host: config.host }, `payment service listening on http://${config.host}:${config.port}/payment`);
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
    // The merchants from the database now, without waiting for an announcement or the version check.
    const sync = app.get(MerchantsSync, { strict: false });
    if (sync) void sync.refresh('SIGHUP');
    else logger.warn('SIGHUP: the merchants were given in code; nothing to load');
  });
}

/** A failure as one JSON line on stderr, then exit 1. */
export function fail(message: string, error: unknown): never {
  const err = error instanceof Error ? error : new Error(String(error));
  createLogger({ logLevel: 'info' }, process.stderr).fatal({ err: { name: err.name, message: err.message } }, `${message}: ${err.message}`);
  process.exit(1);
}
