// The service behind PgBouncer in transaction pooling mode, a pgbouncer of the suite's own (5 server connections):
// requests on DATABASE_URL through it, migrations and the LISTEN for merchant changes direct on DATABASE_MIGRATION_URL.
// What transaction pooling breaks (a session's advisory lock, LISTEN, session SETs, named prepared statements) is either
// absent from the service or kept off the pooled connections; and with both URLs through it, the service still boots
// and migrates once, and a revoked key is still refused within MERCHANTS_SYNC_MAX_LAG_MS, by the version check.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { randomUUID } from 'node:crypto';
import { SqlClient } from '../src/db/sql-client';
import { checkLedger } from '../src/ledger-invariants';
import { MerchantAdmin } from '../src/merchants/merchant-admin';
import { MerchantStore } from '../src/merchants/merchant-store';
import { SCHEMA } from '../src/schema';
import { signedCall, type ApiResponse } from './support/api-client';
import { MERCHANT_A, type TestCredential } from './support/credentials';
import { merchantAdmin } from './support/merchant-changes';
import { payoutMerchantsFile } from './support/payout-merchants';
import { describeWithPgBouncer, PrivatePgBouncer } from './support/private-pgbouncer';
import { DATABASE_URL, createPrivateDatabase, describeWithStore } from './support/stores';
import { startTestApp, type TestApp } from './support/test-app';
import { WebhookReceiver } from './support/webhook-receiver';

const POOL_SIZE = 5;
const MAX_LAG_MS = 1000;
const databaseOf = (url: string) => new URL(url).pathname.slice(1);

