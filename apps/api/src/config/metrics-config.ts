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
  /**
   * Where each alert's runbook is: the alert's anchor (`#paysignledgerbroken`) is appended to it
   * (RUNBOOK_BASE_URL). Undefined: the runbooks this service serves, at PUBLIC_BASE_URL, or where it listens.
   */
  runbookBaseUrl: string | undefined;
}

/**
 * The metrics endpoint. Production must not serve it to anyone on the
 * service port: it takes a port of its own, a token, or is turned off.
 * servicePort is PORT's value, which METRICS_PORT must differ from.
 */
export function readMetrics(env: Env, mode: ServiceMode, problems: string[], { servicePort }: { servicePort: number }): MetricsSettings {
  const { int, bool, url } = envValues(env, problems);
  const metrics: MetricsSettings = {
    metricsEnabled: bool('METRICS_ENABLED', true),
    metricsPort: env.METRICS_PORT ? int('METRICS_PORT', 0, 1, 65535) : undefined,
    metricsToken: env.METRICS_TOKEN || undefined,
    runbookBaseUrl: runbookBaseUrl(url('RUNBOOK_BASE_URL', ['https:', 'http:']), mode, problems),
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

/**
 * A page an operator opens from a pager, with each alert's anchor appended: so
 * no query or fragment (the anchor would land in it), and no user or password,
 * which would be shown to everyone who sees the metrics and the alerts.
 * Production takes https only, as it does for PUBLIC_BASE_URL.
 */
function runbookBaseUrl(raw: string | undefined, mode: ServiceMode, problems: string[]): string | undefined {
  if (raw === undefined || !URL.canParse(raw)) return undefined;
  const parsed = new URL(raw);
  if (parsed.username !== '' || parsed.password !== '') problems.push('RUNBOOK_BASE_URL must not hold a user or password: it is shown in the metrics and in every alert');
  else if (parsed.search !== '' || parsed.hash !== '' || raw.includes('#') || raw.includes('?')) problems.push('RUNBOOK_BASE_URL must be a page without a query or fragment, such as https://wiki.example.com/paysign/runbooks: each alert appends its own #anchor');
  else if (mode === 'production' && parsed.protocol !== 'https:') problems.push(`RUNBOOK_BASE_URL must be https in production mode, got "${raw}": operators open it from their pagers`);
  return raw.replace(/\/+$/, '');
}
