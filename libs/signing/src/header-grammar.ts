import { SIGNING_HEADERS } from './constants';

/** The grammar each signing header value must match; anything else is refused before signing. */
export const HEADER_GRAMMAR = {
  apiKey: { pattern: /^[\x21-\x7E]{1,256}$/, rule: '1 to 256 visible ASCII characters' },
  nonce: { pattern: /^[A-Za-z0-9._~-]{1,128}$/, rule: '1 to 128 characters from [A-Za-z0-9._~-], such as a UUID' },
  timestamp: { pattern: /^[0-9]{1,12}$/, rule: 'Unix epoch seconds as 1 to 12 decimal digits' },
  signature: { pattern: /^[0-9a-f]{64}$/, rule: '64 lowercase hexadecimal characters' },
  merchantId: { pattern: /^[\x21-\x7E]{1,128}$/, rule: '1 to 128 visible ASCII characters' },
  tenantId: { pattern: /^[\x21-\x7E]{1,128}$/, rule: '1 to 128 visible ASCII characters' },
} as const satisfies Record<keyof typeof SIGNING_HEADERS, { pattern: RegExp; rule: string }>;

export const METHOD_GRAMMAR = { pattern: /^[A-Z]{1,16}$/, rule: 'an upper-case HTTP method such as GET or POST' } as const;

/** The path as sent in the request line: starts with `/`, visible ASCII only (percent-encoding as sent). */
export const REQUEST_PATH_GRAMMAR = { pattern: /^\/[\x21-\x7E]{0,8191}$/, rule: "'/' followed by up to 8191 visible ASCII characters, percent-encoded as sent" } as const;
