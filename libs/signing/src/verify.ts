import { timingSafeEqual } from 'node:crypto';
import { buildBaseString, hmacSha256Hex, sha256Hex } from './base-string';
import { canonicalBodyFromJson } from './canonical-body';
import { SIGNING_HEADERS, TIMESTAMP_TOLERANCE_SECONDS } from './constants';
import { SigningError, isRawBodyErrorCode, type RawBodyErrorCode } from './errors';
import type { HeaderBag } from './header-bag';
import { HEADER_GRAMMAR } from './header-grammar';

/** The six signing header values, each checked against its grammar. */
export interface SigningHeaderValues {
  apiKey: string;
  nonce: string;
  timestamp: string;
  signature: string;
  merchantId: string;
  tenantId: string;
}

/** What checks 1 to 3 read: the headers, the API key's secret and the clock. */
export interface HeaderCheckInput {
  headers: HeaderBag;
  /** Server time in Unix seconds. */
  now: number;
  /** The secret of an active credential, or `undefined` when the API key is unknown or inactive. */
  secretFor: (apiKey: string) => string | undefined;
  /** Allowed clock skew. Default: `TIMESTAMP_TOLERANCE_SECONDS` (300). */
  toleranceSeconds?: number;
}

/** The headers of a request that passed checks 1 to 3, and its API key's secret. */
export interface CheckedSigningHeaders {
  ok: true;
  headers: SigningHeaderValues;
  secretKey: string;
}

interface BodyCheckInput {
  /** The request method as received. */
  method: string;
  /** The path exactly as in the request line, with `?query` when present. */
  path: string;
  /** The raw body bytes as received, never a re-serialised object. */
  body?: string | Uint8Array;
  /** Most fields the body may have; more is refused with TOO_MANY_FIELDS before the rest is read. Default: no limit. */
  maxBodyFields?: number;
}

/**
 * A request to verify: its headers to check, or, from a server that already
 * ran `checkSigningHeaders` on this very request as its head arrived, that
 * result, so that checks 1 to 3 do not run twice.
 */
export type VerifyInput = BodyCheckInput & (HeaderCheckInput | { checkedHeaders: CheckedSigningHeaders });

/**
 * The server's intermediate values of a request whose signature did not match.
 * The expected signature is left out on purpose: with it, any holder of a
 * public API key could send a request with a dummy signature, read the right
 * one from the 401 and replay the request signed, so a sandbox 401 would be a
 * signing oracle. These three values are derived from what the client sent and
 * hold no secret, yet still pinpoint where a client's computation departs.
 */
export interface SigningDebugValues {
  canonicalBody: string;
  bodySha256Hex: string;
  baseString: string;
}

export type VerifyFailure =
  | { ok: false; code: 'AUTH_HEADER_MISSING' | 'AUTH_HEADER_MALFORMED'; header: string; message: string }
  | { ok: false; code: 'AUTH_UNKNOWN_API_KEY'; message: string }
  | { ok: false; code: 'AUTH_TIMESTAMP_SKEW'; message: string; serverTime: number; skewSeconds: number }
  | { ok: false; code: RawBodyErrorCode; message: string }
  | { ok: false; code: 'AUTH_SIGNATURE_MISMATCH'; message: string; debug: SigningDebugValues };

export type VerifyResult = ({ ok: true; headers: SigningHeaderValues } & SigningDebugValues) | VerifyFailure;

export type VerifyFailureCode = VerifyFailure['code'];

/**
 * Verifies a signed request. The checks run in the protocol's order and the
 * first failure is returned:
 *
 * 1. all six headers present, each once, each matching its grammar;
 * 2. the API key resolves to a secret (`secretFor`);
 * 3. the timestamp is within ±`toleranceSeconds` of `now`;
 * 4. the body can be canonicalized (a body code, answered with 400);
 * 5. the signature matches, compared in constant time.
 *
 * The caller must then, in this order and only on success: claim the nonce
 * atomically, scoped to the API key (a replay fails with 401); and check that
 * X-Merchant-ID and X-Tenant-ID equal the API key's merchant record, since they
 * are not part of the base string.
 */
