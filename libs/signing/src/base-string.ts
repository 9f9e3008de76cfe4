import { createHash, createHmac } from 'node:crypto';

/** The six parts of the signature base string, in order. */
export interface BaseStringParts {
  apiKey: string;
  nonce: string;
  /** Exactly as sent in X-Timestamp. */
  timestamp: string;
  /** Upper case. */
  method: string;
  /** Path as in the request line, with `?` and the raw query when there is one. */
  requestPath: string;
  bodySha256Hex: string;
}

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

export function buildBaseString(parts: BaseStringParts): string {
  return [parts.apiKey, parts.nonce, parts.timestamp, parts.method, parts.requestPath, parts.bodySha256Hex].join('\n');
}

export function hmacSha256Hex(secretKey: string, baseString: string): string {
  return createHmac('sha256', secretKey).update(baseString, 'utf8').digest('hex');
}
