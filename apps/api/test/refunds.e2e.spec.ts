// Refunds over HTTP, on the real app: held in the ledger, sent to the payin's provider of record, settled by its answers.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { SqlClient } from '../src/db/sql-client';
import { JobRunner } from '../src/jobs/job-runner';
import { checkLedger } from '../src/ledger-invariants';
import { RefundDispatcher } from '../src/refunds/refund-dispatcher';
import { signedCall } from './support/api-client';
import { MERCHANT_A, MERCHANT_B, WEBHOOK_SECRETS_A, WEBHOOK_SECRET_B, type TestCredential } from './support/credentials';
import { DATABASE_URL, createPrivateDatabase, describeWithStore } from './support/stores';
import { TestClock } from './support/test-clock';
import { startEmbeddedTestApp, startProductionTestApp, startTestApp, type TestApp } from './support/test-app';

const REFUNDS = '/payment/api/refunds';
const DAY_MS = 86_400_000;

let sequence = 0;
const unique = (prefix: string) => `${prefix}-${Date.now()}-${sequence++}`;

/** Merchant A pays the default payin fee (1.5 %) and keeps none of it on a refund; merchant B has its fee returned with its refunds. */
function refundMerchantsFile(webhookUrl = 'http://127.0.0.1:9/hooks'): string {
  const entry = (c: TestCredential, name: string, webhookSecrets: readonly string[], fees: Record<string, unknown>) => ({
    merchantId: c.merchantId,
    tenantId: c.tenantId,
    name,
    webhookSecrets,
    webhookUrl,
    fees,
    credentials: [{ apiKey: c.apiKey, secretKey: c.secretKey }],
  });
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'refund-merchants-')), 'merchants.json');
  fs.writeFileSync(file, JSON.stringify([entry(MERCHANT_A, 'Merchant A', WEBHOOK_SECRETS_A, { payinPercent: 1.5 }), entry(MERCHANT_B, 'Merchant B', [WEBHOOK_SECRET_B], { payinPercent: 1.5, refundReturnsFee: true })]));
  return file;
}

