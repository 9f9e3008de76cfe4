import { PaymentError } from './errors';

/** The reports the service serves, each at /payment/api/reports/{name}.csv (docs/reports.md). */
export const REPORT_NAMES = ['payins', 'payouts', 'refunds', 'balance-entries', 'settlements'] as const;
export type ReportName = (typeof REPORT_NAMES)[number];

/** What `exportReport` takes. */
export interface ExportReportInput {
  report: ReportName | (string & {});
  /** `from` and `to` (RFC 3339, `to` exclusive), and the report's filters, such as `status`. */
  query: Readonly<Record<string, string>>;
  /** Receives the CSV: only complete records, the header row once; resolves when it can take more. */
  write: (chunk: Uint8Array) => Promise<void>;
  /** Tries in a row that bring no new record before giving up. Default: 5. */
  retries?: number;
  /** Base of the backoff between tries, in milliseconds, doubled at each, at most 8 s. Default: 500. */
  retryDelayMs?: number;
  /** Told of each try that failed and is resumed: a line for a person. Default: nothing. */
  onResume?: (message: string) => void;
}

export interface ExportReportResult {
  /** Records written, the header row aside. */
  rows: number;
  bytes: number;
  /** Requests made: 1 when nothing was cut. */
  attempts: number;
}

/** The export gave up: `rows` complete records were written, the last with `cursor`, and nothing after them. */
export class ReportExportError extends Error {
  override readonly name = 'ReportExportError';
  constructor(
    message: string,
    readonly rows: number,
    readonly cursor: string | undefined,
    override readonly cause: unknown,
  ) {
    super(message);
  }
}

const MAX_DELAY_MS = 8_000;
const CR = 0x0d;
const LF = 0x0a;
const QUOTE = 0x22;
const COMMA = 0x2c;

/** What the export needs of the client: a signed GET of a path, retried as every read is, answering the response with its body unread. */
export type SignedGet = (path: string) => Promise<Response>;

/**
 * Downloads a report, resuming a transfer that is cut: after a network error
 * or a body that ends inside a record, it asks again with `after` set to the
 * cursor cell of the last complete record written, and skips the header row
 * that answer starts with. So `write` receives every record once, in order,
 * and the header once, whatever was cut; records are split on CRLF outside
 * quotes (RFC 4180), bytes as they came. An answer refused (4xx) is thrown
 * as it is; after `retries` tries in a row without a new record, a
 * ReportExportError says how far it got.
 */
export async function exportReport(get: SignedGet, input: ExportReportInput, sleep: (ms: number) => Promise<void>): Promise<ExportReportResult> {
  const retries = input.retries ?? 5;
  const baseDelay = input.retryDelayMs ?? 500;
  let header: Uint8Array | undefined;
  let cursor: string | undefined;
  let rows = 0;
  let bytes = 0;
  let attempts = 0;
  let failures = 0;
  for (;;) {
    attempts++;
    const rowsBefore = rows;
    const query = new URLSearchParams({ ...input.query, ...(cursor === undefined ? {} : { after: cursor }) });
    let pending: Uint8Array = new Uint8Array(0);
    let headerSeen = false;
    try {
      const response = await get(`/payment/api/reports/${encodeURIComponent(input.report)}.csv?${query.toString()}`);
      if (!response.body) throw new Error('the answer has no body');
      const reader = response.body.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        pending = concat(pending, value);
        const { records, rest } = completeRecords(pending);
        pending = rest;
        const out: Uint8Array[] = [];
        for (const record of records) {
          if (!headerSeen) {
            headerSeen = true;
            if (header === undefined) header = record;
            else if (!sameBytes(header, record)) throw new ReportExportError('the report answered another header row when resumed; the service changed its columns: download it again', rows, cursor, undefined);
            else continue;
          } else {
            rows++;
            cursor = cursorOf(record);
          }
          out.push(record);
        }
        if (out.length > 0) {
          const chunk = concat(...out);
          bytes += chunk.length;
          await input.write(chunk);
        }
      }
      if (pending.length === 0 && headerSeen) return { rows, bytes, attempts };
      throw new Error(pending.length > 0 ? 'the transfer ended inside a record' : 'the answer was empty');
    } catch (error) {
      if (error instanceof ReportExportError) throw error;
      if (error instanceof PaymentError && !error.retryable) throw error;
      failures = rows > rowsBefore ? 1 : failures + 1;
      const why = (error as Error).message + ((error as Error).cause instanceof Error ? ` (${((error as Error).cause as Error).message})` : '');
      if (failures > retries) {
        throw new ReportExportError(`gave up after ${retries} tries in a row without a new record: ${why}. ${rows} complete rows were written${cursor ? `; the last row's cursor is ${cursor}` : ''}.`, rows, cursor, error);
      }
      input.onResume?.(`transfer cut after ${rows} rows (${why}); asking again after the last complete row, try ${failures} of ${retries}`);
      await sleep(Math.min(MAX_DELAY_MS, baseDelay * 2 ** (failures - 1)));
    }
  }
}

/** The complete records at the start of `bytes`, each with its CRLF, and what follows them. */
export function completeRecords(bytes: Uint8Array): { records: Uint8Array[]; rest: Uint8Array } {
  const records: Uint8Array[] = [];
  let quoted = false;
  let start = 0;
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i];
    // A doubled quote inside a quoted field toggles twice: no special case.
    if (byte === QUOTE) quoted = !quoted;
    else if (!quoted && byte === CR && bytes[i + 1] === LF) {
      records.push(bytes.subarray(start, i + 2));
      start = i + 2;
      i++;
    }
  }
  return { records, rest: bytes.slice(start) };
}

/** The last field of a record: the cursor column every report ends with, never quoted. */
function cursorOf(record: Uint8Array): string {
  const end = record.length - 2;
  const comma = record.lastIndexOf(COMMA, end - 1);
  return new TextDecoder().decode(record.subarray(comma + 1, end));
}

function concat(...parts: Uint8Array[]): Uint8Array {
  const joined = new Uint8Array(parts.reduce((n, part) => n + part.length, 0));
  let at = 0;
  for (const part of parts) {
    joined.set(part, at);
    at += part.length;
  }
  return joined;
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, i) => byte === b[i]);
}
