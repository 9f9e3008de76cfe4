// Money under concurrency: two instances of the service on one PostgreSQL database, many payouts at once, and a batch of 500.
import { SqlClient } from '../src/db/sql-client';
import { JobRunner } from '../src/jobs/job-runner';
import { checkLedger } from '../src/ledger-invariants';
import { PayoutDispatcher } from '../src/payouts/payout-dispatcher';
import { signedCall } from './support/api-client';
import { MERCHANT_A } from './support/credentials';
import { payoutMerchantsFile } from './support/payout-merchants';
import { DATABASE_URL, createPrivateDatabase, describeWithStore } from './support/stores';
import { startTestApp, type TestApp } from './support/test-app';

const PAYOUTS = '/payment/api/payouts';

describeWithStore('PostgreSQL', DATABASE_URL, 'payouts from two instances at once', () => {
  let database: { url: string; drop: () => Promise<void> };
  let instances: TestApp[];
  beforeAll(async () => {
    database = await createPrivateDatabase('paysign_payout_race');
    const env = { DATABASE_URL: database.url, MERCHANTS_FILE: payoutMerchantsFile() };
    // Jobs stay off: what is measured is the creation of payouts, not their sending.
    instances = [await startTestApp(env, { startJobs: false }), await startTestApp(env, { startJobs: false })];
  });
  afterAll(async () => {
    for (const instance of instances) await instance.close();
    await database.drop();
  });
  const call = (instance: TestApp, path: string, body?: unknown) => signedCall(instance.baseUrl, { path, credential: MERCHANT_A, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  const balance = async () => (await call(instances[0] as TestApp, '/payment/api/balance')).json;

  it('accepts exactly the 10 of 50 concurrent payouts that the balance covers, ends available at zero, and the ledger holds', async () => {
    const [first, second] = instances as [TestApp, TestApp];
    // ₦10,250 available: ten payouts of ₦1,000 with their ₦25 fee, and not a kobo more.
    await call(first, '/payment/api/payins', { amount: 10_250, currency: 'NGN', customerEmail: 'ada@example.com', reference: 'race-funds' });
    expect((await call(first, '/payment/api/payins/race-funds/simulate', { outcome: 'successful' })).status).toBe(200);
    expect(await balance()).toEqual({ currency: 'NGN', available: 10_250, pending: 0, held: 0 });
    const enquiryId = (await call(first, '/payment/merchant-api/account/inquiry', { bankCode: '058', accountNumber: '0123456785' })).json.enquiryId as string;

    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) => call(i % 2 ? second : first, PAYOUTS, { reference: `race-${i}`, amount: 1000, currency: 'NGN', enquiryId, narration: `Race ${i}` })),
    );
    const statuses = answers.map((answer) => (answer.status === 201 ? 'created' : String(answer.json.code)));
    expect(statuses.filter((status) => status === 'created')).toHaveLength(10);
    expect(statuses.filter((status) => status === 'INSUFFICIENT_BALANCE')).toHaveLength(40);
    expect(await balance()).toEqual({ currency: 'NGN', available: 0, pending: 0, held: 10_250 });
    expect(await checkLedger(first.app.get<SqlClient>(SqlClient))).toEqual([]);
  });

  it('creates one payout and one hold for a reference sent ten times at once to both instances', async () => {
    const [first, second] = instances as [TestApp, TestApp];
    await call(first, '/payment/api/payins', { amount: 5_000, currency: 'NGN', customerEmail: 'ada@example.com', reference: 'once-funds' });
    await call(first, '/payment/api/payins/once-funds/simulate', { outcome: 'successful' });
    const enquiryId = (await call(second, '/payment/merchant-api/account/inquiry', { bankCode: '058', accountNumber: '0123456785' })).json.enquiryId as string;
    const body = { reference: 'once', amount: 1000, currency: 'NGN', enquiryId, narration: 'Once' };
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => call(i % 2 ? second : first, PAYOUTS, body)));
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 200, 201]);
    const holds = await first.app.get<SqlClient>(SqlClient).query("SELECT id FROM ledger_journals WHERE object_type = 'payout' AND object_id = 'once' AND type = 'payout_hold'");
    expect(holds.rows).toHaveLength(1);
    expect(await balance()).toMatchObject({ available: 5_000 - 1_025, held: 10_250 + 1_025 });
    expect(await checkLedger(first.app.get<SqlClient>(SqlClient))).toEqual([]);
  });
});

