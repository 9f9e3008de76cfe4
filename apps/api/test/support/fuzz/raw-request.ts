import * as net from 'node:net';

/** One request exactly as it goes on the wire: any method, target, header bytes and body, which fetch and node:http would refuse or rewrite. */
export interface RawRequest {
  method: string;
  /** The request target as sent, byte for byte (latin1), query included. */
  target: string;
  /** Header lines in order, duplicates allowed; names and values are sent as latin1 bytes. */
  headers: ReadonlyArray<readonly [string, string]>;
  body?: Uint8Array;
}

/** How long an answer may still take once `giveUp` holds. */
const GRACE_MS = 300;

export interface RawResponse {
  status: number;
  /** Header names lower-cased; a repeated header keeps every value. */
  headers: Map<string, string[]>;
  body: Buffer;
}

/**
 * Sends one request on a connection of its own and reads the first final
 * answer (a 100 Continue is skipped). Whatever the request lacks is not
 * added, except the body's Content-Length when `addContentLength` is set.
 * Resolves undefined when the service closes without answering within
 * `timeoutMs`, which the caller treats as a hang.
 */
export function sendRaw(
  baseUrl: string,
  request: RawRequest,
  options: {
    timeoutMs: number;
    /** The whole head as sent, in place of the one built from method, target and headers: for malformed HTTP. */
    head?: string;
    /** Polled while waiting: once it holds, an answer has GRACE_MS more to arrive (the service logged a failure and may never answer). */
    giveUp?: () => boolean;
  },
): Promise<RawResponse | undefined> {
  const { hostname, port } = new URL(baseUrl);
  const head = options.head ?? `${request.method} ${request.target} HTTP/1.1\r\n${request.headers.map(([name, value]) => `${name}: ${value}\r\n`).join('')}\r\n`;
  const bytes = Buffer.concat([Buffer.from(head, 'latin1'), request.body ?? Buffer.alloc(0)]);
  return new Promise((resolve) => {
    const socket = net.connect(Number(port), hostname);
    const received: Buffer[] = [];
    let settled = false;
    const finish = (response: RawResponse | undefined) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearInterval(poll);
      socket.destroy();
      resolve(response);
    };
    const timer = setTimeout(() => finish(undefined), options.timeoutMs);
    let givingUpAt: number | undefined;
    const poll = setInterval(() => {
      if (settled) return clearInterval(poll);
      givingUpAt ??= options.giveUp?.() ? Date.now() : undefined;
      if (givingUpAt !== undefined && Date.now() - givingUpAt >= GRACE_MS) finish(undefined);
    }, 25);
    const tryParse = (closed: boolean) => {
      const parsed = parseResponse(Buffer.concat(received), { headRequest: request.method.toUpperCase() === 'HEAD', closed });
      if (parsed) finish(parsed);
      else if (closed) finish(undefined);
    };
    socket.on('data', (chunk: Buffer) => {
      received.push(chunk);
      tryParse(false);
    });
    socket.on('end', () => tryParse(true));
    socket.on('close', () => tryParse(true));
    socket.on('error', () => undefined);
    // The write side is closed once all is sent: a head the parser still waits on ends there, and is answered, instead of hanging until a timeout.
    socket.on('connect', () => socket.end(bytes));
  });
}

/** The first final response in `data`, once it is complete; undefined while more is needed. */
export function parseResponse(data: Buffer, context: { headRequest: boolean; closed: boolean }): RawResponse | undefined {
  let offset = 0;
  for (;;) {
    const headEnd = data.indexOf('\r\n\r\n', offset);
    if (headEnd === -1) return undefined;
    const lines = data.subarray(offset, headEnd).toString('latin1').split('\r\n');
    const status = Number(/^HTTP\/\d\.\d (\d{3})/.exec(lines[0] ?? '')?.[1]);
    if (!Number.isInteger(status)) throw new Error(`not an HTTP response: ${JSON.stringify(lines[0])}`);
    const headers = new Map<string, string[]>();
    for (const line of lines.slice(1)) {
      const colon = line.indexOf(':');
      const name = line.slice(0, colon).trim().toLowerCase();
      headers.set(name, [...(headers.get(name) ?? []), line.slice(colon + 1).trim()]);
    }
    const bodyStart = headEnd + 4;
    if (status >= 100 && status < 200) {
      offset = bodyStart;
      continue;
    }
    if (context.headRequest || status === 204 || status === 304) return { status, headers, body: Buffer.alloc(0) };
    if (headers.get('transfer-encoding')?.some((v) => /chunked/i.test(v))) {
      const body = dechunk(data.subarray(bodyStart));
      return body && { status, headers, body };
    }
    const length = headers.get('content-length')?.[0];
    if (length !== undefined) {
      const end = bodyStart + Number(length);
      return data.length >= end ? { status, headers, body: data.subarray(bodyStart, end) } : undefined;
    }
    return context.closed ? { status, headers, body: data.subarray(bodyStart) } : undefined;
  }
}

function dechunk(data: Buffer): Buffer | undefined {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = data.indexOf('\r\n', at);
    if (lineEnd === -1) return undefined;
    const size = parseInt(data.subarray(at, lineEnd).toString('latin1'), 16);
    if (size === 0) return Buffer.concat(parts);
    if (data.length < lineEnd + 2 + size + 2) return undefined;
    parts.push(data.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
}
