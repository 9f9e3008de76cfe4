import { SigningError } from './errors';
import { headerBagFromPairs, type HeaderBag } from './header-bag';

/** A request head as captured from a log, a proxy or `curl -v`. */
export interface CapturedRequest {
  /** From the request line, when there is one. */
  method?: string;
  /** From the request line: the path as sent, with any query. */
  path?: string;
  headers: HeaderBag;
}

/** What `curl -v` prints besides the request head: its own notes, the response, data markers. */
const CURL_NOISE = /^[<*{}]( |$)/;
const REQUEST_LINE = /^([A-Za-z]+) (\S+) HTTP\/[0-9.]+$/;

/**
 * Reads a captured request head: an optional request line
 * (`POST /payment/... HTTP/1.1`), then `Name: value` lines, up to the first
 * blank line after them, as in HTTP. It takes `curl -v` output as printed:
 * request lines carry `> `, and curl's own `*` lines and the response's `<`
 * lines are skipped. A header given twice is kept twice, so that verification
 * refuses it as the service does.
 */
export function parseCapturedRequest(lines: readonly string[]): CapturedRequest {
  const captured: CapturedRequest = { headers: {} };
  const pairs: Array<[string, string]> = [];
  let started = false;
  for (const [index, rawLine] of lines.entries()) {
    const unterminated = rawLine.replace(/\r$/, '');
    if (CURL_NOISE.test(unterminated)) continue;
    const line = unterminated.replace(/^>( |$)/, '');
    if (line.trim() === '') {
      if (started) break;
      continue;
    }
    const requestLine = REQUEST_LINE.exec(line);
    if (requestLine && !started) {
      started = true;
      captured.method = requestLine[1];
      captured.path = requestLine[2];
      continue;
    }
    started = true;
    const colon = line.indexOf(':');
    if (colon <= 0) throw new SigningError('INVALID_SIGNING_INPUT', `Header line ${index + 1} is not "Name: value": ${JSON.stringify(line)}.`);
    pairs.push([line.slice(0, colon).trim(), line.slice(colon + 1).trim()]);
  }
  captured.headers = headerBagFromPairs(pairs);
  return captured;
}
