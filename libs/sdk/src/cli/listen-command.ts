import { isWebhookSecret, WEBHOOK_SECRET_RULE } from '@paysign/signing';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebhookVerificationError } from '../errors';
import { DEFAULT_WEBHOOK_TOLERANCE_SECONDS, verifyWebhook } from '../webhooks';
import { EXIT_OK, UsageError, type CliIo } from './cli-io';
import { optionalFlag, parse } from './flags';

/**
 * `paysign listen`: a local webhook receiver, like `stripe listen`. Verifies
 * each delivery with the SDK's verifyWebhook and prints one line for it; can
 * be told to fail, for watching the service retry.
 */
export async function listenCommand(args: string[], io: CliIo): Promise<number> {
  const { values } = parse(args, {
    port: { type: 'string' },
    host: { type: 'string' },
    secret: { type: 'string', multiple: true },
    'fail-first': { type: 'string' },
    status: { type: 'string' },
    tolerance: { type: 'string' },
    'print-body': { type: 'boolean' },
  });
  const secrets = values.secret ?? (io.env.PAYSIGN_WEBHOOK_SECRET ? io.env.PAYSIGN_WEBHOOK_SECRET.split(/[\s,]+/).filter(Boolean) : []);
  if (secrets.length === 0) throw new UsageError('--secret is required (or set PAYSIGN_WEBHOOK_SECRET): the whsec_ secret of your merchant; repeat it to accept several.');
  for (const secret of secrets) if (!isWebhookSecret(secret)) throw new UsageError(`--secret must be ${WEBHOOK_SECRET_RULE}, got "${secret.slice(0, 10)}…".`);
  const port = wholeNumber('--port', optionalFlag(values.port, '4242') as string, 0, 65535);
  const host = optionalFlag(values.host, '127.0.0.1') as string;
  const failFirst = wholeNumber('--fail-first', optionalFlag(values['fail-first'], '0') as string, 0, 1000);
  const status = values.status === undefined ? undefined : wholeNumber('--status', String(values.status), 200, 599);
  const toleranceSeconds = wholeNumber('--tolerance', optionalFlag(values.tolerance, String(DEFAULT_WEBHOOK_TOLERANCE_SECONDS)) as string, 1, 86_400);
  const seen = new Map<string, number>();

  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks);
      const id = String(request.headers['webhook-id'] ?? '-');
      const nth = (seen.get(id) ?? 0) + 1;
      seen.set(id, nth);
      let answer: number;
      try {
        const event = verifyWebhook(body, request.headers, secrets, { toleranceSeconds, now: () => io.now() * 1000 });
        answer = status ?? (nth <= failFirst ? 500 : 200);
        const data = (event as { data?: { reference?: string; status?: string } }).data;
        io.stdout(`${id} ${event.type} ${data?.reference ?? '-'} ${data?.status ?? '-'} attempt ${nth} -> ${answer}`);
        if (values['print-body']) io.stdout(body.toString('utf8'));
      } catch (error) {
        answer = 400;
        const reason = error instanceof WebhookVerificationError ? `${error.code}: ${error.message}` : (error as Error).message;
        io.stdout(`${id} refused: ${reason} -> 400`);
      }
      response.writeHead(answer, { 'content-type': 'text/plain' }).end(answer < 300 ? 'ok' : 'paysign listen answered this on purpose');
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error) => reject(new Error(`cannot listen on ${host}:${port}: ${error.message}`)));
    server.listen(port, host, resolve);
  });
  const address = server.address() as AddressInfo;
  io.stderr(`Listening for webhooks on http://${host}:${address.port}/ (use it as notifyUrl). Ctrl-C stops.`);
  await (io.untilStopped ?? new Promise<void>(() => undefined));
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return EXIT_OK;
}

function wholeNumber(flag: string, text: string, min: number, max: number): number {
  if (!/^[0-9]+$/.test(text) || Number(text) < min || Number(text) > max) throw new UsageError(`${flag} must be a whole number from ${min} to ${max}, got "${text}".`);
  return Number(text);
}
