import type { FastifyReply, FastifyRequest } from 'fastify';
import { TOKEN_PATTERN } from './dashboard-tokens';

/**
 * The session cookie. In production it is `__Host-` prefixed, so a browser
 * takes it only over HTTPS, for this host alone, with Path=/: no subdomain
 * or plain-HTTP page can set one for us (session fixation).
 */
export interface CookieNames {
  session: string;
  device: string;
  secure: boolean;
}

/** A remembered browser is remembered this long: a year, as the lockout's way past it. */
export const DEVICE_COOKIE_SECONDS = 365 * 86_400;

export const cookieNames = (secure: boolean): CookieNames =>
  secure ? { session: '__Host-paysign_session', device: '__Host-paysign_device', secure } : { session: 'paysign_session', device: 'paysign_device', secure };

/** The value of cookie `name`, when it is a token of ours; any other value is ignored. */
export function readCookie(request: FastifyRequest, name: string): string | undefined {
  const header = request.headers.cookie;
  if (typeof header !== 'string' || header.length > 8192) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0 || part.slice(0, eq).trim() !== name) continue;
    const value = part.slice(eq + 1).trim();
    return TOKEN_PATTERN.test(value) ? value : undefined;
  }
  return undefined;
}

/** Sets (or, with `maxAgeSeconds` 0, clears) an HttpOnly, SameSite=Strict cookie. */
export function setCookie(reply: FastifyReply, names: CookieNames, name: string, value: string, maxAgeSeconds: number): void {
  const attributes = [`${name}=${value}`, 'Path=/', 'HttpOnly', 'SameSite=Strict', `Max-Age=${maxAgeSeconds}`, ...(names.secure ? ['Secure'] : [])];
  const existing = reply.getHeader('set-cookie');
  const cookies = existing === undefined ? [] : Array.isArray(existing) ? existing.map(String) : [String(existing)];
  void reply.header('set-cookie', [...cookies, attributes.join('; ')]);
}
