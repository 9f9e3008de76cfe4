import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import pino from 'pino';
import { createApp, type CreateAppOptions } from '../../src/app.factory';
import { loadConfig, type AppConfig } from '../../src/config/app-config';
import { TEST_MERCHANTS_FILE } from './credentials';

export interface TestApp {
  app: NestFastifyApplication;
  baseUrl: string;
  config: AppConfig;
  /** Every log line the app wrote, parsed. */
  logs: Array<Record<string, unknown>>;
  close(): Promise<void>;
}

/** Starts the real app on a free loopback port, on its embedded stores unless the env says otherwise. */
export async function startTestApp(env: Record<string, string | undefined> = {}, options: CreateAppOptions = {}): Promise<TestApp> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'payment-api-'));
  const config = loadConfig({ MERCHANTS_FILE: TEST_MERCHANTS_FILE, DATA_DIR: dataDir, LOG_LEVEL: 'info', ENQUIRY_TIMEOUT_MS: '300', ...env });
  const logs: Array<Record<string, unknown>> = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => void logs.push(JSON.parse(line) as Record<string, unknown>) });
  const app = await createApp(config, { logger, ...options });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.getHttpServer().address() as { port: number };
  return {
    app,
    baseUrl: `http://127.0.0.1:${address.port}`,
    config,
    logs,
    close: async () => {
      await app.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
