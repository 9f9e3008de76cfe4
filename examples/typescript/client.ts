// A Paysign client in TypeScript with node:crypto and fetch only, for merchants
// who do not want the SDK.
//
// Checks its signing against libs/signing/vectors.json, then lists banks, runs
// an account enquiry, creates a payin of 1500.50 and reads it back.
// Configuration: PAYSIGN_BASE_URL, PAYSIGN_API_KEY, PAYSIGN_SECRET_KEY,
// PAYSIGN_MERCHANT_ID, PAYSIGN_TENANT_ID, and PAYSIGN_VECTORS.
import { createHash, createHmac, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * docs/protocol.md section 2. JSON.parse would turn 1500.50 into 1500.5, so the
 * body is read here: a flat object whose values are kept as the text sent.
 */
export function canonicalBody(body: string | undefined): string {
  if (!body) return '';
  let i = 0;
  const ws = () => {
    while (' \t\r\n'.includes(body[i] ?? 'x')) i++;
  };
  const fail = (what: string): never => {
    throw new Error(`cannot sign this body: ${what} at ${i}`);
  };
  const string = (): string => {
    const start = i;
    if (body[i++] !== '"') fail('expected a string');
    while (body[i] !== '"') i += body[i] === '\\' ? 2 : 1;
    i++;
    return JSON.parse(body.slice(start, i)) as string; // resolves every escape, surrogate pairs included
  };
  const fields = new Map<string, string | null>();
  ws();
  if (body[i++] !== '{') fail('not an object');
  ws();
  while (body[i] !== '}') {
    ws();
    const key = string();
    ws();
    if (body[i++] !== ':') fail('expected :');
    ws();
    if (fields.has(key)) fail(`duplicate key ${key}`);
    if (body[i] === '"') fields.set(key, string());
    else if (body[i] === '{' || body[i] === '[') fail('nested value');
    else {
      const start = i;
      while (i < body.length && !',} \t\r\n'.includes(body[i] as string)) i++;
      const text = body.slice(start, i); // a number as written, true, false or null
      fields.set(key, text === 'null' ? null : text);
    }
    ws();
    if (body[i] === ',') i++;
  }
  // Default sort compares UTF-16 code units, which is the protocol's order.
  const keys = [...fields.keys()].filter((key) => fields.get(key) !== null).sort();
  return keys.map((key) => `${key}=${fields.get(key)}`).join('&');
}

export function sign(apiKey: string, secret: string, nonce: string, timestamp: number, method: string, path: string, body: string | undefined) {
  const canonical = canonicalBody(body);
  const bodySha256Hex = createHash('sha256').update(canonical, 'utf8').digest('hex');
  const baseString = [apiKey, nonce, String(timestamp), method, path, bodySha256Hex].join('\n');
  const signature = createHmac('sha256', secret).update(baseString, 'utf8').digest('hex');
  return { canonicalBody: canonical, bodySha256Hex, baseString, signature };
}

function checkVectors(file: string): void {
  const { vectors } = JSON.parse(readFileSync(file, 'utf8')) as { vectors: Array<{ name: string; request: Record<string, string>; want: Record<string, string> }> };
  for (const { name, request: r, want } of vectors) {
    const got = sign(r.apiKey as string, r.secretKey as string, r.nonce as string, Number(r.timestamp), r.method as string, r.path as string, r.body ?? undefined);
    if (JSON.stringify(got) !== JSON.stringify(want)) throw new Error(`vector ${name} does not match: fix the signing before calling the service`);
  }
  console.log(`signing matches all ${vectors.length} vectors`);
}

async function call(method: string, path: string, body?: string): Promise<any> {
  const env = process.env as Record<string, string>;
  const nonce = randomUUID();
  const timestamp = Math.floor(Date.now() / 1000);
  const { signature } = sign(env.PAYSIGN_API_KEY as string, env.PAYSIGN_SECRET_KEY as string, nonce, timestamp, method, path, body); // the exact text sent
  const response = await fetch(`${env.PAYSIGN_BASE_URL?.replace(/\/+$/, '')}${path}`, {
    method,
    body,
    headers: {
      'X-API-KEY': env.PAYSIGN_API_KEY as string,
      'X-Nonce': nonce,
      'X-Timestamp': String(timestamp),
      'X-Signature': signature,
      'X-Merchant-ID': env.PAYSIGN_MERCHANT_ID as string,
      'X-Tenant-ID': env.PAYSIGN_TENANT_ID as string,
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    signal: AbortSignal.timeout(15_000),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text}`);
  return JSON.parse(text);
}

async function main(): Promise<void> {
  checkVectors(process.env.PAYSIGN_VECTORS ?? join(__dirname, '../../libs/signing/vectors.json'));
  console.log(`${(await call('GET', '/payment/merchant-api/banks')).length} banks`);
  console.log(`account name: ${(await call('POST', '/payment/merchant-api/account/inquiry', '{"bankCode":"058","accountNumber":"0123456785"}')).accountName}`);
  const reference = `ts-${randomUUID().slice(0, 12)}`;
  await call('POST', '/payment/api/payins', `{"amount":1500.50,"currency":"NGN","customerEmail":"ada@example.com","reference":"${reference}"}`);
  const read = await call('GET', `/payment/api/payins/${reference}`);
  if (read.amount !== 1500.5 || read.status !== 'PENDING') throw new Error(`the payin read back differs: ${JSON.stringify(read)}`);
  console.log(`payin ${reference}: ${read.status}, ${read.amount} ${read.currency}, pay at ${read.checkoutUrl}`);
}

main().catch((error: Error) => {
  console.error(error.message);
  process.exit(1);
});
