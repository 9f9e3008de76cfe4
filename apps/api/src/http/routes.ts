/**
 * Every URL shape the service answers or hands out, in one place: the global
 * prefix Nest mounts the controllers under, and the paths built outside a
 * controller (links, logs, probes).
 */
export const API_PREFIX = 'payment';

/** Injection token of the origin customers reach the service at (PUBLIC_BASE_URL, or where this instance listens), as a function: the port is known only once the server listens. */
export const PublicOrigin = Symbol('PublicOrigin');
export type PublicOrigin = () => string;

const ROOT = `/${API_PREFIX}`;

export const ROUTES = {
  payin: (reference: string) => `${ROOT}/api/payins/${encodeURIComponent(reference)}`,
  payout: (reference: string) => `${ROOT}/api/payouts/${encodeURIComponent(reference)}`,
  payoutBatch: (reference: string) => `${ROOT}/api/payout-batches/${encodeURIComponent(reference)}`,
  refund: (reference: string) => `${ROOT}/api/refunds/${encodeURIComponent(reference)}`,
  settlement: (id: string) => `${ROOT}/api/settlements/${encodeURIComponent(id)}`,
  checkout: (token: string) => `${ROOT}/checkout/${token}`,
  checkoutReturn: (token: string) => `${ROOT}/checkout/${token}/return`,
  providerWebhook: (provider: string) => `${ROOT}/provider-webhooks/${provider}`,
  metrics: `${ROOT}/metrics`,
  contract: `${ROOT}/openapi.yaml`,
  docs: `${ROOT}/docs`,
  dashboard: `${ROOT}/dashboard`,
  /** A setup or invitation link: its token in the fragment, which no server or log sees. */
  dashboardLink: (token: string) => `${ROOT}/dashboard/welcome#${token}`,
  protocol: `${ROOT}/docs/protocol`,
  /** The alerts' runbooks, one section per alert (docs/runbooks.md): the default of RUNBOOK_BASE_URL. */
  runbooks: `${ROOT}/docs/runbooks`,
  vectors: `${ROOT}/docs/vectors.json`,
  docsAsset: (file: string) => `${ROOT}/docs/assets/${file}`,
  /** The answers a load balancer or a monitor polls; logged at debug when they succeed. */
  probes: [`${ROOT}/health`, `${ROOT}/health/live`, `${ROOT}/health/ready`, `${ROOT}/metrics`] as readonly string[],
} as const;

/** Whether a request path is a checkout link's. */
export const isCheckoutPath = (path: string): boolean => path.startsWith(`${ROOT}/checkout/`);

/** Whether a request path is one of the unsigned pages a browser reads: a checkout link, the docs or the contract. */
export const isPublicPagePath = (path: string): boolean => isCheckoutPath(path) || path === ROUTES.docs || path.startsWith(`${ROUTES.docs}/`) || path === ROUTES.contract || isDashboardPath(path);

/** Whether a request path is the merchant dashboard's: its app, or its API, which a session authenticates. */
export const isDashboardPath = (path: string): boolean => path === ROUTES.dashboard || path.startsWith(`${ROUTES.dashboard}/`);

/** Whether a request path is a provider's webhook route: unsigned by our scheme, and authenticated by the provider's own signature. */
export const isProviderWebhookPath = (path: string): boolean => path.startsWith(`${ROOT}/provider-webhooks/`);

/** Whether a request path is one of the docs' assets (the scripts the reference page loads). */
export const isDocsAssetPath = (path: string): boolean => path.startsWith(ROUTES.docsAsset(''));

/** The path with a checkout link's capability token masked, for logs. */
export function loggablePath(path: string): string {
  return path.startsWith(`${ROOT}/checkout/`) ? path.replace(/^(\/[^/]+\/checkout\/)[^/?]+/, '$1{token}') : path;
}