/** The calls a merchant makes, against one app. */
function merchantOf(api: TestApp, credential: TestCredential) {
  const call = (method: 'GET' | 'POST', pathAndQuery: string, body?: unknown) =>
    signedCall(api.baseUrl, { method, path: pathAndQuery, credential, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  return {
    call,
    /** A payin of `naira`, made successful; its reference. */
    async paid(naira: number): Promise<string> {
      const reference = unique('order');
      expect((await call('POST', '/payment/api/payins', { amount: naira, currency: 'NGN', customerEmail: 'ada@example.com', reference })).status).toBe(201);
      expect((await call('POST', `/payment/api/payins/${reference}/simulate`, { outcome: 'successful' })).status).toBe(200);
      return reference;
    },
    balance: async () => (await call('GET', '/payment/api/balance')).json,
    payin: async (reference: string) => (await call('GET', `/payment/api/payins/${reference}`)).json,
    refund: (body: Record<string, unknown>) => call('POST', REFUNDS, body),
    get: (reference: string) => call('GET', `${REFUNDS}/${reference}`),
    async enquire(): Promise<string> {
      const enquiry = await call('POST', '/payment/merchant-api/account/inquiry', { bankCode: '058', accountNumber: '0123456785' });
      expect(enquiry.status).toBe(200);
      return enquiry.json.enquiryId as string;
    },
  };
}

async function runJob(api: TestApp, job: 'refund-dispatch' | 'refund-status-check' | 'settlement'): Promise<void> {
  await api.app.get(JobRunner).runNow(job);
  await api.app.get(RefundDispatcher).idle();
}

const ledgerHolds = async (api: TestApp) => expect(await checkLedger(api.app.get<SqlClient>(SqlClient))).toEqual([]);

function refundSuite(name: string, start: (env: Record<string, string>, options: { overrides: { storeClock: () => number }; startJobs: false }) => Promise<TestApp>) {
  describe(`refunds on ${name}`, () => {
    const clock = new TestClock();
    let api: TestApp;
    let a: ReturnType<typeof merchantOf>;
    let b: ReturnType<typeof merchantOf>;
    beforeAll(async () => {
      // Settlement waits a day, so that a fresh payin's credit is still pending: the jobs run when a test runs them.
      api = await start({ MERCHANTS_FILE: refundMerchantsFile(), SETTLEMENT_DELAY_SECONDS: '86400', REFUND_WINDOW_DAYS: '30' }, { overrides: { storeClock: clock.now }, startJobs: false });
      a = merchantOf(api, MERCHANT_A);
      b = merchantOf(api, MERCHANT_B);
      // Money settled beforehand, so that a refund drawn from available finds it.
      await a.paid(20_000);
      await b.paid(2_000);
      clock.advance(DAY_MS + 1000);
      await runJob(api, 'settlement');
    });
    afterEach(() => ledgerHolds(api));
    afterAll(() => api.close());

    it('refunds part of an unsettled payin from pending, then the rest from available once it settled; the payin and the balance add up', async () => {
      const before = await a.balance();
      const payin = await a.paid(10_000); // fee 150: 9,850 credited to pending
      expect(await a.balance()).toMatchObject({ pending: (before.pending as number) + 9850 });
      const reference = unique('rf');
      const body = { reference, payinReference: payin, amount: 4000, reason: 'requested_by_customer', customerNote: 'One item was out of stock' };
      const created = await a.refund(body);
      expect(created.status).toBe(201);
      expect(created.headers.get('location')).toBe(`${REFUNDS}/${reference}`);
      expect(created.json).toMatchObject({ reference, payinReference: payin, status: 'PENDING', amount: 4000, fundedFrom: 'pending', feeReturned: 0, provider: 'sandbox', providerReference: null, version: 1 });
      expect(await a.balance()).toMatchObject({ pending: (before.pending as number) + 5850, held: (before.held as number) + 4000, available: before.available });
      expect(await a.payin(payin)).toMatchObject({ status: 'SUCCESSFUL', amountRefunded: 0, amountRefundable: 6000 });
      const replay = await a.refund(body);
      expect([replay.status, replay.headers.get('idempotent-replayed')]).toEqual([200, 'true']);
      expect((await a.refund({ ...body, amount: 4001 })).json.code).toBe('IDEMPOTENCY_CONFLICT');

      await runJob(api, 'refund-dispatch');
      expect((await a.get(reference)).json).toMatchObject({ status: 'SUCCESSFUL', version: 3, providerReference: expect.stringMatching(/^psr_/), completedAt: expect.any(String) });
      expect(await a.balance()).toMatchObject({ pending: (before.pending as number) + 5850, held: before.held });
      expect(await a.payin(payin)).toMatchObject({ amountRefunded: 4000, amountRefundable: 6000 });

      // The day passes: the credit settles less the refund, 5,850; the rest of the payin is refunded from available.
      clock.advance(DAY_MS + 1000);
      await runJob(api, 'settlement');
      expect(await a.balance()).toMatchObject({ pending: before.pending, available: (before.available as number) + 5850 });
      const rest = await a.refund({ reference: unique('rf'), payinReference: payin });
      expect(rest.json).toMatchObject({ status: 'PENDING', amount: 6000, fundedFrom: 'available' });
      await runJob(api, 'refund-dispatch');
      expect(await a.payin(payin)).toMatchObject({ status: 'SUCCESSFUL', amountRefunded: 10_000, amountRefundable: 0 });
      // 10,000 in, 150 fee kept, 10,000 back out: the merchant is 150 short of where it started.
      expect(await a.balance()).toMatchObject({ available: (before.available as number) - 150, pending: before.pending, held: before.held });
      const entries = ((await a.call('GET', '/payment/api/balance/entries?limit=3')).json.data as Array<Record<string, unknown>>).map((e) => [e.type, e.balance, e.amount, e.objectType]);
      expect(entries).toEqual([
        ['refund_debit', 'held', -6000, 'refund'],
        ['refund_hold', 'held', 6000, 'refund'],
        ['refund_hold', 'available', -6000, 'refund'],
      ]);
      // Sorted: the store's clock stands still in this suite, so the events share their instant.
      const events = ((await a.call('GET', `${REFUNDS}/${reference}/events`)).json.data as Array<{ type: string }>).map((e) => e.type).sort();
      expect(events).toEqual(['refund.pending', 'refund.processing', 'refund.successful']);

      const exceeds = await a.refund({ reference: unique('rf'), payinReference: payin, amount: 1 });
      expect([exceeds.status, exceeds.json.code]).toEqual([422, 'REFUND_EXCEEDS_PAYIN']);
      expect(exceeds.json.message).toContain('It was NGN 10000.00, of which NGN 10000.00 is refunded or being refunded, so at most NGN 0.00 can be refunded');
      expect(exceeds.json.details).toEqual([{ field: 'amount', code: 'exceeds_payin', message: 'payin: 10000.00, refunded or in flight: 10000.00, left: 0.00' }]);
    });

    it('counts a refund in flight against what is left, and gives it back when the provider fails it', async () => {
      const payin = await a.paid(2000);
      clock.advance(DAY_MS + 1000);
      await runJob(api, 'settlement');
      const before = await a.balance();
      const failing = await a.refund({ reference: unique('rf'), payinReference: payin, amount: 1500.51 });
      expect(failing.json).toMatchObject({ status: 'PENDING', fundedFrom: 'available' });
      const tooMuch = await a.refund({ reference: unique('rf'), payinReference: payin, amount: 500 });
      expect([tooMuch.status, tooMuch.json.code]).toEqual([422, 'REFUND_EXCEEDS_PAYIN']);
      await runJob(api, 'refund-dispatch');
      expect((await a.get(failing.json.reference as string)).json).toMatchObject({ status: 'FAILED', failureReason: 'declined_by_provider' });
      expect(await a.balance()).toEqual(before);
      expect(await a.payin(payin)).toMatchObject({ amountRefunded: 0, amountRefundable: 2000 });
    });

    it('cancels a refund not yet sent and releases its hold; one sent is 409 REFUND_NOT_CANCELLABLE', async () => {
      const payin = await a.paid(3000);
      const before = await a.balance();
      const pending = await a.refund({ reference: unique('rf'), payinReference: payin, amount: 1000 });
      const cancelled = await a.call('POST', `${REFUNDS}/${pending.json.reference as string}/cancel`, {});
      expect(cancelled.json).toMatchObject({ status: 'CANCELLED', version: 2 });
      expect(await a.balance()).toEqual(before);
      const slow = await a.refund({ reference: unique('rf'), payinReference: payin, amount: 1000.53 });
      await runJob(api, 'refund-dispatch');
      expect((await a.get(slow.json.reference as string)).json).toMatchObject({ status: 'PROCESSING', nextStatusCheckAt: expect.any(String) });
      const refused = await a.call('POST', `${REFUNDS}/${slow.json.reference as string}/cancel`, {});
      expect([refused.status, refused.json.code]).toEqual([409, 'REFUND_NOT_CANCELLABLE']);
      const simulated = await a.call('POST', `${REFUNDS}/${slow.json.reference as string}/simulate`, { outcome: 'successful' });
      expect(simulated.json).toMatchObject({ status: 'SUCCESSFUL' });
      const again = await a.call('POST', `${REFUNDS}/${slow.json.reference as string}/simulate`, { outcome: 'failed' });
      expect([again.status, again.json.code]).toEqual([409, 'REFUND_TRANSITION_NOT_ALLOWED']);
    });

    it('takes a refund the provider cannot return to the card to REQUIRES_ACTION, then sends it to the account of an enquiry', async () => {
      const payin = await a.paid(4000);
      const refund = await a.refund({ reference: unique('rf'), payinReference: payin, amount: 1200.52 });
      const reference = refund.json.reference as string;
      const early = await a.call('POST', `${REFUNDS}/${reference}/account`, { enquiryId: await a.enquire() });
      expect([early.status, early.json.code]).toEqual([409, 'REFUND_NOT_AWAITING_ACCOUNT']);
      await runJob(api, 'refund-dispatch');
      expect((await a.get(reference)).json).toMatchObject({ status: 'REQUIRES_ACTION', account: null, nextStatusCheckAt: expect.any(String) });
      const unknown = await a.call('POST', `${REFUNDS}/${reference}/account`, { enquiryId: 'enq_AAAAAAAAAAAAAAAAAAAAAA' });
      expect([unknown.status, unknown.json.code]).toEqual([422, 'ENQUIRY_NOT_FOUND']);
      const given = await a.call('POST', `${REFUNDS}/${reference}/account`, { enquiryId: await a.enquire() });
      expect(given.status).toBe(200);
      expect(given.json).toMatchObject({ status: 'PROCESSING', account: { bankCode: '058', accountNumber: '0123456785', accountName: 'ADAEZE NWOSU' } });
      await api.app.get(RefundDispatcher).idle();
      expect((await a.get(reference)).json).toMatchObject({ status: 'SUCCESSFUL' });
      const events = ((await a.call('GET', `${REFUNDS}/${reference}/events`)).json.data as Array<{ type: string }>).map((e) => e.type).sort();
      expect(events).toEqual(['refund.pending', 'refund.processing', 'refund.processing', 'refund.requires_action', 'refund.successful']);
    });

    it('keeps asking the provider about a refund waiting for an account, and releases its hold when the provider fails it', async () => {
      const payin = await a.paid(4000);
      const before = await a.balance();
      const refund = await a.refund({ reference: unique('rf'), payinReference: payin, amount: 700.52 });
      const reference = refund.json.reference as string;
      await runJob(api, 'refund-dispatch');
      const waiting = (await a.get(reference)).json;
      expect(waiting).toMatchObject({ status: 'REQUIRES_ACTION', nextStatusCheckAt: expect.any(String) });
      // The sandbox still says it needs an account: the check moves nothing, and asks again later.
      clock.advance(3_601_000);
      await runJob(api, 'refund-status-check');
      expect((await a.get(reference)).json).toMatchObject({ status: 'REQUIRES_ACTION', version: waiting.version });
      expect(Date.parse((await a.get(reference)).json.nextStatusCheckAt as string)).toBeGreaterThan(Date.parse(waiting.nextStatusCheckAt as string));
      const failed = await a.call('POST', `${REFUNDS}/${reference}/simulate`, { outcome: 'failed' });
      expect(failed.json).toMatchObject({ status: 'FAILED', failureReason: 'declined_by_provider', nextStatusCheckAt: null });
      expect(await a.balance()).toEqual(before);
    });

    it('returns the fee in proportion for a merchant whose fees say so, exactly the fee over a full refund', async () => {
      const payin = await b.paid(1000); // fee 15
      clock.advance(DAY_MS + 1000);
      await runJob(api, 'settlement');
      const before = await b.balance();
      const third = await b.refund({ reference: unique('rf'), payinReference: payin, amount: 333.33 });
      const rest = await b.refund({ reference: unique('rf'), payinReference: payin });
      expect([third.json.feeReturned, rest.json.feeReturned]).toEqual([4.99, 10.01]);
      await runJob(api, 'refund-dispatch');
      expect(await b.balance()).toMatchObject({ available: (before.available as number) - 1000 + 15 });
    });

    it('refuses what cannot be refunded, holding nothing', async () => {
      const before = await b.balance();
      const unpaid = unique('order');
      await b.call('POST', '/payment/api/payins', { amount: 500, currency: 'NGN', customerEmail: 'ada@example.com', reference: unpaid });
      const pendingPayin = await b.refund({ reference: unique('rf'), payinReference: unpaid });
      expect([pendingPayin.status, pendingPayin.json.code, pendingPayin.json.message]).toEqual([409, 'PAYIN_NOT_REFUNDABLE', `Payin ${unpaid} is PENDING, not paid, so there is nothing to refund. Cancel it instead, or wait for it to succeed.`]);
      expect((await b.refund({ reference: unique('rf'), payinReference: 'no-such-payin' })).json.code).toBe('PAYIN_NOT_FOUND');
      // A payin of A's is not B's to refund.
      const ofA = await a.paid(100);
      expect((await b.refund({ reference: unique('rf'), payinReference: ofA })).json.code).toBe('PAYIN_NOT_FOUND');
      const invalid = await b.refund({ reference: unique('rf'), payinReference: ofA, amount: 10.001, reason: 'because' });
      expect([invalid.status, invalid.json.code, (invalid.json.details as Array<{ field: string }>).map((d) => d.field).sort()]).toEqual([400, 'VALIDATION_FAILED', ['amount', 'reason']]);
      // Unsettled, and the credit is no more than the refund: not from pending; and available does not cover it.
      const fresh = await b.paid(50_000);
      const short = await b.refund({ reference: unique('rf'), payinReference: fresh });
      expect([short.status, short.json.code]).toEqual([422, 'INSUFFICIENT_BALANCE']);
      expect(short.json.message).toContain('neither balance covers it');
      expect(await b.balance()).toMatchObject({ held: before.held });
    });

    it('says why a payin cannot be refunded: failed, flagged for an operator, or taken by a provider that cannot refund here', async () => {
      const failed = unique('order');
      await b.call('POST', '/payment/api/payins', { amount: 500, currency: 'NGN', customerEmail: 'ada@example.com', reference: failed });
      await b.call('POST', `/payment/api/payins/${failed}/simulate`, { outcome: 'failed' });
      const ofFailed = await b.refund({ reference: unique('rf'), payinReference: failed });
      expect([ofFailed.status, ofFailed.json.code, ofFailed.json.message]).toEqual([409, 'PAYIN_NOT_REFUNDABLE', `Payin ${failed} is FAILED: no money was taken, so there is nothing to refund.`]);
      const db = api.app.get<SqlClient>(SqlClient);
      const flagged = await b.paid(500);
      await db.query('UPDATE payins SET needs_attention = true WHERE merchant_id = $1 AND reference = $2', [MERCHANT_B.merchantId, flagged]);
      const ofFlagged = await b.refund({ reference: unique('rf'), payinReference: flagged });
      expect([ofFlagged.status, ofFlagged.json.code]).toEqual([409, 'PAYIN_NOT_REFUNDABLE']);
      expect(ofFlagged.json.message).toContain('is flagged needsAttention');
      await db.query('UPDATE payins SET needs_attention = false WHERE merchant_id = $1 AND reference = $2', [MERCHANT_B.merchantId, flagged]);
      // A payin of a provider this deployment no longer configures: nothing is held, and nothing is sent anywhere else.
      const elsewhere = await b.paid(500);
      await db.query("UPDATE payins SET provider = 'retired-provider' WHERE merchant_id = $1 AND reference = $2", [MERCHANT_B.merchantId, elsewhere]);
      const before = await b.balance();
      const ofRetired = await b.refund({ reference: unique('rf'), payinReference: elsewhere });
      expect([ofRetired.status, ofRetired.json.code]).toEqual([422, 'REFUND_PROVIDER_NOT_CONFIGURED']);
      expect(ofRetired.json.message).toContain('was taken by provider retired-provider, which cannot refund in this deployment');
      expect(await b.balance()).toEqual(before);
    });

    it("answers 404 for another merchant's refund on every route, and lists only the caller's", async () => {
      const payin = await a.paid(700);
      const created = await a.refund({ reference: unique('rf'), payinReference: payin, amount: 100.53 });
      expect(created.status).toBe(201);
      const reference = created.json.reference as string;
      for (const [method, route, body] of [['GET', `${REFUNDS}/${reference}`], ['GET', `${REFUNDS}/${reference}/events`], ['POST', `${REFUNDS}/${reference}/cancel`, {}], ['POST', `${REFUNDS}/${reference}/account`, { enquiryId: 'enq_AAAAAAAAAAAAAAAAAAAAAA' }], ['POST', `${REFUNDS}/${reference}/simulate`, { outcome: 'successful' }]] as const) {
        const answer = await b.call(method, route, body);
        expect([route, answer.status, answer.json.code]).toEqual([route, 404, 'REFUND_NOT_FOUND']);
      }
      const listed = (await b.call('GET', `${REFUNDS}?payinReference=${payin}`)).json;
      expect(listed).toEqual({ data: [], hasMore: false, nextCursor: null });
      const ofA = (await a.call('GET', `${REFUNDS}?payinReference=${payin}&limit=1`)).json;
      expect((ofA.data as Array<{ reference: string }>).map((r) => r.reference)).toEqual([reference]);
      expect((await a.call('POST', `${REFUNDS}/${reference}/cancel`, {})).json).toMatchObject({ status: 'CANCELLED' });
    });

    // Last: the store's clock moves past the window of every payin made so far.
    it('refuses a payin paid more than REFUND_WINDOW_DAYS ago, holding nothing', async () => {
      const payin = await b.paid(300);
      clock.advance(31 * DAY_MS);
      const before = await b.balance();
      const late = await b.refund({ reference: unique('rf'), payinReference: payin, amount: 1 });
      expect([late.status, late.json.code]).toEqual([422, 'REFUND_WINDOW_CLOSED']);
      expect(late.json.message).toContain('more than 30 days ago (REFUND_WINDOW_DAYS)');
      expect(await b.balance()).toEqual(before);
    });
  });
}

refundSuite('PostgreSQL', (env, options) => startTestApp(env, options));
refundSuite('PGlite', (env, options) => startEmbeddedTestApp(env, options));

describe('refunds in production', () => {
  let api: TestApp;
  beforeAll(async () => {
    api = await startProductionTestApp({ MERCHANTS_FILE: refundMerchantsFile('https://merchant.example.com/hooks') });
  });
  afterAll(() => api.close());

  it('has no simulate route (404), and refuses a refund of a payin no provider here can refund', async () => {
    const a = merchantOf(api, MERCHANT_A);
    expect((await a.call('POST', `${REFUNDS}/anything/simulate`, { outcome: 'successful' })).json.code).toBe('ROUTE_NOT_FOUND');
    expect((await a.refund({ reference: unique('rf'), payinReference: 'no-such-payin' })).json.code).toBe('PAYIN_NOT_FOUND');
  });
});

describeWithStore('PostgreSQL', DATABASE_URL, 'refunds of one payin from two instances at once', () => {
  let database: { url: string; drop: () => Promise<void> };
  let instances: TestApp[];
  beforeAll(async () => {
    database = await createPrivateDatabase('paysign_refund_race');
    const env = { DATABASE_URL: database.url, MERCHANTS_FILE: refundMerchantsFile() };
    // Jobs stay off: what is raced is the creation of refunds, not their sending.
    instances = [await startTestApp(env, { startJobs: false }), await startTestApp(env, { startJobs: false })];
  });
  afterAll(async () => {
    for (const instance of instances) await instance.close();
    await database.drop();
  });

  it('accepts exactly 10 of 50 concurrent refunds of ₦1,000 against a ₦10,000 payin, and the ledger holds', async () => {
    const [one, two] = instances.map((instance) => merchantOf(instance, MERCHANT_A)) as [ReturnType<typeof merchantOf>, ReturnType<typeof merchantOf>];
    const payin = await one.paid(10_000);
    // More than enough available besides, so that only the payin's amount limits the refunds.
    await one.paid(20_000);
    const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => (i % 2 === 0 ? one : two).refund({ reference: `race-${i}`, payinReference: payin, amount: 1000 })));
    const codes = answers.map((answer) => (answer.status === 201 ? 'created' : (answer.json.code as string)));
    expect(codes.filter((code) => code === 'created')).toHaveLength(10);
    expect(codes.filter((code) => code === 'REFUND_EXCEEDS_PAYIN')).toHaveLength(40);
    expect(await one.payin(payin)).toMatchObject({ amountRefunded: 0, amountRefundable: 0 });
    expect(await checkLedger((instances[0] as TestApp).app.get<SqlClient>(SqlClient))).toEqual([]);
  });
});
