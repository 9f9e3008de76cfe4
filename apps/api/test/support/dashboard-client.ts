import { ContractValidator, DASHBOARD_CONTRACT_PATH } from '@paysign/contracts/testing';
import { totpCodeAt } from '../../src/dashboard/totp';

const dashboardContract = new ContractValidator(DASHBOARD_CONTRACT_PATH);
const API = '/payment/dashboard/api';

export interface DashboardResponse {
  status: number;
  headers: Headers;
  json: Record<string, unknown>;
  text: string;
}

/**
 * A browser's side of the dashboard API: a cookie jar, the session's CSRF
 * token sent on every write, and each answer checked against
 * openapi/dashboard-api.yaml.
 */
export class DashboardClient {
  readonly cookies = new Map<string, string>();
  csrf: string | undefined;

  constructor(
    readonly baseUrl: string,
    private readonly options: { address?: string } = {},
  ) {}

  async call(method: string, path: string, body?: unknown, extra: { csrf?: string | null; headers?: Record<string, string> } = {}): Promise<DashboardResponse> {
    const csrf = extra.csrf === null ? undefined : (extra.csrf ?? this.csrf);
    const response = await fetch(`${this.baseUrl}${API}${path}`, {
      method,
      headers: {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(this.cookies.size ? { cookie: [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ') } : {}),
        ...(csrf && method !== 'GET' ? { 'x-csrf-token': csrf } : {}),
        ...(this.options.address ? { 'x-forwarded-for': this.options.address } : {}),
        ...extra.headers,
      },
      ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
    });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair = ''] = cookie.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq);
      const value = pair.slice(eq + 1);
      if (/Max-Age=0/i.test(cookie)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    const text = await response.text();
    const isJson = (response.headers.get('content-type') ?? '').startsWith('application/json');
    const json = isJson && text ? (JSON.parse(text) as Record<string, unknown>) : {};
    if (typeof json.csrfToken === 'string') this.csrf = json.csrfToken;
    const violations = dashboardContract.validateResponse({ method, path: path.split('?')[0] ?? path, status: response.status, body: isJson ? json : text });
    if (violations.length > 0) throw new Error(`${method} ${path} answered ${response.status} outside openapi/dashboard-api.yaml: ${violations.join('; ')}\n${text.slice(0, 500)}`);
    return { status: response.status, headers: response.headers, json, text };
  }
}

/** The TOTP code of `secret` at `epochMs`: what an authenticator app shows then. */
export const totpCode = (secret: string, epochMs: number): Promise<string> => Promise.resolve(totpCodeAt(secret, epochMs));

/** The setup or invitation token of a link: what follows `#`. */
export const linkToken = (url: string): string => url.slice(url.indexOf('#') + 1);

export { dashboardContract };
