import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** A bearer secret of 256 bits, base64url: a session, a link, a device, a CSRF token. */
export const newToken = (): string => randomBytes(32).toString('base64url');

/** What the database keeps of a bearer secret: a copy of it opens nothing. */
export const tokenHash = (token: string): string => createHash('sha256').update(token).digest('hex');

/** The shape of `newToken()`'s tokens: anything else is not one of ours, and is never looked up. */
export const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** Compares two secrets in constant time. */
export function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
