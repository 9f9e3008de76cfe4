// The payin create's floor for bench:server -- --ablate --money: bare Fastify
// parsing the same JSON body and sending the one statement a payin create
// sends, SqlPayinRepository.insertIfAbsent's INSERT, through pg to the same
// database, then answering 201 with a JSON body. No signature, Nest,
// validation, log line or metrics: what is left is what any service pays to
// take a request and write it to PostgreSQL, at the same rate.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { PacedRequest } from './paced-load';
import { ROOT } from './service-build';

export const CREATE_FLOOR_PATH = '/bench/create-floor';

/** The floor's script, in a directory of its own that `stopBare` removes; it connects to DATABASE_URL with a pool of DATABASE_POOL_SIZE, as the service does. */
export function createFloorServerFile(): string {
  const resolve = (name: string) => JSON.stringify(require.resolve(name, { paths: [path.join(ROOT, 'apps/api')] }));
  // The statement is apps/api/src/payins/sql-payin.repository.ts's, with the merchant of the bench's API key; if the schema moves
  // on without it, every request answers 500 and bench:short fails on the non-2xx answers.
  const script = `const fastify = require(${resolve('fastify')})({ logger: false });
const { Pool } = require(${resolve('pg')});
const pool = new Pool({ connectionString: process.env.DATABASE_URL, max: Number(process.env.DATABASE_POOL_SIZE) });
const INSERT = \`INSERT INTO payins (merchant_id, reference, status, amount_minor, currency, customer_email, customer_name, gateway, narration, notify_url, redirect_url,
                     request_fingerprint, created_at, expires_at, checkout_seed, checkout_token_hash, provider)
 VALUES ($1, $2, 'PENDING', $3, $4, $5, $6, $7, $8, $9, $10, $11, $12::timestamptz, $13::timestamptz, $14, $15, $16)
 ON CONFLICT (merchant_id, reference) DO NOTHING
 RETURNING paid_at, failed_at, failure_reason, fee_minor::text AS fee_minor, version, provider_reference, provider_payment_url, needs_attention, refunded_minor::text AS refunded_minor, refunding_minor::text AS refunding_minor\`;
let made = 0;
fastify.post(${JSON.stringify(CREATE_FLOOR_PATH)}, async (request, reply) => {
  const body = request.body;
  const unique = process.pid + '-' + (made += 1);
  const now = new Date();
  const { rows } = await pool.query(INSERT, ['MCH-SANDBOX-0001', 'floor-' + unique, String(Math.round(body.amount * 100)), body.currency, body.customerEmail, null, null, null, null, null,
    'fingerprint-' + unique, now.toISOString(), new Date(now.getTime() + 3600000).toISOString(), 'seed-' + unique, 'token-hash-' + unique, 'sandbox']);
  reply.code(201);
  return { reference: body.reference, status: 'PENDING', amount: body.amount, currency: body.currency, customerEmail: body.customerEmail, ...rows[0] };
});
fastify.get('/ready', async () => 'ok');
fastify.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });`;
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'bench-create-floor-')), 'create-floor.js');
  fs.writeFileSync(file, script);
  return file;
}

/** The floor's request: the payin create's body, unsigned. */
export function createFloorRequest(): PacedRequest {
  return { method: 'POST', path: CREATE_FLOOR_PATH, headers: { 'content-type': 'application/json' }, body: '{"amount":1500.50,"currency":"NGN","customerEmail":"ada@example.com","reference":"bench-floor"}' };
}
