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
  if (!oneShotBytes) return crypto.createHmac('sha256', hmacKey(secretKey)).update(baseString, 'utf8').digest('hex');
  // RFC 2104 from two one-shot hashes, H((K ^ opad) || H((K ^ ipad) || m)): the same bytes as
  // createHmac, without the Hmac object and native handle a server would otherwise build, and
  // collect, for every signed request.
  const pads = hmacPads(secretKey);
  const messageBytes = Buffer.byteLength(baseString, 'utf8');
  if (SHA256_BLOCK_BYTES + messageBytes > innerInput.length) innerInput = Buffer.allocUnsafe(2 * (SHA256_BLOCK_BYTES + messageBytes));
  pads.inner.copy(innerInput, 0);
  innerInput.write(baseString, SHA256_BLOCK_BYTES, 'utf8');
  const innerDigest = oneShotBytes('sha256', innerInput.subarray(0, SHA256_BLOCK_BYTES + messageBytes), 'buffer');
  innerDigest.copy(pads.outer, SHA256_BLOCK_BYTES);
  return oneShotBytes('sha256', pads.outer, 'hex');
}

const SHA256_BLOCK_BYTES = 64;
const SHA256_DIGEST_BYTES = 32;
type OneShotBytesHash = {
  (algorithm: string, data: Uint8Array, outputEncoding: 'hex'): string;
  (algorithm: string, data: Uint8Array, outputEncoding: 'buffer'): Buffer;
};
const oneShotBytes = oneShotHash as unknown as OneShotBytesHash | undefined;
/** The inner hash's input, reused: the key's inner pad, then the message. Written and hashed in one synchronous call. */
let innerInput = Buffer.allocUnsafe(1024);

/**
 * The last secret's key pads: K ^ ipad, and K ^ opad with room for the inner
 * digest after it. A signer uses one secret and a server a few, so
 * remembering one spares deriving them on every call, and holds nothing a
 * caller did not just pass in.
 */
let lastPads: { secret: string; inner: Buffer; outer: Buffer } | undefined;

function hmacPads(secretKey: string): { inner: Buffer; outer: Buffer } {
  if (lastPads?.secret === secretKey) return lastPads;
  let key: Buffer = Buffer.from(secretKey, 'utf8');
  if (key.length > SHA256_BLOCK_BYTES) key = (oneShotBytes as OneShotBytesHash)('sha256', key, 'buffer');
  const inner = Buffer.alloc(SHA256_BLOCK_BYTES, 0x36);
  const outer = Buffer.alloc(SHA256_BLOCK_BYTES + SHA256_DIGEST_BYTES, 0x5c);
  for (let i = 0; i < key.length; i++) {
    inner[i] = (inner[i] as number) ^ (key[i] as number);
    outer[i] = (outer[i] as number) ^ (key[i] as number);
  }
  lastPads = { secret: secretKey, inner, outer };
  return lastPads;
}

/** Where Node has no one-shot hash (before 20.12): the last secret's key object, for `createHmac`. */
let lastKey: { secret: string; key: crypto.KeyObject } | undefined;

function hmacKey(secretKey: string): crypto.KeyObject {
  if (lastKey?.secret !== secretKey) lastKey = { secret: secretKey, key: crypto.createSecretKey(Buffer.from(secretKey, 'utf8')) };
  return lastKey.key;
}
