import createClient, { type Middleware } from 'openapi-fetch';
import type { DashboardPaths } from '@paysign/contracts';

/** Where the service answers the dashboard API, on the page's own origin. */
export const API_BASE_URL = '/payment/dashboard/api';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Sends the session's CSRF token with every call that changes something, as the contract asks. */
function csrfMiddleware(csrfToken: () => string | undefined): Middleware {
  return {
    onRequest({ request }) {
      if (SAFE_METHODS.has(request.method)) return undefined;
      const token = csrfToken();
      if (token !== undefined) request.headers.set('X-CSRF-Token', token);
      return request;
    },
  };
}

export interface DashboardClientOptions {
  /** The current session's CSRF token; undefined before signing in. */
  csrfToken: () => string | undefined;
}

/** The typed client of openapi/dashboard-api.yaml; the session cookie goes with every call. */
export function createDashboardClient(options: DashboardClientOptions) {
  const client = createClient<DashboardPaths>({ baseUrl: API_BASE_URL, credentials: 'same-origin' });
  client.use(csrfMiddleware(options.csrfToken));
  return client;
}

export type DashboardClient = ReturnType<typeof createDashboardClient>;
