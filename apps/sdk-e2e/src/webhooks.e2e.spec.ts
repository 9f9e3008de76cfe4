// Webhooks as a merchant receives them: `paysign listen` (the built CLI, run
// as a merchant runs it) verifies real deliveries from the service with the
// SDK's verifyWebhook, and can fail on purpose to show the retries; the SDK
// lists the attempts and redelivers.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import * as path from 'node:path';
import { MERCHANT_A, freePort, startTestApp, type TestApp } from '@paysign/api/testing';
import { PaymentClient } from '@paysign/sdk';

const PAYSIGN = path.resolve(__dirname, '../../../libs/sdk/bin/paysign.js');
const SECRETS_OF_A = ['whsec_dGVzdC13ZWJob29rLXNlY3JldC1vZi1tZXJjaGFudC1h', 'whsec_cm90YXRlZC10ZXN0LXdlYmhvb2stc2VjcmV0LW9mLWE='];


/** `paysign listen` in a process of its own, with every line it printed. */
async function listen(args: string[]): Promise<{ child: ChildProcessWithoutNullStreams; lines: string[]; url: string; stop: () => Promise<number | null> }> {
  const port = await freePort();
  const child = spawn(process.execPath, [PAYSIGN, 'listen', '--port', String(port), ...args]);
  const lines: string[] = [];
  child.stdout.on('data', (chunk: Buffer) => lines.push(...chunk.toString().split('\n').filter(Boolean)));
  await new Promise<void>((resolve, reject) => {
    child.stderr.on('data', (chunk: Buffer) => (chunk.toString().includes('Listening for webhooks') ? resolve() : undefined));
    child.once('exit', (code) => reject(new Error(`paysign listen exited with ${code}`)));
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, lines, url: `http://127.0.0.1:${port}/`, stop: () => (child.kill('SIGINT'), exited) };
}

async function until(check: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  for (const deadline = Date.now() + timeoutMs; !check(); await new Promise((r) => setTimeout(r, 25))) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
  }
}

describe('webhooks as a merchant receives them', () => {
  let api: TestApp;
  let client: PaymentClient;
  beforeAll(async () => {
    api = await startTestApp({ WEBHOOK_RETRY_SCHEDULE: '0,1,1', WEBHOOK_POLL_INTERVAL_MS: '50' });
    client = new PaymentClient({ baseUrl: api.baseUrl, ...MERCHANT_A });
  });
  afterAll(() => api.close());

  it('paysign listen verifies and prints each delivery, and --fail-first shows the retries with one webhook-id', async () => {
    const listener = await listen(['--secret', SECRETS_OF_A[1] as string, '--fail-first', '2']);
    try {
      const reference = `listen-${Date.now()}`;
      await client.payins.create({ amount: 1500.5, currency: 'NGN', customerEmail: 'ada@example.com', reference, notifyUrl: listener.url });
      await client.payins.simulate(reference, { outcome: 'successful' });
      await until(() => listener.lines.length >= 3, 'three deliveries');
      const [id] = (listener.lines[0] as string).split(' ');
      expect(listener.lines).toEqual([
        `${id} payin.successful ${reference} SUCCESSFUL attempt 1 -> 500`,
        `${id} payin.successful ${reference} SUCCESSFUL attempt 2 -> 500`,
        `${id} payin.successful ${reference} SUCCESSFUL attempt 3 -> 200`,
      ]);
      let [event] = await client.payins.events(reference);
      for (const deadline = Date.now() + 5000; event?.status !== 'delivered' && Date.now() < deadline; await new Promise((r) => setTimeout(r, 50))) {
        [event] = await client.payins.events(reference);
      }
      expect(event).toMatchObject({ id, status: 'delivered' });
      expect(event?.attempts.map((a) => a.statusCode)).toEqual([500, 500, 200]);

      const again = await client.events.redeliver(id as string);
      expect(again).toMatchObject({ id, status: 'pending' });
      await until(() => listener.lines.length >= 4, 'the redelivery');
      expect(listener.lines[3]).toBe(`${id} payin.successful ${reference} SUCCESSFUL attempt 4 -> 200`);
    } finally {
      expect(await listener.stop()).toBe(0);
    }
  }, 30_000);

  it("paysign listen verifies a refund's event, and refunds.events lists its delivery", async () => {
    const listener = await listen(['--secret', SECRETS_OF_A[0] as string]);
    try {
      const payinReference = `listen-refund-${Date.now()}`;
      await client.payins.create({ amount: 2000, currency: 'NGN', customerEmail: 'ada@example.com', reference: payinReference });
      await client.payins.simulate(payinReference, { outcome: 'successful' });
      const reference = `${payinReference}-r1`;
      // Only the refund's events go to the listener: the payin above has no notifyUrl.
      await client.refunds.create({ reference, payinReference, amount: 500, notifyUrl: listener.url });
      await until(() => listener.lines.some((line) => line.includes(' refund.pending ')), 'the refund.pending delivery');
      const line = listener.lines.find((candidate) => candidate.includes(' refund.pending ')) as string;
      const [id] = line.split(' ');
      expect(line).toBe(`${id} refund.pending ${reference} PENDING attempt 1 -> 200`);
      let events = await client.refunds.events(reference);
      for (const deadline = Date.now() + 5000; events[0]?.status !== 'delivered' && Date.now() < deadline; await new Promise((r) => setTimeout(r, 50))) {
        events = await client.refunds.events(reference);
      }
      expect(events[0]).toMatchObject({ id, status: 'delivered' });
    } finally {
      expect(await listener.stop()).toBe(0);
    }
  }, 30_000);

  it('paysign listen refuses a delivery signed with secrets it was not given, with 400', async () => {
    const listener = await listen(['--secret', 'whsec_dGVzdC13ZWJob29rLXNlY3JldC1vZi1tZXJjaGFudC1i', '--fail-first', '0']);
    try {
      const reference = `listen-wrong-${Date.now()}`;
      await client.payins.create({ amount: 10, currency: 'NGN', customerEmail: 'ada@example.com', reference, notifyUrl: listener.url });
      await client.payins.simulate(reference, { outcome: 'cancelled' });
      await until(() => listener.lines.length >= 1, 'a delivery');
      expect(listener.lines[0]).toMatch(/^evt_[A-Za-z0-9_-]{22} refused: WEBHOOK_SIGNATURE_MISMATCH: .* -> 400$/);
      // The service records the attempt once the answer is in, a moment after the listener printed it.
      let attempts: Array<{ statusCode: number | null }> = [];
      for (const deadline = Date.now() + 5000; attempts.length === 0 && Date.now() < deadline; await new Promise((r) => setTimeout(r, 50))) {
        attempts = (await client.payins.events(reference))[0]?.attempts ?? [];
      }
      expect(attempts[0]?.statusCode).toBe(400);
    } finally {
      await listener.stop();
    }
  }, 30_000);
});