describeWithStore('PostgreSQL', DATABASE_URL, 'a payout batch of 500 from 20 clients, sent by two instances', () => {
  const ITEMS = 500;
  const CLIENTS = 20;
  let database: { url: string; drop: () => Promise<void> };
  let instances: [TestApp, TestApp];
  beforeAll(async () => {
    database = await createPrivateDatabase('paysign_payout_batch');
    const env = {
      DATABASE_URL: database.url,
      MERCHANTS_FILE: payoutMerchantsFile(),
      SANDBOX_PAYOUT_DELAY_MS: '0',
      // 25 sends at once per instance share its 10 pooled connections with the sandbox provider's own writes; on a
      // busy machine one could wait past the default 2 s for a connection, and a send that fails so is left PROCESSING
      // for its status checks, minutes away: the batch would not finish within the test's rounds.
      DATABASE_CONNECT_TIMEOUT_MS: '30000',
      PAYOUT_DISPATCH_CONCURRENCY: '25',
      RATE_LIMIT_PER_KEY_PER_SECOND: '10000',
      RATE_LIMIT_PER_KEY_BURST: '10000',
    };
    // The jobs run when the test runs them: both instances at once, round after round.
    instances = [await startTestApp(env, { startJobs: false }), await startTestApp(env, { startJobs: false })];
  });
  afterAll(async () => {
    for (const instance of instances) await instance.close();
    await database.drop();
  });
  const call = (instance: TestApp, path: string, body?: unknown, method: 'GET' | 'POST' = body === undefined ? 'GET' : 'POST') =>
    signedCall(instance.baseUrl, { method, path, credential: MERCHANT_A, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });

  it('holds all 500, submits them only with the right count and total, sends each exactly once, and the ledger holds', async () => {
    const [first, second] = instances;
    await call(first, '/payment/api/payins', { amount: 100_000, currency: 'NGN', customerEmail: 'ada@example.com', reference: 'batch-funds' });
    expect((await call(first, '/payment/api/payins/batch-funds/simulate', { outcome: 'successful' })).status).toBe(200);
    const enquiryId = (await call(first, '/payment/merchant-api/account/inquiry', { bankCode: '058', accountNumber: '0123456785' })).json.enquiryId as string;
    expect((await call(first, '/payment/api/payout-batches', { reference: 'payroll', title: 'Payroll' })).status).toBe(201);

    // 20 clients, each adding its share one signed request at a time, half of them through each instance. Creates of one
    // merchant queue on its balance row, each holding a pooled connection: on a busy machine some wait past
    // DATABASE_CONNECT_TIMEOUT_MS and are answered 503, retryable, which a client sends again as the SDK does (safe: the
    // reference is the idempotency key). A retried create that had committed answers 200, replayed.
    let retried = 0;
    const statuses = await Promise.all(
      Array.from({ length: CLIENTS }, async (_, client) => {
        const answers: number[] = [];
        for (let i = client; i < ITEMS; i += CLIENTS) {
          const body = { reference: `pay-${i}`, amount: 100 + (i % 7), currency: 'NGN', enquiryId, narration: `Salary ${i}`, batchReference: 'payroll' };
          let answer = await call(client % 2 ? second : first, PAYOUTS, body);
          for (let attempt = 1; attempt < 5 && answer.json.retryable === true; attempt++, retried++) answer = await call(client % 2 ? second : first, PAYOUTS, body);
          answers.push(answer.status);
        }
        return answers;
      }),
    );
    if (retried > 0) console.log(`batch of ${ITEMS}: ${retried} creates answered retryable and were sent again`);
    expect(statuses.flat().filter((status) => status !== 201 && status !== 200)).toEqual([]);
    const total = Array.from({ length: ITEMS }, (_, i) => 100 + (i % 7)).reduce((sum, amount) => sum + amount, 0);
    const fees = ITEMS * 25;
    expect(await call(second, '/payment/api/balance')).toMatchObject({ json: { available: 100_000 - total - fees, held: total + fees } });
    expect((await call(second, '/payment/api/payout-batches/payroll')).json).toMatchObject({ itemCount: ITEMS, total, byStatus: [{ status: 'BATCHED', count: ITEMS }] });

    const short = await call(first, '/payment/api/payout-batches/payroll/submit', { expectedCount: ITEMS - 1, expectedTotal: total - 106 });
    expect(short.status).toBe(409);
    expect(short.json.message).toContain(`holds ${ITEMS} payouts totalling NGN ${total.toFixed(2)}; you expected ${ITEMS - 1} totalling NGN ${(total - 106).toFixed(2)}`);
    expect((await call(first, '/payment/api/payout-batches/payroll/submit', { expectedCount: ITEMS, expectedTotal: total })).json.status).toBe('SUBMITTED');

    const runDispatch = async (instance: TestApp) => {
      await instance.app.get(JobRunner).runNow('payout-dispatch');
      await instance.app.get(PayoutDispatcher).idle();
    };
    const client = first.app.get<SqlClient>(SqlClient);
    const left = async () => Number((await client.query<{ n: string }>("SELECT count(*)::text AS n FROM payouts WHERE batch_reference = 'payroll' AND status IN ('QUEUED', 'PROCESSING')")).rows[0]?.n);
    // Each round, both instances claim at once; at most 25 each, so neither takes the whole batch.
    for (let round = 0; (await left()) > 0 && round < 100; round++) await Promise.all([runDispatch(first), runDispatch(second)]);

    const batch = (await call(second, '/payment/api/payout-batches/payroll')).json;
    expect(batch).toMatchObject({ status: 'COMPLETED', itemCount: ITEMS, byStatus: [{ status: 'SUCCESSFUL', count: ITEMS, amount: total }] });
    const transfers = await client.query<{ payouts: string; transfers: string; sends: string }>(
      `SELECT count(DISTINCT p.reference)::text AS payouts, count(t.provider_reference)::text AS transfers, coalesce(sum(t.sends), 0)::text AS sends
       FROM payouts p LEFT JOIN sandbox_payout_transfers t ON t.provider_reference = p.provider_reference WHERE p.batch_reference = 'payroll'`,
    );
    expect(transfers.rows[0]).toEqual({ payouts: String(ITEMS), transfers: String(ITEMS), sends: String(ITEMS) });
    const sentBy = (instance: TestApp) => instance.logs.filter((line) => line.msg === 'payout SUCCESSFUL').length;
    expect(sentBy(first) + sentBy(second)).toBe(ITEMS);
    expect(sentBy(first)).toBeGreaterThan(0);
    expect(sentBy(second)).toBeGreaterThan(0);
    const completions = await client.query("SELECT id FROM outbox_events WHERE object_type = 'payout_batch' AND object_id = 'payroll' AND type = 'payout_batch.completed'");
    expect(completions.rows).toHaveLength(1);
    expect(await call(first, '/payment/api/balance')).toMatchObject({ json: { available: 100_000 - total - fees, held: 0 } });
    expect(await checkLedger(client)).toEqual([]);
  }, 120_000);
});
