import { buildBaseString, hmacSha256Hex, sha256Hex } from './base-string';
import { canonicalBodyFromJson } from './canonical-body';
import { SIGNING_HEADERS } from './constants';
import { SigningError } from './errors';
import { HEADER_GRAMMAR, METHOD_GRAMMAR, REQUEST_PATH_GRAMMAR } from './header-grammar';

export interface SignInput {
  apiKey: string;
  secretKey: string;
  /** Unique per request; inject it (for example `randomUUID()`) so that signing stays deterministic. */
  nonce: string;
  /** Unix epoch seconds; inject it from your clock. */
  timestamp: number;
  /** Any case; it is signed upper case. */
  method: string;
  /** Path as it will appear in the request line, including `/payment` and any `?query`. */
  path: string;
  /** The exact JSON text or bytes that will be sent; omit for a request without a body. */
  body?: string | Uint8Array;
  /** Sent as X-Merchant-ID when given. */
  merchantId?: string;
  /** Sent as X-Tenant-ID when given. */
  tenantId?: string;
}

export type SignedHeaders = Record<(typeof SIGNING_HEADERS)[keyof typeof SIGNING_HEADERS], string>;

export interface SignResult {
  /** The headers to send. X-Merchant-ID and X-Tenant-ID are present only when given. */
  headers: Partial<SignedHeaders> & Pick<SignedHeaders, 'X-API-KEY' | 'X-Nonce' | 'X-Timestamp' | 'X-Signature'>;
  canonicalBody: string;
  bodySha256Hex: string;
  baseString: string;
  signature: string;
}

/** Signs one request and returns the headers with every intermediate value, for debugging. */
export function sign(input: SignInput): SignResult {
  const timestamp = formatTimestamp(input.timestamp);
  const method = input.method.toUpperCase();
  checkGrammar('apiKey', input.apiKey, HEADER_GRAMMAR.apiKey);
  checkGrammar('nonce', input.nonce, HEADER_GRAMMAR.nonce);
  checkGrammar('method', method, METHOD_GRAMMAR);
  checkGrammar('path', input.path, REQUEST_PATH_GRAMMAR);
  if (input.merchantId !== undefined) checkGrammar('merchantId', input.merchantId, HEADER_GRAMMAR.merchantId);
  if (input.tenantId !== undefined) checkGrammar('tenantId', input.tenantId, HEADER_GRAMMAR.tenantId);
  if (input.secretKey.length === 0) throw new SigningError('INVALID_SIGNING_INPUT', 'secretKey is empty. Pass the secret key issued with your API key.');

  const canonicalBody = canonicalBodyFromJson(input.body);
  const bodySha256Hex = sha256Hex(canonicalBody);
  const baseString = buildBaseString({ apiKey: input.apiKey, nonce: input.nonce, timestamp, method, requestPath: input.path, bodySha256Hex });
  const signature = hmacSha256Hex(input.secretKey, baseString);

  const headers: SignResult['headers'] = {
    [SIGNING_HEADERS.apiKey]: input.apiKey,
    [SIGNING_HEADERS.nonce]: input.nonce,
    [SIGNING_HEADERS.timestamp]: timestamp,
    [SIGNING_HEADERS.signature]: signature,
  };
  if (input.merchantId !== undefined) headers[SIGNING_HEADERS.merchantId] = input.merchantId;
  if (input.tenantId !== undefined) headers[SIGNING_HEADERS.tenantId] = input.tenantId;
  return { headers, canonicalBody, bodySha256Hex, baseString, signature };
}

function formatTimestamp(timestamp: number): string {
  if (!Number.isSafeInteger(timestamp) || timestamp < 0) {
    throw new SigningError('INVALID_SIGNING_INPUT', `timestamp must be a non-negative whole number of Unix seconds, got ${timestamp}.`);
  }
  const text = String(timestamp);
  checkGrammar('timestamp', text, HEADER_GRAMMAR.timestamp);
  return text;
}

function checkGrammar(name: string, value: string, grammar: { pattern: RegExp; rule: string }): void {
  if (!grammar.pattern.test(value)) {
    throw new SigningError('INVALID_SIGNING_INPUT', `${name} must be ${grammar.rule}.`);
  }
}
