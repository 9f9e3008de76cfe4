import * as net from 'node:net';

export interface RawExchange {
  /** Everything the server sent, as text. */
  response: string;
  /** Whether the server closed the connection. */
  closed: boolean;
  /** Milliseconds from the first byte written to the close, or to the give-up. */
  elapsedMs: number;
}

export interface RawExchangeOptions {
  /** Written once the server answers `100 Continue`, as a client that sent `Expect: 100-continue` sends its body; never, if it does not. */
  afterContinue?: string | Buffer;
}

/**
 * Writes bytes to the service over a plain socket, exactly as given, and
 * collects what it answers until it closes the connection or `waitMs` pass.
 * For what fetch cannot send: a body that stalls, a head without its body,
 * malformed HTTP.
 */
export function rawExchange(baseUrl: string, chunks: ReadonlyArray<string | Buffer>, waitMs: number, options: RawExchangeOptions = {}): Promise<RawExchange> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve) => {
    const socket = net.connect(Number(port), hostname);
    const received: Buffer[] = [];
    const started = Date.now();
    let settled = false;
    const finish = (closed: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ response: Buffer.concat(received).toString('utf8'), closed, elapsedMs: Date.now() - started });
    };
    const timer = setTimeout(() => finish(false), waitMs);
    let continued = false;
    socket.on('data', (chunk: Buffer) => {
      received.push(chunk);
      if (options.afterContinue === undefined || continued || !/^HTTP\/1\.1 100 Continue\r\n\r\n/.test(Buffer.concat(received).toString('latin1'))) return;
      continued = true;
      socket.write(options.afterContinue);
    });
    socket.on('close', () => finish(true));
    socket.on('error', () => undefined);
    socket.on('connect', () => {
      for (const chunk of chunks) socket.write(chunk);
    });
  });
}

/** The JSON body of a raw HTTP/1.1 response. */
export function rawJsonBody(response: string): Record<string, unknown> {
  const body = response.slice(response.indexOf('\r\n\r\n') + 4);
  return JSON.parse(body) as Record<string, unknown>;
}
