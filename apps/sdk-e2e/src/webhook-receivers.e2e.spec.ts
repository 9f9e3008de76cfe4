// The receivers that docs/webhooks.md shows, run as merchants would run them,
// against real deliveries from the service: the Python one (standard library
// only) and the Fastify one (the SDK's verifyWebhook, raw body kept).
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { MERCHANT_A, freePort, startTestApp, type TestApp } from '@paysign/api/testing';
import { PaymentClient } from '@paysign/sdk';

const EXAMPLES = path.resolve(__dirname, '../../../examples/webhooks');
const ROOT = path.resolve(__dirname, '../../..');
const SECRET_OF_A = 'whsec_cm90YXRlZC10ZXN0LXdlYmhvb2stc2VjcmV0LW9mLWE=';


async function waitForPort(port: number, child: ChildProcessWithoutNullStreams, output: () => string): Promise<void> {
  for (const deadline = Date.now() + 20_000; ; await new Promise((r) => setTimeout(r, 100))) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => (socket.end(), resolve(true)));
      socket.on('error', () => resolve(false));
    });
    if (open) return;
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`the receiver did not listen:\n${output()}`);
  }
}

describe.each([
  ['Python, standard library only', 'receiver.py', (port: number) => ['python3', [path.join(EXAMPLES, 'receiver.py'), String(port)]] as const],
  ['Fastify with verifyWebhook', 'fastify-receiver.ts', (port: number) => [process.execPath, [path.join(ROOT, 'node_modules/tsx/dist/cli.mjs'), path.join(EXAMPLES, 'fastify-receiver.ts'), String(port)]] as const],
])('the %s receiver of docs/webhooks.md', (_name, file, command) => {
  let api: TestApp;
  let receiver: ChildProcessWithoutNullStreams;
  let output = '';
  let url: string;
  beforeAll(async () => {
    expect(fs.readFileSync(path.join(ROOT, 'docs/webhooks.md'), 'utf8')).toContain(fs.readFileSync(path.join(EXAMPLES, file), 'utf8').trim());
    api = await startTestApp({ WEBHOOK_POLL_INTERVAL_MS: '50' });
    const port = await freePort();
    const [program, args] = command(port);
    receiver = spawn(program, [...args], { cwd: EXAMPLES, env: { ...process.env, PAYSIGN_WEBHOOK_SECRET: SECRET_OF_A } });
    receiver.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    receiver.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    await waitForPort(port, receiver, () => output);
    url = `http://127.0.0.1:${port}/hooks`;
  }, 30_000);
  afterAll(async () => {
    receiver?.kill();
    await api?.close();
  });

  it('verifies a real delivery, acknowledges it, and prints it', async () => {
    const client = new PaymentClient({ baseUrl: api.baseUrl, ...MERCHANT_A });
    const reference = `receiver-${Date.now()}`;
    await client.payins.create({ amount: 250, currency: 'NGN', customerEmail: 'ada@example.com', reference, notifyUrl: url });
    await client.payins.simulate(reference, { outcome: 'successful' });
    for (const deadline = Date.now() + 10_000; !output.includes(reference) && Date.now() < deadline; ) await new Promise((r) => setTimeout(r, 25));
    expect(output).toMatch(new RegExp(`evt_[A-Za-z0-9_-]{22} payin.successful ${reference}`));
    const [event] = await client.payins.events(reference);
    for (const deadline = Date.now() + 5000; ; await new Promise((r) => setTimeout(r, 50))) {
      const [latest] = await client.payins.events(reference);
      if (latest?.status === 'delivered' || Date.now() > deadline) {
        expect(latest?.attempts.map((a) => a.statusCode)).toEqual([200]);
        break;
      }
    }
    expect(event?.id).toMatch(/^evt_/);
  }, 30_000);
});
