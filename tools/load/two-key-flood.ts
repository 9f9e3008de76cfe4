// One API key floods the service while a second key sends at a modest rate;
// prints how each key's requests were answered. Loopback only; it stops by
// itself after --seconds.
//   npm run -s load:two-key-flood -- [--url http://127.0.0.1:3000[,http://127.0.0.1:3001]] [--seconds 5] [--concurrency 50]
// Several comma-separated URLs (instances sharing Redis) are called in turn.
// Keys default to the two sandbox credentials; set FLOOD_API_KEY/FLOOD_SECRET_KEY,
// OTHER_API_KEY/OTHER_SECRET_KEY and their *_MERCHANT_ID/*_TENANT_ID for others.
import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { sign } from '@paysign/signing';

const { values } = parseArgs({ options: { url: { type: 'string', default: 'http://127.0.0.1:3000' }, seconds: { type: 'string', default: '5' }, concurrency: { type: 'string', default: '50' } } });
const baseUrls = values.url.split(',').map((u) => new URL(u));
if (baseUrls.some((u) => !['127.0.0.1', 'localhost', '[::1]'].includes(u.hostname))) throw new Error('This tool targets loopback only.');
let calls = 0;

interface Key {
  apiKey: string;
  secretKey: string;
  merchantId: string;
  tenantId: string;
}
const env = process.env;
const flooder: Key = {
  apiKey: env.FLOOD_API_KEY ?? 'pk_sandbox_demo',
  secretKey: env.FLOOD_SECRET_KEY ?? 'sk_sandbox_demo_public_not_secret',
  merchantId: env.FLOOD_MERCHANT_ID ?? 'MCH-SANDBOX-0001',
  tenantId: env.FLOOD_TENANT_ID ?? 'TEN-SANDBOX',
};
const other: Key = {
  apiKey: env.OTHER_API_KEY ?? 'pk_sandbox_demo_rotated',
  secretKey: env.OTHER_SECRET_KEY ?? 'sk_sandbox_demo_rotated_public_not_secret',
  merchantId: env.OTHER_MERCHANT_ID ?? 'MCH-SANDBOX-0001',
  tenantId: env.OTHER_TENANT_ID ?? 'TEN-SANDBOX',
};
const PATH = '/payment/merchant-api/banks';

async function call(key: Key): Promise<string> {
  const { headers } = sign({ ...key, nonce: randomUUID(), timestamp: Math.floor(Date.now() / 1000), method: 'GET', path: PATH });
  try {
    const response = await fetch(new URL(PATH, baseUrls[calls++ % baseUrls.length]), { headers: headers as Record<string, string> });
    const text = await response.text();
    return response.ok ? String(response.status) : `${response.status} ${(JSON.parse(text) as { code?: string }).code ?? ''}`.trim();
  } catch {
    return 'network error';
  }
}

async function main(): Promise<void> {
  const deadline = Date.now() + Number(values.seconds) * 1000;
  const tally = { flooder: new Map<string, number>(), other: new Map<string, number>() };
  const count = (map: Map<string, number>, outcome: string) => map.set(outcome, (map.get(outcome) ?? 0) + 1);
  const floodWorker = async () => {
    while (Date.now() < deadline) count(tally.flooder, await call(flooder));
  };
  const otherWorker = async () => {
    while (Date.now() < deadline) {
      count(tally.other, await call(other));
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  await Promise.all([...Array.from({ length: Number(values.concurrency) }, floodWorker), otherWorker()]);
  const result = { seconds: Number(values.seconds), instances: baseUrls.length, flooder: { apiKey: flooder.apiKey, ...Object.fromEntries(tally.flooder) }, other: { apiKey: other.apiKey, ...Object.fromEntries(tally.other) } };
  console.log(`flooding key ${flooder.apiKey}: ${[...tally.flooder].map(([o, n]) => `${n} × ${o}`).join(', ')}`);
  console.log(`other key ${other.apiKey}: ${[...tally.other].map(([o, n]) => `${n} × ${o}`).join(', ')}`);
  console.log(JSON.stringify(result));
}

void main();
