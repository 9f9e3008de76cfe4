// Money under concurrency: two instances of the service on one PostgreSQL database, and many payouts at once.
import { SqlClient } from '../src/db/sql-client';
import { checkLedger } from '../src/ledger/ledger-check';
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
