import { createHash, timingSafeEqual } from 'node:crypto';
import * as http from 'node:http';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { AppConfig } from '../config/app-config';
import { ApiException } from '../errors/api.exception';
import { sendError } from '../errors/send-error';
import type { ServiceMetrics } from '../metrics/service-metrics';
import { PUBLIC_ROUTE } from './public.decorator';
import { ROUTES } from './routes';

const METRICS_PATH = ROUTES.metrics;

/**
 * Serves the metrics in Prometheus text: on the service's port, or on
 * METRICS_PORT so that only the monitoring network reaches them, and with
 * METRICS_TOKEN only to a request bearing it. Production refuses to boot
 * with metrics on the service's port and no token; METRICS_ENABLED=false
 * turns them off.
 */
export async function registerMetricsEndpoint(fastify: FastifyInstance, metrics: ServiceMetrics, config: Pick<AppConfig, 'metricsEnabled' | 'metricsPort' | 'metricsToken' | 'host'>, logger: Logger): Promise<void> {
  if (!config.metricsEnabled) return;
  const authorized = bearerCheck(config.metricsToken);
  if (config.metricsPort === undefined) {
    fastify.get(METRICS_PATH, { config: { [PUBLIC_ROUTE]: true } }, async (request, reply) => {
      if (!authorized(request.headers.authorization)) {
        void reply.header('www-authenticate', 'Bearer realm="metrics"');
        sendError(new ApiException('METRICS_UNAUTHORIZED', {}), request, reply);
        return reply;
      }
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
    if (!authorized(request.headers.authorization)) {
      response.writeHead(401, { 'www-authenticate': 'Bearer realm="metrics"' }).end();
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

/** Whether an Authorization header bears the token, compared in constant time; anything passes when there is no token. */
function bearerCheck(token: string | undefined): (authorization: string | undefined) => boolean {
  if (token === undefined) return () => true;
  const expected = createHash('sha256').update(token).digest();
  return (authorization) => {
    const presented = /^Bearer (\S+)$/.exec(authorization ?? '')?.[1] ?? '';
    // Digests of equal length, so that the comparison's time says nothing about the token's length either.
    return timingSafeEqual(createHash('sha256').update(presented).digest(), expected);
  };
}
