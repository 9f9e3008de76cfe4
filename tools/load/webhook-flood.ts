// A merchant's signed latency while another client floods the provider webhook route with forged events
// (16 KiB bodies, a wrong x-paystack-signature) over 16 connections: p95 of signed GET banks, idle and during
// the flood, on the built service started here on loopback with Paystack configured beside the sandbox. Once
// with the route's guards as they ship (a forger's address is blocked after its refusals, before any body is
// read), and once with them lifted (every forged body hashed before its 401). It stops by itself.
// A load tool, not a test: it prints what it measured and never fails on timing.
//   npm run -s load:webhook-flood [-- --seconds 5]
import { parseArgs } from 'node:util';
import { measureFlood, prepareFlood, type FloodTarget } from './route-flood';

const { values } = parseArgs({ options: { seconds: { type: 'string', default: '5' } } });
const SECONDS = Number(values.seconds);

/** Paystack beside the sandbox, so that its webhook route exists; its API is an address nothing listens on, and no forged event reaches it. */
const PAYSTACK = { PAYSTACK_SECRET_KEY: 'sk_test_webhookflood0123456789abcdef012345', PAYSTACK_BASE_URL: 'http://127.0.0.1:9' };
const FORGED = JSON.stringify({ event: 'charge.success', data: { reference: 'forged', padding: 'x'.repeat(16 * 1024) } });

const WEBHOOK_ROUTE: FloodTarget = {
  path: async () => '/payment/provider-webhooks/paystack',
  autocannonOptions: ['-m', 'POST', '-H', 'content-type=application/json', '-H', `x-paystack-signature=${'f'.repeat(128)}`, '-b', FORGED],
  describe: (path) => `forged 16 KiB webhooks to ${path}`,
};

async function main(): Promise<void> {
  prepareFlood();
  await measureFlood('the route as it ships (60 refusals per address per minute, then blocked)', PAYSTACK, WEBHOOK_ROUTE, SECONDS);
  await measureFlood('guards lifted: every forged body read and hashed', { ...PAYSTACK, RATE_LIMIT_REFUSED_PER_ADDRESS_PER_MINUTE: '1000000', RATE_LIMIT_PROVIDER_WEBHOOKS_PER_ADDRESS_PER_MINUTE: '1000000' }, WEBHOOK_ROUTE, SECONDS);
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
