// The parts of a request line and head: path parameters, query strings and
// headers, each valid, odd or oddly encoded.
import fc from 'fast-check';
import type { Parameter } from './contract-operations';
import { ODD_CHARACTERS, oddText } from './odd-values';
import { parameterText, validValue } from './schema-values';

/** Percent-encodes the UTF-8 of `text` except unreserved characters; never throws, unlike encodeURIComponent on a lone surrogate. */
export function percentEncode(text: string, keep: RegExp = /[A-Za-z0-9._~-]/): string {
  return [...Buffer.from(text, 'utf8')].map((byte) => (keep.test(String.fromCharCode(byte)) && byte < 0x80 ? String.fromCharCode(byte) : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`)).join('');
}

/** The UTF-8 bytes of `text` as a latin1 string: how a request line carries it unencoded. */
export const rawUtf8 = (text: string) => Buffer.from(text, 'utf8').toString('latin1');

/** Encodings a client might apply to one component: proper, + for space, none at all, or broken. */
const encoded = (text: fc.Arbitrary<string>): fc.Arbitrary<string> =>
  fc.oneof(
    { weight: 6, arbitrary: text.map((t) => percentEncode(t)) },
    { weight: 1, arbitrary: text.map((t) => percentEncode(t, /[A-Za-z0-9._~ -]/).replace(/ /g, '+')) },
    { weight: 1, arbitrary: text.map((t) => percentEncode(t).toLowerCase()) },
    { weight: 1, arbitrary: text.map((t) => percentEncode(percentEncode(t))) },
    { weight: 1, arbitrary: text.map(rawUtf8) },
    { weight: 1, arbitrary: fc.tuple(text, fc.constantFrom('%', '%G0', '%zz', '%C0%AF', '%ED%A0%80', '%FF', '%00', '%2F', '%5C', '%2e%2e', '%u0041', '%%')).map(([t, odd]) => `${percentEncode(t)}${odd}`) },
  );

/**
 * A path parameter as sent: a real ID of an object the suite created (when
 * it knows some for this name), a value the schema allows, or garbage.
 */
export function pathValue(parameter: Parameter, realIds: readonly string[]): fc.Arbitrary<string> {
  const options: Array<{ weight: number; arbitrary: fc.Arbitrary<string> }> = [
    { weight: 2, arbitrary: validValue(parameter.schema).map((v) => percentEncode(String(v))) },
    { weight: 3, arbitrary: encoded(oddText) },
    { weight: 1, arbitrary: fc.constantFrom('', '.', '..', '%2e', 'a/b', 'a%2Fb', ';x', 'a;b=c', '%20', '*', 'x'.repeat(5000), 'x'.repeat(20_000)) },
  ];
  if (realIds.length > 0) {
    const real = fc.constantFrom(...realIds);
    options.push({ weight: 5, arbitrary: real.map((id) => percentEncode(id)) });
    options.push({ weight: 1, arbitrary: fc.tuple(real, fc.constantFrom('/', '%2F', '.', '%00', ' ', '%20', '/..', '?', '#', 'X')).map(([id, tail]) => `${percentEncode(id)}${tail}`) });
    options.push({ weight: 1, arbitrary: real.map((id) => percentEncode(id.toUpperCase() === id ? id.toLowerCase() : id.toUpperCase())) });
  }
  return fc.oneof(...options);
}

/** A query string (with its `?`, or empty) for an operation's parameters: valid (real values the suite got, such as a cursor), odd, repeated, unknown, and oddly encoded. */
export function queryString(parameters: readonly Parameter[], realValues: Readonly<Record<string, readonly string[]>> = {}): fc.Arbitrary<string> {
  const entryOf = (parameter: Parameter): fc.Arbitrary<readonly [string, string] | undefined> => {
    const real = realValues[parameter.name] ?? [];
    const valid = [...parameter.examples.map(String), ...real];
    return fc.oneof(
      { weight: 2, arbitrary: fc.constant(undefined) },
      { weight: 2, arbitrary: (valid.length > 0 ? fc.oneof(fc.constantFrom(...valid), validValue(parameter.schema).map(String)) : validValue(parameter.schema).map(String)).map((v) => [parameter.name, percentEncode(v)] as const) },
      { weight: 3, arbitrary: encoded(parameterText(parameter.name, parameter.schema)).map((v) => [parameter.name, v] as const) },
    );
  };
  const known = fc.tuple(...parameters.map(entryOf)).map((entries) => entries.filter((e): e is readonly [string, string] => e !== undefined));
  const unknown = fc.array(fc.tuple(encoded(fc.oneof(fc.constantFrom('__proto__', 'constructor', 'hasOwnProperty', 'a[b]', 'a[]', 'limit[]', ''), oddText)), encoded(oddText)), { maxLength: 2 });
  const structured = fc.tuple(known, fc.oneof({ weight: 5, arbitrary: fc.constant([]) }, { weight: 1, arbitrary: unknown }), fc.nat(), fc.boolean()).map(([entries, extra, pick, repeat]) => {
    const all: Array<readonly [string, string]> = [...entries, ...extra];
    if (repeat && all.length > 0) all.push(all[pick % all.length] as readonly [string, string]);
    return all.length === 0 ? '' : `?${all.map(([k, v]) => `${k}=${v}`).join('&')}`;
  });
  return fc.oneof(
    { weight: 8, arbitrary: structured },
    { weight: 1, arbitrary: fc.constantFrom('?', '??', '?&&', '?=', '?=x', '?a', '?a=1;b=2', '?a=%', '?limit=1&limit=2', '?__proto__[x]=1', '?#frag', `?${'a=1&'.repeat(1000)}`, `?q=${'x'.repeat(9000)}`) },
  );
}

/** Header names that carry meaning somewhere, and tokens no one uses. */
const HEADER_NAMES = [
  'Accept',
  'Accept-Encoding',
  'Accept-Language',
  'Authorization',
  'Cache-Control',
  'Content-Encoding',
  'Content-Language',
  'Cookie',
  'Expect',
  'Forwarded',
  'If-Modified-Since',
  'If-None-Match',
  'Origin',
  'Range',
  'Referer',
  'Sec-Fetch-Site',
  'TE',
  'Upgrade',
  'User-Agent',
  'Via',
  'X-Forwarded-For',
  'X-Forwarded-Host',
  'X-Forwarded-Proto',
  'X-HTTP-Method-Override',
  'X-Request-Id',
];

/** Header values: plausible, odd ASCII, Latin-1 and UTF-8 bytes, controls, empty, and long. */
export const headerValue: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.string({ unit: 'grapheme-ascii', maxLength: 40 }) },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      'gzip, br',
      'identity',
      '*/*',
      'text/html',
      'application/json;q=0',
      'bytes=0-1',
      'bytes=-1, 5-',
      'no-cache',
      'cross-site',
      'same-origin',
      'none',
      '100-continue',
      'h2c',
      'websocket',
      'trailers',
      'null',
      'for=unknown',
      '127.0.0.1, ::1, garbage',
      'Basic Zm9vOmJhcg==',
      'Bearer x',
      'DELETE',
      'W/"x"',
      'Thu, 01 Jan 1970 00:00:00 GMT',
      '0000-01-01T00:00:00Z',
      'a=b; paysign_checkout_csrf=x; paysign_checkout_csrf=y',
      ' padded ',
      '\ttabbed',
      '',
    ),
  },
  { weight: 1, arbitrary: fc.uint8Array({ minLength: 1, maxLength: 16 }).map((bytes) => Buffer.from(bytes.map((b) => 0x80 | b)).toString('latin1')) },
  { weight: 1, arbitrary: oddText.map((t) => rawUtf8(t.slice(0, 64))) },
  { weight: 1, arbitrary: fc.constantFrom(...ODD_CHARACTERS).map((c) => rawUtf8(`a${c}b`)) },
  { weight: 1, arbitrary: fc.constantFrom(4_000, 8_000, 20_000).map((n) => 'v'.repeat(n)) },
);

/** Extra headers: known names with odd values, odd names, and now and then a head with very many of them. */
export const extraHeaders: fc.Arbitrary<Array<readonly [string, string]>> = fc.oneof(
  { weight: 6, arbitrary: fc.array(fc.tuple(fc.oneof(fc.constantFrom(...HEADER_NAMES), fc.stringMatching(/^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,24}$/)), headerValue), { maxLength: 3 }) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom('X Bad', 'X:Bad', 'Ü', 'X-\u0000', '(x)', 'X\t'), headerValue).map(([name, value]) => [[rawUtf8(name), value] as const]) },
  { weight: 1, arbitrary: fc.constantFrom(100, 500, 3000).map((n) => Array.from({ length: n }, (_, i) => [`X-H${i}`, 'v'] as const)) },
);
