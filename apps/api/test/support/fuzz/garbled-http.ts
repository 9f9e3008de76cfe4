// Requests that are not quite HTTP/1.1: odd request lines, header lines
// without colons or folded, conflicting framing, broken chunks. Node's parser
// refuses most of them; the answer must still be the documented error body.
import fc from 'fast-check';
import { ODD_CHARACTERS } from './odd-values';
import { headerValue, rawUtf8 } from './request-parts';

export interface GarbledRequest {
  head: string;
  body: string;
}

const requestLine = (targets: readonly string[]) =>
  fc
    .tuple(
      fc.oneof({ weight: 6, arbitrary: fc.constantFrom('GET', 'POST', 'HEAD', 'PUT', 'OPTIONS') }, { weight: 1, arbitrary: fc.constantFrom('get', 'G ET', 'GET\t', 'PRI', 'M-SEARCH', 'X'.repeat(40), '') }),
      fc.oneof(
        { weight: 6, arbitrary: fc.constantFrom(...targets) },
        { weight: 2, arbitrary: fc.constantFrom(...targets).map((t) => `http://127.0.0.1${t}`) },
        { weight: 2, arbitrary: fc.tuple(fc.constantFrom(...targets), fc.constantFrom(...ODD_CHARACTERS)).map(([t, c]) => `${t}${rawUtf8(c)}`) },
        { weight: 1, arbitrary: fc.constantFrom('*', '', '/payment/../payment/health', '//payment//health', '/payment/%2e%2e/payment/health', '/payment/health#x', 'payment/health', '/\\payment\\health', `/${'a'.repeat(9000)}`, `/${'a'.repeat(70_000)}`) },
      ),
      fc.oneof({ weight: 6, arbitrary: fc.constant('HTTP/1.1') }, { weight: 1, arbitrary: fc.constantFrom('HTTP/1.0', 'HTTP/0.9', 'HTTP/2.0', 'HTTP/1.1x', 'http/1.1', 'HTTP/1', '') }),
    )
    .map(([method, target, version]) => `${method} ${target} ${version}`);

const headerLine: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.tuple(fc.constantFrom('Accept', 'X-Request-Id', 'Content-Type', 'X-API-KEY', 'Cookie', 'User-Agent'), headerValue).map(([n, v]) => `${n}: ${v}`) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      'NoColon',
      ' Leading-Space: x',
      'X-Folded: a\r\n continued',
      'X-Empty:',
      ': no-name',
      'X-Nul: a\u0000b',
      'X-CR: a\rb',
      'Content-Length: 2\r\nContent-Length: 3',
      'Content-Length: -1',
      'Content-Length: 1e3',
      'Content-Length: 99999999999999999999',
      'Content-Length: 0x10',
      'Transfer-Encoding: chunked\r\nContent-Length: 3',
      'Transfer-Encoding: chunked, gzip',
      'Transfer-Encoding: gzip',
      'Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked',
      'Connection: upgrade\r\nUpgrade: websocket',
      'Upgrade: h2c\r\nConnection: Upgrade, HTTP2-Settings\r\nHTTP2-Settings: AAMAAABkAARAAAAAAAIAAAAA',
      'Expect: 100-continue',
      'Expect: something-else',
    ),
  },
);

const body = fc.oneof(
  { weight: 4, arbitrary: fc.constant('') },
  { weight: 2, arbitrary: fc.constantFrom('{}', '{"a":1}', 'x', 'zz\r\n', '3\r\nabc\r\n0\r\n\r\n', '5\r\nab\r\n0\r\n\r\n', '-1\r\n\r\n', `${'f'.repeat(20)}\r\n`) },
);

/** Malformed requests to `targets` (paths the service has), each as the exact text sent. */
export function garbledRequest(targets: readonly string[], host: string): fc.Arbitrary<GarbledRequest> {
  return fc
    .tuple(requestLine(targets), fc.oneof({ weight: 6, arbitrary: fc.constant(`Host: ${host}`) }, { weight: 1, arbitrary: fc.constantFrom('', 'Host:', `Host: ${host}\r\nHost: other`) }), fc.array(headerLine, { maxLength: 4 }), fc.constantFrom('\r\n', '\n'), body)
    .map(([line, hostLine, headers, eol, b]) => ({ head: `${[line, hostLine, ...headers].filter((l) => l !== '').join(eol)}${eol}${eol}`, body: b }));
}
