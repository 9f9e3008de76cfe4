import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface ReceivedWebhook {
  at: number;
  /** Which connection carried it (numbered as they were opened), and how many requests that connection had carried with it. */
  connection: number;
  nthOnConnection: number;
  headers: IncomingHttpHeaders;
  /** The body exactly as it arrived. */
  body: string;
}

/** What the receiver does with one delivery: answer with a status (and headers), never answer, or close the connection without an answer. */
export type ReceiverAnswer = { status: number; headers?: Record<string, string>; body?: string } | 'hang' | 'drop';

/**
 * A merchant's webhook endpoint on loopback: records every delivery as it
 * arrived, and answers as the test scripts it (by default 200).
 */
export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  private readonly server: Server;
  private script: (delivery: ReceivedWebhook, nthOfItsId: number) => ReceiverAnswer | Promise<ReceiverAnswer> = () => ({ status: 200, body: 'ok' });

  private connections = 0;
  private readonly connectionOf = new WeakMap<Socket, { id: number; requests: number }>();

  private constructor() {
    this.server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      const connection = this.connectionOf.get(request.socket) ?? { id: 0, requests: 0 };
      connection.requests += 1;
      const nthOnConnection = connection.requests;
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const delivery = { at: Date.now(), connection: connection.id, nthOnConnection, headers: request.headers, body: Buffer.concat(chunks).toString('utf8') };
        this.received.push(delivery);
        const nth = this.received.filter((d) => d.headers['webhook-id'] === delivery.headers['webhook-id']).length;
        void Promise.resolve(this.script(delivery, nth)).then((answer) => {
          if (answer === 'hang') return;
          if (answer === 'drop') return void request.socket.destroy();
          response.writeHead(answer.status, answer.headers).end(answer.body ?? '');
        });
      });
    });
    this.server.on('connection', (socket: Socket) => this.connectionOf.set(socket, { id: ++this.connections, requests: 0 }));
  }

  static async start(): Promise<WebhookReceiver> {
    const receiver = new WebhookReceiver();
    await new Promise<void>((resolve) => receiver.server.listen(0, '127.0.0.1', resolve));
    return receiver;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks`;
  }

  /** Scripts the answers; a promise answers when it settles, so that a test can hold a delivery in flight. */
  answer(script: (delivery: ReceivedWebhook, nthOfItsId: number) => ReceiverAnswer | Promise<ReceiverAnswer>): void {
    this.script = script;
  }

  deliveriesOf(reference: string): ReceivedWebhook[] {
    return this.received.filter((d) => (JSON.parse(d.body) as { data: { reference: string } }).data.reference === reference);
  }

  /** Waits until `count` deliveries of the payin arrived. */
  async waitFor(reference: string, count: number, timeoutMs = 10_000): Promise<ReceivedWebhook[]> {
    for (const deadline = Date.now() + timeoutMs; Date.now() < deadline; await new Promise((r) => setTimeout(r, 25))) {
      const got = this.deliveriesOf(reference);
      if (got.length >= count) return got;
    }
    throw new Error(`${this.deliveriesOf(reference).length} of ${count} deliveries of ${reference} arrived within ${timeoutMs} ms`);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