/** Signed calls of `credential` to `api`; a retryable answer (the machine too busy to answer in time) is sent again, as the SDK does. */
async function call(api: TestApp, credential: TestCredential, method: string, pathAndQuery: string, body?: unknown): Promise<ApiResponse> {
  for (let attempt = 1; ; attempt++) {
    const answer = await signedCall(api.baseUrl, { method, path: pathAndQuery, credential, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    if (answer.json.retryable !== true || attempt === 5) return answer;
  }
}

/** How long after `since` the app logged a load of the merchants at `version` or later, and why; undefined while it has not. */
function loadOf(api: TestApp, since: number, version: number): { lagMs: number; reason: string } | undefined {
  const line = api.logs.find((l) => l.msg === 'merchants loaded' && Number(l.version) >= version && Number(l.time) >= since);
  return line ? { lagMs: Number(line.time) - since, reason: String(line.reason) } : undefined;
}

/** Revokes a new merchant's key through `changer`, and returns how late `watcher` loaded the change (counted from before the change began), and why. */
async function revokeSeenBy(changer: TestApp, watcher: TestApp): Promise<{ lagMs: number; reason: string; refused: number }> {
  const merchantId = `MCH-PGB-${randomUUID().slice(0, 8)}`;
  const added = await merchantAdmin(changer).run((merchants) => merchants.add({ merchantId, tenantId: 'TEN-PGB', name: 'Pooled Shop' }));
  const credential = { apiKey: added.apiKey, secretKey: added.secretKey, merchantId, tenantId: added.tenantId };
  // The other instance admits the new key first, so that what is measured below is the revocation alone.
  for (const deadline = Date.now() + 10 * MAX_LAG_MS; Date.now() < deadline; ) {
    if ((await call(watcher, credential, 'GET', '/payment/merchant-api/banks')).status === 200) break;
  }
  const startedAt = Date.now();
  await new MerchantAdmin(changer.app.get(MerchantStore), changer.config.mode, { actor: 'test', channel: 'command' }).revokeKey(credential.apiKey);
  const version = Number((await changer.app.get<SqlClient>(SqlClient).query<{ version: string }>('SELECT version::text AS version FROM merchants_version')).rows[0]?.version);
  for (const deadline = startedAt + 10 * MAX_LAG_MS; !loadOf(watcher, startedAt, version) && Date.now() < deadline; ) await new Promise((resolve) => setImmediate(resolve));
  const load = loadOf(watcher, startedAt, version) ?? { lagMs: Infinity, reason: 'none' };
  return { ...load, refused: (await signedCall(watcher.baseUrl, { path: '/payment/merchant-api/banks', credential })).status };
}

describeWithStore('PostgreSQL', DATABASE_URL, 'behind PgBouncer', () => {
  describeWithPgBouncer('PgBouncer in transaction mode', () => {
    let bouncer: PrivatePgBouncer;
    beforeAll(async () => {
      bouncer = await PrivatePgBouncer.start({ upstreamUrl: DATABASE_URL, poolSize: POOL_SIZE });
    });
    afterAll(() => bouncer?.stop());

    describe('DATABASE_URL through PgBouncer, DATABASE_MIGRATION_URL direct', () => {
      let database: { url: string; drop: () => Promise<void> };
      let receiver: WebhookReceiver;
      let instances: [TestApp, TestApp];
      beforeAll(async () => {
        database = await createPrivateDatabase('paysign_pgbouncer');
        receiver = await WebhookReceiver.start();
        const env = {
          DATABASE_URL: bouncer.url(databaseOf(database.url)),
          DATABASE_MIGRATION_URL: database.url,
          MERCHANTS_FILE: payoutMerchantsFile(receiver.url),
          MERCHANTS_SYNC_MAX_LAG_MS: String(MAX_LAG_MS),
          // One event per claim, claimed every 20 ms by each instance: the two race for every event.
          WEBHOOK_RECEIVER_BATCH: '1',
          WEBHOOK_POLL_INTERVAL_MS: '20',
          RATE_LIMIT_PER_KEY_PER_SECOND: '10000',
          RATE_LIMIT_PER_KEY_BURST: '10000',
        };
        // Booted together: their migrations meet, on the direct connections.
        instances = (await Promise.all([startTestApp(env), startTestApp(env)])) as [TestApp, TestApp];
      });
      afterAll(async () => {
        await Promise.all((instances ?? []).map((instance) => instance.close()));
        await receiver?.close();
        await database?.drop();
      });

      it('boots two instances at once, migrated once, serving through at most default_pool_size server connections', async () => {
        const applied = instances.flatMap((instance) => instance.logs.filter((line) => line.msg === 'applying payin store migration'));
        expect(applied).toHaveLength(SCHEMA.length);
        const client = instances[0].app.get<SqlClient>(SqlClient);
        expect((await client.query<{ n: number }>('SELECT count(*)::int AS n FROM schema_migrations')).rows).toEqual([{ n: SCHEMA.length }]);
        expect(await bouncer.serverConnections(databaseOf(database.url))).toBeLessThanOrEqual(POOL_SIZE);
      });

      it('accepts exactly the payouts the balance covers, of 20 sent at once to both instances, and the ledger holds', async () => {
        const [first, second] = instances;
        // ₦5,125: five payouts of ₦1,000 with their ₦25 fee.
        const funds = `pgb-funds-${randomUUID().slice(0, 8)}`;
        expect((await call(first, MERCHANT_A, 'POST', '/payment/api/payins', { amount: 5125, currency: 'NGN', customerEmail: 'ada@example.com', reference: funds })).status).toBe(201);
        expect((await call(second, MERCHANT_A, 'POST', `/payment/api/payins/${funds}/simulate`, { outcome: 'successful' })).status).toBe(200);
        const before = (await call(first, MERCHANT_A, 'GET', '/payment/api/balance')).json;
        const enquiryId = (await call(first, MERCHANT_A, 'POST', '/payment/merchant-api/account/inquiry', { bankCode: '058', accountNumber: '0123456785' })).json.enquiryId;
        const answers = await Promise.all(
          Array.from({ length: 20 }, (_, i) => call(i % 2 ? second : first, MERCHANT_A, 'POST', '/payment/api/payouts', { reference: `${funds}-${i}`, amount: 1000, currency: 'NGN', enquiryId, narration: `Pooled ${i}` })),
        );
        const outcomes = answers.map((answer) => (answer.status === 201 || answer.status === 200 ? 'created' : String(answer.json.code)));
        expect(outcomes.filter((outcome) => outcome === 'created')).toHaveLength(5);
        expect(outcomes.filter((outcome) => outcome === 'INSUFFICIENT_BALANCE')).toHaveLength(15);
        expect((await call(second, MERCHANT_A, 'GET', '/payment/api/balance')).json).toMatchObject({ available: (before.available as number) - 5125, held: (before.held as number) + 5125 });
        expect(await checkLedger(first.app.get<SqlClient>(SqlClient))).toEqual([]);
        expect(await bouncer.serverConnections(databaseOf(database.url))).toBeLessThanOrEqual(POOL_SIZE);
      });

      it('delivers every event once, claimed by both instances through PgBouncer', async () => {
        const [first, second] = instances;
        const references = Array.from({ length: 30 }, (_, i) => `pgb-hook-${i}-${randomUUID().slice(0, 8)}`);
        await Promise.all(references.map((reference, i) => call(i % 2 ? first : second, MERCHANT_A, 'POST', '/payment/api/payins', { amount: 100, currency: 'NGN', customerEmail: 'ada@example.com', reference })));
        const simulated = await Promise.all(references.map((reference, i) => call(i % 3 ? first : second, MERCHANT_A, 'POST', `/payment/api/payins/${reference}/simulate`, { outcome: 'successful' })));
        expect(simulated.filter((answer) => answer.status !== 200)).toEqual([]);
        // Waits until none of their events is pending, each attempt recorded after its receiver answered: then none is in flight.
        const client = first.app.get<SqlClient>(SqlClient);
        const pending = async () =>
          (await client.query<{ n: number }>("SELECT count(*)::int AS n FROM outbox_events WHERE object_type = 'payin' AND object_id = ANY($1) AND status = 'pending'", [references])).rows[0]?.n;
        for (const deadline = Date.now() + 30_000; (await pending()) !== 0 && Date.now() < deadline; ) await new Promise((resolve) => setTimeout(resolve, 25));
        expect(await pending()).toBe(0);
        const deliveries = references.flatMap((reference) => receiver.deliveriesOf(reference));
        const attemptsBy = (instance: TestApp) => instance.logs.filter((line) => line.msg === 'webhook attempt' && references.includes(String(line.objectId))).length;
        console.log(`behind PgBouncer: ${references.length} payins, ${deliveries.length} deliveries; attempts ${attemptsBy(first)} by one instance, ${attemptsBy(second)} by the other`);
        for (const reference of references) expect(receiver.deliveriesOf(reference)).toHaveLength(1);
        expect(new Set(deliveries.map((delivery) => delivery.headers['webhook-id'])).size).toBe(references.length);
        expect(attemptsBy(first) + attemptsBy(second)).toBe(references.length);
        expect(attemptsBy(first)).toBeGreaterThan(0);
        expect(attemptsBy(second)).toBeGreaterThan(0);
      });

      it('refuses a key revoked through PgBouncer on the other instance within MERCHANTS_SYNC_MAX_LAG_MS, announced on the direct LISTEN', async () => {
        const seen = await revokeSeenBy(instances[0], instances[1]);
        console.log(`behind PgBouncer, LISTEN direct: revoke loaded ${seen.lagMs} ms after the change began (${seen.reason}; MERCHANTS_SYNC_MAX_LAG_MS ${MAX_LAG_MS})`);
        expect(seen).toMatchObject({ reason: 'announced', refused: 401 });
        expect(seen.lagMs).toBeLessThanOrEqual(MAX_LAG_MS);
      });
    });

    describe('both URLs through PgBouncer', () => {
      let database: { url: string; drop: () => Promise<void> };
      let instances: [TestApp, TestApp];
      beforeAll(async () => {
        database = await createPrivateDatabase('paysign_pgbouncer_both');
        const pooled = bouncer.url(databaseOf(database.url));
        const env = { DATABASE_URL: pooled, DATABASE_MIGRATION_URL: pooled, MERCHANTS_SYNC_MAX_LAG_MS: String(MAX_LAG_MS) };
        instances = (await Promise.all([startTestApp(env, { startJobs: false }), startTestApp(env, { startJobs: false })])) as [TestApp, TestApp];
      });
      afterAll(async () => {
        await Promise.all((instances ?? []).map((instance) => instance.close()));
        await database?.drop();
      });

      it('boots two instances at once and migrates once: each migration holds its lock for its own transaction, never across them', async () => {
        const applied = instances.flatMap((instance) => instance.logs.filter((line) => line.msg === 'applying payin store migration').map((line) => Number(line.migration)));
        expect(applied.sort((a, b) => a - b)).toEqual(SCHEMA.map((migration) => migration.id));
        const client = instances[1].app.get<SqlClient>(SqlClient);
        expect((await client.query<{ n: number }>('SELECT count(*)::int AS n FROM schema_migrations')).rows).toEqual([{ n: SCHEMA.length }]);
        expect((await call(instances[1], MERCHANT_A, 'POST', '/payment/api/payins', { amount: 10, currency: 'NGN', customerEmail: 'ada@example.com', reference: 'pgb-both' })).status).toBe(201);
      });

      it('loses the LISTEN to the pool, and still refuses a revoked key within MERCHANTS_SYNC_MAX_LAG_MS, found by the version check', async () => {
        const seen = await revokeSeenBy(instances[0], instances[1]);
        console.log(`both through PgBouncer: revoke loaded ${seen.lagMs} ms after the change began (${seen.reason}; MERCHANTS_SYNC_MAX_LAG_MS ${MAX_LAG_MS})`);
        expect(seen).toMatchObject({ reason: 'version moved', refused: 401 });
        expect(seen.lagMs).toBeLessThanOrEqual(MAX_LAG_MS);
      });
    });
  });

  it('sends nothing that transaction pooling breaks: no session lock, SET, temporary table, named statement, or LISTEN on the pool', () => {
    const src = path.resolve(__dirname, '../src');
    const sources = fs
      .readdirSync(src, { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.ts') && !file.endsWith('.spec.ts'))
      .map((file) => ({ file, text: fs.readFileSync(path.join(src, file), 'utf8') }))
      // The files that reach PostgreSQL: through the service's SQL client, or the driver itself.
      .filter(({ text }) => /\bSql(Client|Queryable)\b|import\('pg'\)|from 'pg'/.test(text));
    const found = (pattern: RegExp) => sources.filter(({ text }) => pattern.test(text)).map(({ file }) => file);
    expect(found(/pg_(try_)?advisory_lock(_shared)?\(/)).toEqual([]);
    // SET TRANSACTION and SET LOCAL last only to the end of their transaction, which transaction pooling keeps on one server connection.
    expect(found(/['`]SET (?!TRANSACTION |LOCAL )/)).toEqual([]);
    expect(found(/CREATE (GLOBAL |LOCAL )?TEMP(ORARY)? /i)).toEqual([]);
    expect(found(/['`]PREPARE /i)).toEqual([]);
    // A query config object (`query({ text, name })`) is how node-postgres names a prepared statement.
    expect(found(/\.query(<[^>]*>)?\(\s*\{/)).toEqual([]);
    expect(found(/['`]LISTEN /)).toEqual([path.join('merchants', 'merchants-sync.ts')]);
  });
});
