import { envValues, type Env } from './env-values';
import { isGuessableSecret, MIN_SECRET_LENGTH, SECRET_STRENGTH_RULE } from './secret-strength';
import type { ServiceMode } from './service-mode';

export interface MetricsSettings {
  /** Whether /payment/metrics is served. */
  metricsEnabled: boolean;
  /** Serve the metrics on this port of HOST instead of the service's own; undefined: the service's port. */
  metricsPort: number | undefined;
  /** When set, the metrics answer only a request with `Authorization: Bearer <token>`. */
  metricsToken: string | undefined;
}

/**
 * The metrics endpoint. Production must not serve it to anyone on the
 * service port: it takes a port of its own, a token, or is turned off.
 * servicePort is PORT's value, which METRICS_PORT must differ from.
 */
export function readMetrics(env: Env, mode: ServiceMode, problems: string[], { servicePort }: { servicePort: number }): MetricsSettings {
  const { int, bool } = envValues(env, problems);
  const metrics: MetricsSettings = {
    metricsEnabled: bool('METRICS_ENABLED', true),
    metricsPort: env.METRICS_PORT ? int('METRICS_PORT', 0, 1, 65535) : undefined,
    metricsToken: env.METRICS_TOKEN || undefined,
  };
  if (mode === 'production' && metrics.metricsEnabled && metrics.metricsPort === undefined && metrics.metricsToken === undefined) {
    problems.push(
      'METRICS_PORT or METRICS_TOKEN must be set in production mode while METRICS_ENABLED is true: the metrics must not answer anyone on the service port. Serve them on a port of the monitoring network (METRICS_PORT), require a bearer token (METRICS_TOKEN), or set METRICS_ENABLED=false',
    );
  }
  if (metrics.metricsToken !== undefined && metrics.metricsToken.length < MIN_SECRET_LENGTH) {
    problems.push(`METRICS_TOKEN must be at least ${MIN_SECRET_LENGTH} characters (openssl rand -hex 32), got ${metrics.metricsToken.length}`);
  } else if (mode === 'production' && metrics.metricsToken !== undefined && isGuessableSecret(metrics.metricsToken)) {
    problems.push(`METRICS_TOKEN is too predictable for production mode (repeated, or too few different characters); use ${SECRET_STRENGTH_RULE}`);
  }
  if (metrics.metricsPort !== undefined && metrics.metricsPort === servicePort) {
    problems.push(`METRICS_PORT (${metrics.metricsPort}) must differ from PORT; leave it unset to serve the metrics on the service's port`);
  }
  return metrics;
}
