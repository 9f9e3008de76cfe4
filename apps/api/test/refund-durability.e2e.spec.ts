// kill -9 while refunds are at the provider: the built service in production with Paystack behind it (the fake),
// its process killed while the fake holds its answers to the refunds it was sent, then started again on the same
// PostgreSQL database. Every refund ends final, with exactly one refund at the provider each.
import { startFakePaystack, type FakePaystack } from '@paysign/fake-paystack';
import { Pool } from 'pg';
import { checkLedger } from '../src/ledger-invariants';
import { signedCall } from './support/api-client';
import { startBuiltService, type BuiltService } from './support/built-service';
import { MERCHANT_A } from './support/credentials';
import { paystackEverywhere } from './support/paystack-settings';
import { DATABASE_URL, REDIS_URL, createPrivateDatabase, describeWithStore } from './support/stores';
import { PRODUCTION_SETTINGS } from './support/test-app';

const PAYINS = 5;
const WEBHOOK_PATH = '/payment/provider-webhooks/paystack';
/** Status checks a second apart: so that the test sees the recovery within seconds. */
const QUICK_RECOVERY = { REFUND_STATUS_CHECK_SCHEDULE: '1,2', REFUND_STATUS_CHECK_INTERVAL_MS: '200', REFUND_RESEND_GRACE_SECONDS: '10' };

/** Waits for `done` to hold of what `read` answers, looking every 20 ms, for at most `ms`: the event is in another process, whose clock a test cannot move. */
async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, ms: number): Promise<T> {
  for (const deadline = Date.now() + ms; ; await new Promise((resolve) => setTimeout(resolve, 20))) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
  }
}

describeWithStore('PostgreSQL', DATABASE_URL, 'refunds across a kill -9 of the service', () => {
  let database: { url: string; drop: () => Promise<void> };
  let db: Pool;
  let fake: FakePaystack;
  const services: BuiltService[] = [];
  beforeAll(async () => {
    database = await createPrivateDatabase('paysign_refund_kill');
    db = new Pool({ connectionString: database.url });
    // The database is dropped WITH (FORCE) at the end: a connection the pool is still closing is ended by the server, which is no failure.
    db.on('error', () => undefined);
    fake = await startFakePaystack({ secretKey: paystackEverywhere('').PAYSTACK_SECRET_KEY });
  });
  afterAll(async () => {
    for (const service of services) await service.dispose();
    await db.end();
    await database.drop();
    await fake.close();
  });

  const start = async (env: Record<string, string>) => {
    const service = await startBuiltService({ PAYSIGN_MODE: 'production', REDIS_URL, ...PRODUCTION_SETTINGS, ...paystackEverywhere(fake.url), ...QUICK_RECOVERY, ...env }, { databaseUrl: database.url });
    services.push(service);
    fake.webhookUrl = `${service.baseUrl}${WEBHOOK_PATH}`;
    return service;
  };
  const statuses = async () => (await db.query<{ status: string; n: number }>('SELECT status, count(*)::int AS n FROM refunds GROUP BY status ORDER BY status')).rows;

  it('brings every refund to exactly one final state after a restart, with exactly one refund each at the provider', async () => {
    // The first instance waits two minutes for the provider's answers, and its status checks would first run ten
    // minutes after it started: nothing settles a refund before the kill but the restart.
    const first = await start({ REFUND_PROVIDER_TIMEOUT_MS: '120000', REFUND_STATUS_CHECK_INTERVAL_MS: '600000' });
    const call = (baseUrl: string, path: string, body?: unknown) => signedCall(baseUrl, { path, credential: MERCHANT_A, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    const transactions: string[] = [];
    for (let i = 0; i < PAYINS; i++) {
      const reference = `kill-payin-${i}`;
      const created = await call(first.baseUrl, '/payment/api/payins', { amount: 2000, currency: 'NGN', customerEmail: 'ada@example.com', reference, redirectUrl: 'https://shop.example.com/done' });
      expect(created.status).toBe(201);
      const transaction = [...fake.transactions.values()].at(-1) as { accessCode: string; reference: string };
      transactions.push(transaction.reference);
      // The customer pays on the provider's page; its webhook settles the payin before the customer is sent back.
      expect((await fetch(`${fake.url}/checkout/${transaction.accessCode}`, { method: 'POST', body: new URLSearchParams({ outcome: 'success' }), redirect: 'manual' })).status).toBe(302);
      expect((await call(first.baseUrl, `/payment/api/payins/${reference}`)).json.status).toBe('SUCCESSFUL');
    }

    // The provider makes each refund it is sent, and its answer never comes back.
    fake.faults.hangAfterHandling.set('refund_create', PAYINS);
    for (let i = 0; i < PAYINS; i++) {
      expect((await call(first.baseUrl, '/payment/api/refunds', { reference: `kill-refund-${i}`, payinReference: `kill-payin-${i}`, amount: 500 })).status).toBe(201);
    }
    const made = await until(async () => fake.refunds.size, (n) => n >= PAYINS, 30_000);
    expect(made).toBe(PAYINS);
    first.child.kill('SIGKILL');
    await first.exited;
    expect(await statuses()).toEqual([{ status: 'PROCESSING', n: PAYINS }]);

    const listings = () => fake.calls.filter((route) => route === 'refund_list').length;
    const listedBefore = listings();
    const second = await start({});
    // Asked again, the provider says each is still pending: nothing moves, and nothing is sent again.
    await until(async () => listings(), (n) => n >= listedBefore + PAYINS, 30_000);
    expect(await statuses()).toEqual([{ status: 'PROCESSING', n: PAYINS }]);
    for (const refund of fake.refunds.values()) expect(await fake.settleRefund(refund.id, 'processed')).toBe(200);
    const final = await until(statuses, (rows) => rows.length === 1 && rows[0]?.status === 'SUCCESSFUL', 30_000);
    expect(final).toEqual([{ status: 'SUCCESSFUL', n: PAYINS }]);

    expect(fake.refunds.size).toBe(PAYINS);
    expect([...fake.refunds.values()].map((refund) => refund.transactionReference).sort()).toEqual([...transactions].sort());
    expect(fake.calls.filter((route) => route === 'refund_create')).toHaveLength(PAYINS);
    expect(await checkLedger(db)).toEqual([]);
    expect((await call(second.baseUrl, '/payment/api/payins/kill-payin-0')).json).toMatchObject({ amountRefunded: 500, amountRefundable: 1500 });
  }, 180_000);
});
