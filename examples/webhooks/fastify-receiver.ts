// A webhook receiver on Fastify, with the SDK's verifyWebhook. Run:
//   PAYSIGN_WEBHOOK_SECRET=whsec_... npx tsx fastify-receiver.ts 4242
import Fastify from 'fastify';
import { verifyWebhook, WebhookVerificationError } from '@paysign/sdk';

const secrets = (process.env.PAYSIGN_WEBHOOK_SECRET ?? '').split(',');
const app = Fastify();

// The pitfall: Fastify parses JSON bodies, and a parsed-then-re-serialised body
// no longer matches its signature. Keep this route's body as the raw bytes.
app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));

const seen = new Set<string>();
app.post('/hooks', async (request, reply) => {
  try {
    const event = verifyWebhook(request.body as Buffer, request.headers, secrets);
    const id = request.headers['webhook-id'] as string;
    if (!seen.has(id)) {
      seen.add(id); // in production: a unique key in your database, in the same transaction as the work
      console.log(id, event.type, event.data.reference, event.data.status);
    }
    return reply.status(200).send();
  } catch (error) {
    if (error instanceof WebhookVerificationError) return reply.status(400).send(error.code);
    throw error;
  }
});

void app.listen({ port: Number(process.argv[2] ?? 4242), host: '127.0.0.1' });
