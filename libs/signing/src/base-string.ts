import * as crypto from 'node:crypto';
import { EMPTY_BODY_SHA256_HEX } from './constants';

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

type OneShotHash = {
  (algorithm: string, data: string, outputEncoding: 'hex'): string;
  (algorithm: string, data: string, outputEncoding: 'buffer'): Buffer;
};
/** `crypto.hash` (Node 20.12 and later) hashes without building a Hash object: half the cost on a small body. */
const oneShotHash = (crypto as unknown as { hash?: OneShotHash }).hash;

export function sha256Hex(text: string): string {
  // Every request without a body hashes the empty string: its digest is a constant.
  if (text.length === 0) return EMPTY_BODY_SHA256_HEX;
  return oneShotHash ? oneShotHash('sha256', text, 'hex') : crypto.createHash('sha256').update(text, 'utf8').digest('hex');
}

/** The 32 bytes of the SHA-256 of a string's UTF-8. */
export function sha256Bytes(text: string): Buffer {
  return oneShotHash ? oneShotHash('sha256', text, 'buffer') : crypto.createHash('sha256').update(text, 'utf8').digest();
}

export function buildBaseString(parts: BaseStringParts): string {
  return `${parts.apiKey}\n${parts.nonce}\n${parts.timestamp}\n${parts.method}\n${parts.requestPath}\n${parts.bodySha256Hex}`;
}

export function hmacSha256Hex(secretKey: string, baseString: string): string {
  return crypto.createHmac('sha256', hmacKey(secretKey)).update(baseString, 'utf8').digest('hex');
}

/**
 * The last secret's key object. A signer uses one secret and a server a few,
 * so remembering one spares turning the secret into key bytes on every call,
 * and holds nothing a caller did not just pass in.
 */
let lastKey: { secret: string; key: crypto.KeyObject } | undefined;

function hmacKey(secretKey: string): crypto.KeyObject {
  if (lastKey?.secret !== secretKey) lastKey = { secret: secretKey, key: crypto.createSecretKey(Buffer.from(secretKey, 'utf8')) };
  return lastKey.key;
}
