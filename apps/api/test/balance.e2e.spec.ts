// The merchant's balance and its entries, over HTTP, on the real app and PostgreSQL.
import { JobRunner } from '../src/jobs/job-runner';
import { signedCall } from './support/api-client';
import { MERCHANT_A, MERCHANT_B, type TestCredential } from './support/credentials';
import { TestClock } from './support/test-clock';
import { startTestApp, type TestApp } from './support/test-app';

const PAYINS = '/payment/api/payins';
const BALANCE = '/payment/api/balance';
const ENTRIES = '/payment/api/balance/entries';

let sequence = 0;
/** A payin of `amount` naira made successful, or declined, through the sandbox simulation; its reference. */
async function payin(api: TestApp, amount: number, outcome: 'successful' | 'failed', credential: TestCredential = MERCHANT_A): Promise<string> {
  const reference = `bal-${Date.now()}-${sequence++}`;
  expect((await signedCall(api.baseUrl, { path: PAYINS, body: JSON.stringify({ amount, currency: 'NGN', customerEmail: 'ada@example.com', reference }), credential })).status).toBe(201);
  expect((await signedCall(api.baseUrl, { path: `${PAYINS}/${reference}/simulate`, body: JSON.stringify({ outcome }), credential })).status).toBe(200);
  return reference;
}
const get = (api: TestApp, path: string, credential: TestCredential = MERCHANT_A) => signedCall(api.baseUrl, { path, credential });

describe('the balance in sandbox, where a payin settles at once', () => {
  let api: TestApp;
  beforeAll(async () => {
    api = await startTestApp();
  });
  afterAll(() => api.close());

  it('starts at zero, with no entries', async () => {
    expect((await get(api, BALANCE)).json).toEqual({ currency: 'NGN', available: 0, pending: 0, held: 0 });
    expect((await get(api, ENTRIES)).json).toEqual({ data: [], hasMore: false, nextCursor: null });
  });

  it("credits a successful payin less the merchant's fee, shows the fee on the payin, and lists each movement as an entry", async () => {
    const reference = await payin(api, 1000.5, 'successful');
    // 1.5 % of ₦1,000.50, rounded half up to the kobo: the default fees.
    expect((await get(api, `${PAYINS}/${reference}`)).json).toMatchObject({ status: 'SUCCESSFUL', amount: 1000.5, fee: 15.01 });
    expect((await get(api, BALANCE)).json).toEqual({ currency: 'NGN', available: 985.49, pending: 0, held: 0 });
    const first = await get(api, `${ENTRIES}?limit=2`);
    expect(first.json).toMatchObject({
      data: [
        { type: 'settlement', balance: 'available', amount: 985.49, currency: 'NGN', objectType: 'payin', reference },
        { type: 'settlement', balance: 'pending', amount: -985.49, reference },
      ],
      hasMore: true,
    });
    const next = await get(api, `${ENTRIES}?limit=2&cursor=${first.json.nextCursor as string}`);
    expect(next.json).toMatchObject({
      data: [
        { type: 'payin_fee', balance: 'pending', amount: -15.01, reference },
        { type: 'payin_credit', balance: 'pending', amount: 1000.5, reference },
      ],
      hasMore: false,
      nextCursor: null,
    });
  });

  it('credits nothing for a payin that did not succeed, and shows it no fee', async () => {
    const before = (await get(api, BALANCE)).json;
    const reference = await payin(api, 700, 'failed');
    expect((await get(api, `${PAYINS}/${reference}`)).json).toMatchObject({ status: 'FAILED', fee: null });
    expect((await get(api, BALANCE)).json).toEqual(before);
  });

  it("charges each merchant its own fees, and shows each only its own money: merchant B's 2 % stops at its ₦500 cap", async () => {
    const reference = await payin(api, 50_000, 'successful', MERCHANT_B);
    expect((await get(api, `${PAYINS}/${reference}`, MERCHANT_B)).json).toMatchObject({ fee: 500 });
    expect((await get(api, BALANCE, MERCHANT_B)).json).toEqual({ currency: 'NGN', available: 49_500, pending: 0, held: 0 });
    const entriesOfB = (await get(api, ENTRIES, MERCHANT_B)).json.data as Array<{ reference: string }>;
    expect(new Set(entriesOfB.map((entry) => entry.reference))).toEqual(new Set([reference]));
    expect((await get(api, BALANCE)).json).toMatchObject({ available: 985.49 });
  });

  it('answers another currency on its own: no NGN money in USD', async () => {
    expect((await get(api, `${BALANCE}?currency=USD`)).json).toEqual({ currency: 'USD', available: 0, pending: 0, held: 0 });
    expect((await get(api, `${ENTRIES}?currency=USD`)).json).toEqual({ data: [], hasMore: false, nextCursor: null });
  });

  it.each([
    ['an unknown currency', `${BALANCE}?currency=XYZ`, 'currency', 'enum'],
    ['an unknown parameter', `${BALANCE}?limit=2`, 'limit', 'unknown'],
    ['a limit out of range', `${ENTRIES}?limit=101`, 'limit', 'range'],
    ['a cursor this service never issued', `${ENTRIES}?cursor=WyJ4Il0`, 'cursor', 'invalid'],
    ['a repeated parameter', `${ENTRIES}?currency=NGN&currency=USD`, 'currency', 'repeated'],
  ])('refuses %s with 400 and the field that is wrong', async (_case, path, field, code) => {
    const refused = await get(api, path);
    expect(refused.status).toBe(400);
    expect(refused.json).toMatchObject({ code: 'VALIDATION_FAILED', details: [expect.objectContaining({ field, code })] });
  });

  it('refuses a cursor issued for another currency, saying so', async () => {
    await payin(api, 10, 'successful');
    const page = await get(api, `${ENTRIES}?limit=1`);
    const refused = await get(api, `${ENTRIES}?currency=USD&cursor=${page.json.nextCursor as string}`);
    expect(refused.status).toBe(400);
    expect(refused.json).toMatchObject({ details: [expect.objectContaining({ field: 'cursor', message: expect.stringContaining('another currency') })] });
  });
});

describe('settlement after SETTLEMENT_DELAY_SECONDS', () => {
  const clock = new TestClock();
  let api: TestApp;
  beforeAll(async () => {
    // The store's clock only: settlement is due by it, while requests are still signed and checked in real time.
    api = await startTestApp({ SETTLEMENT_DELAY_SECONDS: '3600', SETTLEMENT_INTERVAL_MS: '3600000' }, { overrides: { storeClock: clock.now } });
  });
  afterAll(() => api.close());

  it("keeps a payin's money pending until the delay has passed by the store's clock, then makes it available", async () => {
    await payin(api, 1000.5, 'successful');
    expect((await get(api, BALANCE)).json).toEqual({ currency: 'NGN', available: 0, pending: 985.49, held: 0 });
    clock.advance(3_599_000);
    await api.app.get(JobRunner).runNow('settlement');
    expect((await get(api, BALANCE)).json).toMatchObject({ available: 0, pending: 985.49 });
    clock.advance(1_000);
    await api.app.get(JobRunner).runNow('settlement');
    expect((await get(api, BALANCE)).json).toEqual({ currency: 'NGN', available: 985.49, pending: 0, held: 0 });
  });
});
