import * as http from 'node:http';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { AppConfig } from '../config/app-config';
import type { ServiceMetrics } from '../metrics/service-metrics';
import { PUBLIC_ROUTE } from './public.decorator';
import { ROUTES } from './routes';

const METRICS_PATH = ROUTES.metrics;

/**
 * Serves the metrics in Prometheus text, unsigned: on the service's port, or
 * on METRICS_PORT so that only the monitoring network reaches them. Neither
 * should be exposed publicly; METRICS_ENABLED=false turns them off.
 */
export async function registerMetricsEndpoint(fastify: FastifyInstance, metrics: ServiceMetrics, config: Pick<AppConfig, 'metricsEnabled' | 'metricsPort' | 'host'>, logger: Logger): Promise<void> {
  if (!config.metricsEnabled) return;
  if (config.metricsPort === undefined) {
    fastify.get(METRICS_PATH, { config: { [PUBLIC_ROUTE]: true } }, async (_request, reply) => {
      void reply.header('content-type', metrics.registry.contentType);
      return metrics.registry.metrics();
    });
    return;
  }
  const server = http.createServer((request, response) => {
    if (request.method !== 'GET' || request.url !== METRICS_PATH) {
      response.writeHead(404).end();
      return;
    }
    void metrics.registry.metrics().then((text) => response.writeHead(200, { 'content-type': metrics.registry.contentType }).end(text));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.metricsPort, config.host, () => resolve());
  });
  logger.info({ port: config.metricsPort, host: config.host }, `metrics served on http://${config.host}:${config.metricsPort}${METRICS_PATH}`);
  fastify.addHook('onClose', async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
}
