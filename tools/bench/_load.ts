import { randomUUID } from 'node:crypto';
import { sign } from '@paysign/signing';
import autocannon from 'autocannon';
const KEY = { apiKey: 'pk_sandbox_demo', secretKey: 'sk_sandbox_demo_public_not_secret', merchantId: 'MCH-SANDBOX-0001', tenantId: 'TEN-SANDBOX' };
const [url, which, secs] = process.argv.slice(2);
const path = which === 'live' ? '/payment/health/live' : which === 'unguarded' ? '/payment/bench/unguarded-banks' : '/payment/merchant-api/banks';
void autocannon({ url: url!, connections: 50, duration: Number(secs ?? 8), requests: [{ setupRequest: (o) => ({ ...o, method: 'GET', path, headers: which !== 'banks' ? {} : (sign({ ...KEY, nonce: randomUUID(), timestamp: Math.floor(Date.now()/1000), method: 'GET', path }).headers as Record<string,string>) }) as autocannon.Request }] }).then((r) => console.log(which, Math.round(r.requests.average), 'rps p99', r.latency.p99, 'non2xx', r.non2xx));
