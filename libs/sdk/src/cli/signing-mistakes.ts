import { buildBaseString, canonicalBodyFromObject, hmacSha256Hex, readFlatJsonObject, sha256Hex, type BaseStringParts, type SignableBody } from '@paysign/signing';

/** An intermediate value of the signature, in the order they are computed. */
export type IntermediateValue = 'canonicalBody' | 'bodySha256Hex' | 'baseString' | 'signature';

export interface SigningMistake {
  /** The first intermediate value the mistake changes. */
  differs: IntermediateValue;
  /** What the client did, and how to fix it. */
  explanation: string;
}

/** The request as the server saw it, with the values it computed. */
export interface ServerView {
  parts: BaseStringParts;
  canonicalBody: string;
  /** The raw body text, or undefined when there was no body. */
  body: string | undefined;
}

interface Candidate {
  differs: IntermediateValue;
  /** What the client did and how to fix it, in the words of this request when they help. */
  explanation: string | ((view: ServerView) => string);
  /** The base string parts the mistaken client would have signed, or undefined when the mistake does not apply. */
  parts: (view: ServerView) => BaseStringParts | undefined;
}

const withBody = (view: ServerView, canonicalBody: string | undefined): BaseStringParts | undefined =>
  canonicalBody === undefined || canonicalBody === view.canonicalBody ? undefined : { ...view.parts, bodySha256Hex: sha256Hex(canonicalBody) };

const withPath = (view: ServerView, requestPath: string): BaseStringParts | undefined =>
  requestPath === view.parts.requestPath ? undefined : { ...view.parts, requestPath };

/**
 * Mistakes integrators make, each a change to one component of the base string.
 * When one reproduces the received signature, it names the value that differs.
 */
const CANDIDATES: readonly Candidate[] = [
  {
    differs: 'canonicalBody',
    explanation: (view) =>
      `The client signed numbers re-serialised from a parsed object (${reserialisedNumbers(view.body).join('; ')}). Sign each number exactly as it appears in the JSON you send.`,
    parts: (view) => withBody(view, reparsedCanonicalBody(view.body)),
  },
  {
    differs: 'canonicalBody',
    explanation: 'The client signed the fields in the order sent, not sorted. Sort keys by UTF-16 code unit, as JavaScript sort() and Java compareTo do.',
    parts: (view) => withBody(view, unsortedCanonicalBody(view.canonicalBody, view.body)),
  },
  {
    differs: 'canonicalBody',
    explanation: 'The client rendered values as JSON, with quotes and escapes. Write each value bare: key=value, strings unquoted.',
    parts: (view) => withBody(view, jsonValuedCanonicalBody(view.body)),
  },
  {
    differs: 'canonicalBody',
    explanation: 'The client signed an empty body but sent one. Sign the body you send.',
    parts: (view) => withBody(view, view.body === undefined ? undefined : ''),
  },
  {
    differs: 'bodySha256Hex',
    explanation: 'The client hashed the raw JSON text instead of the canonical body (key=value pairs joined with &). Hash the canonical body.',
    parts: (view) => (view.body === undefined || view.body === view.canonicalBody ? undefined : { ...view.parts, bodySha256Hex: sha256Hex(view.body) }),
  },
  {
    differs: 'baseString',
    explanation: 'The client signed the path without the /payment context path. Sign the path exactly as in the request line.',
    parts: (view) => (view.parts.requestPath.startsWith('/payment/') ? withPath(view, view.parts.requestPath.slice('/payment'.length)) : undefined),
  },
  {
    differs: 'baseString',
    explanation: 'The client signed the path without its query string. Include ? and the raw query in the signed path.',
    parts: (view) => withPath(view, view.parts.requestPath.split('?')[0] ?? ''),
  },
  {
    differs: 'baseString',
    explanation: 'The client signed the method in lower case. Sign it in upper case (POST, GET).',
    parts: (view) => (view.parts.method === view.parts.method.toLowerCase() ? undefined : { ...view.parts, method: view.parts.method.toLowerCase() }),
  },
];

/** The first known mistake that reproduces `receivedSignature` with `secretKey`, if any. */
export function findSigningMistake(view: ServerView, secretKey: string, receivedSignature: string): SigningMistake | undefined {
  for (const candidate of CANDIDATES) {
    const parts = candidate.parts(view);
    if (parts && hmacSha256Hex(secretKey, buildBaseString(parts)) === receivedSignature) {
      const { explanation } = candidate;
      return { differs: candidate.differs, explanation: typeof explanation === 'string' ? explanation : explanation(view) };
    }
  }
  return undefined;
}

function parsedBody(body: string | undefined): Record<string, unknown> | undefined {
  if (body === undefined) return undefined;
  try {
    const parsed: unknown = JSON.parse(body);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** Each number of the body whose text a parse and re-serialisation changes, as `key: sent became signed`. */
function reserialisedNumbers(body: string | undefined): string[] {
  const parsed = parsedBody(body);
  if (parsed === undefined || body === undefined) return [];
  return readFlatJsonObject(body)
    .filter((field) => typeof parsed[field.key] === 'number' && String(parsed[field.key]) !== field.text)
    .map((field) => `${field.key}: ${field.text} became ${String(parsed[field.key])}`);
}

function reparsedCanonicalBody(body: string | undefined): string | undefined {
  const parsed = parsedBody(body);
  return parsed === undefined ? undefined : canonicalBodyFromObject(parsed as SignableBody);
}

function unsortedCanonicalBody(canonicalBody: string, body: string | undefined): string | undefined {
  const parsed = parsedBody(body);
  if (parsed === undefined) return undefined;
  // Same pairs as the canonical body, in the order the JSON sent them.
  const pairs = new Map(canonicalBody.split('&').map((pair) => [pair.slice(0, pair.indexOf('=')), pair] as const));
  return Object.keys(parsed)
    .flatMap((key) => pairs.get(key) ?? [])
    .join('&');
}

function jsonValuedCanonicalBody(body: string | undefined): string | undefined {
  const parsed = parsedBody(body);
  if (parsed === undefined) return undefined;
  return Object.keys(parsed)
    .filter((key) => parsed[key] !== null)
    .sort()
    .map((key) => `${key}=${JSON.stringify(parsed[key])}`)
    .join('&');
}