export function verify(input: VerifyInput): VerifyResult {
  const checked = 'checkedHeaders' in input ? input.checkedHeaders : checkSigningHeaders(input);
  if (!checked.ok) return checked;
  const { headers, secretKey } = checked;

  let canonicalBody: string;
  try {
    canonicalBody = canonicalBodyFromJson(input.body, { maxFields: input.maxBodyFields });
  } catch (error) {
    if (error instanceof SigningError && isRawBodyErrorCode(error.code)) return { ok: false, code: error.code, message: error.message };
    throw error;
  }
  const bodySha256Hex = sha256Hex(canonicalBody);
  const baseString = buildBaseString({
    apiKey: headers.apiKey,
    nonce: headers.nonce,
    timestamp: headers.timestamp,
    method: input.method.toUpperCase(),
    requestPath: input.path,
    bodySha256Hex,
  });
  const expected = hmacSha256Hex(secretKey, baseString);
  // Both are 64 lowercase hex characters here: the grammar check guarantees the received one.
  if (!timingSafeEqual(Buffer.from(expected, 'latin1'), Buffer.from(headers.signature, 'latin1'))) {
    return {
      ok: false,
      code: 'AUTH_SIGNATURE_MISMATCH',
      message:
        'X-Signature does not match the signature the server computed. Compare your canonical body, body hash and base string with the protocol; sign exactly the bytes you send, with the path as sent.',
      debug: { canonicalBody, bodySha256Hex, baseString },
    };
  }
  return { ok: true, headers, canonicalBody, bodySha256Hex, baseString };
}

export type HeaderCheckFailure = Extract<VerifyFailure, { code: 'AUTH_HEADER_MISSING' | 'AUTH_HEADER_MALFORMED' | 'AUTH_UNKNOWN_API_KEY' | 'AUTH_TIMESTAMP_SKEW' }>;

/**
 * Checks 1 to 3, which need no body: the headers, the API key and the
 * timestamp. A server can run them as soon as the head has arrived, and refuse
 * before it reads a byte of the body; `verify` runs them first.
 */
export function checkSigningHeaders(input: HeaderCheckInput): CheckedSigningHeaders | HeaderCheckFailure {
  const parsed = readSigningHeaders(input.headers);
  if (!parsed.ok) return parsed;
  const headers = parsed.values;

  const secretKey = input.secretFor(headers.apiKey);
  if (secretKey === undefined) {
    return { ok: false, code: 'AUTH_UNKNOWN_API_KEY', message: 'X-API-KEY is not an active API key. Use an API key issued to your merchant that has not been revoked.' };
  }

  const tolerance = input.toleranceSeconds ?? TIMESTAMP_TOLERANCE_SECONDS;
  const skewSeconds = Number(headers.timestamp) - input.now;
  if (Math.abs(skewSeconds) > tolerance) {
    return {
      ok: false,
      code: 'AUTH_TIMESTAMP_SKEW',
      serverTime: input.now,
      skewSeconds,
      message: `X-Timestamp ${headers.timestamp} is ${Math.abs(skewSeconds)} s away from server time ${input.now}; the limit is ${tolerance} s. Sync your clock with NTP, or correct it by serverTime.`,
    };
  }
  return { ok: true, headers, secretKey };
}

const HEADERS_TO_READ = (Object.keys(SIGNING_HEADERS) as Array<keyof SigningHeaderValues>).map((field) => ({
  field,
  header: SIGNING_HEADERS[field],
  lowerCase: SIGNING_HEADERS[field].toLowerCase(),
}));

type ReadHeaders = { ok: true; values: SigningHeaderValues } | Extract<VerifyFailure, { header: string }>;

/** Check 1: every signing header present exactly once and well formed. */
export function readSigningHeaders(bag: HeaderBag): ReadHeaders {
  const values: Partial<SigningHeaderValues> = {};
  for (const { field, header, lowerCase } of HEADERS_TO_READ) {
    const raw = bag[lowerCase];
    if (raw === undefined) {
      return { ok: false, code: 'AUTH_HEADER_MISSING', header, message: `${header} is missing. Send all six signing headers on every signed request.` };
    }
    if (typeof raw !== 'string') {
      return { ok: false, code: 'AUTH_HEADER_MALFORMED', header, message: `${header} was sent ${raw.length} times. Send it exactly once.` };
    }
    const grammar = HEADER_GRAMMAR[field];
    if (!grammar.pattern.test(raw)) {
      return { ok: false, code: 'AUTH_HEADER_MALFORMED', header, message: `${header} must be ${grammar.rule}.` };
    }
    values[field] = raw;
  }
  return { ok: true, values: values as SigningHeaderValues };
}
