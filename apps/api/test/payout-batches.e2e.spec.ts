// Payout batches over HTTP, on the real app: payouts join one signed request at a time, hold their money at once, and are sent when the batch is submitted.
import { SANDBOX_PAYOUT_ACCOUNTS } from '../src/providers/sandbox/sandbox-payout-accounts';
import { SqlClient } from '../src/db/sql-client';
import { JobRunner } from '../src/jobs/job-runner';
import { checkLedger } from '../src/ledger-invariants';
import { PayoutDispatcher } from '../src/payouts/payout-dispatcher';
import type { Payout, PayoutBatch, PayoutList } from '@paysign/contracts';
import { signedCall } from './support/api-client';
import { MERCHANT_A, MERCHANT_B, type TestCredential } from './support/credentials';
import { APPROVER_A, payoutMerchantsFile } from './support/payout-merchants';
import { TestClock } from './support/test-clock';
import { startEmbeddedTestApp, startTestApp, type TestApp } from './support/test-app';

const PAYOUTS = '/payment/api/payouts';
const BATCHES = '/payment/api/payout-batches';
const BATCH_TTL_SECONDS = 7200;
const FAILING = SANDBOX_PAYOUT_ACCOUNTS.find((account) => account.behaviour.kind === 'fails') as (typeof SANDBOX_PAYOUT_ACCOUNTS)[number];
let sequence = 0;
const unique = (prefix: string) => `${prefix}-${Date.now()}-${sequence++}`;

function batchSuite(name: string, start: (env: Record<string, string>, options: { overrides: { storeClock: () => number }; startJobs: false }) => Promise<TestApp>) {
  describe(`payout batches on ${name}`, () => {
    const clock = new TestClock();
    let api: TestApp;
    const call = (credential: TestCredential, method: 'GET' | 'POST', pathAndQuery: string, body?: unknown) =>
      signedCall(api.baseUrl, { method, path: pathAndQuery, credential, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    const balance = async (credential: TestCredential) => (await call(credential, 'GET', '/payment/api/balance')).json as { available: number; held: number };
    const enquire = async (credential: TestCredential, account: { bankCode: string; accountNumber: string } = { bankCode: '058', accountNumber: '0123456785' }) =>
      (await call(credential, 'POST', '/payment/merchant-api/account/inquiry', account)).json.enquiryId as string;
    const openBatch = async (credential: TestCredential, title = 'November payroll') => {
      const reference = unique('batch');
      const created = await call(credential, 'POST', BATCHES, { reference, title });
      expect(created.status).toBe(201);
      return reference;
    };
    const join = async (credential: TestCredential, batchReference: string, amount: number, enquiryId?: string) => {
      const reference = unique('item');
      const created = await call(credential, 'POST', PAYOUTS, { reference, amount, currency: 'NGN', enquiryId: enquiryId ?? (await enquire(credential)), narration: 'Salary', batchReference });
      expect(created.status).toBe(201);
      return created.json as unknown as Payout;
    };
    const batchOf = async (credential: TestCredential, reference: string) => (await call(credential, 'GET', `${BATCHES}/${reference}`)).json as unknown as PayoutBatch;
    const submit = (credential: TestCredential, reference: string, expectedCount: number, expectedTotal: number) =>
      call(credential, 'POST', `${BATCHES}/${reference}/submit`, { expectedCount, expectedTotal });
    const runJob = async (job: string) => {
      await api.app.get(JobRunner).runNow(job);
      await api.app.get(PayoutDispatcher).idle();
    };
    const batchEvents = async (reference: string) =>
      (await api.app.get<SqlClient>(SqlClient).query<{ type: string; payload: string }>("SELECT type, payload FROM outbox_events WHERE object_type = 'payout_batch' AND object_id = $1", [reference])).rows;

    beforeAll(async () => {
      api = await start(
        { MERCHANTS_FILE: payoutMerchantsFile(undefined, { approvalA: { required: true, thresholdNaira: 0 } }), SANDBOX_PAYOUT_DELAY_MS: '0', PAYOUT_BATCH_TTL_SECONDS: String(BATCH_TTL_SECONDS), PAYOUT_DAILY_LIMIT: '10000000', PAYOUT_DISPATCH_CONCURRENCY: '5', PAYOUT_BATCH_MAX_ITEMS: '15' },
        { overrides: { storeClock: clock.now }, startJobs: false },
      );
      for (const credential of [MERCHANT_A, MERCHANT_B]) {
        const payin = unique('fund');
        expect((await call(credential, 'POST', '/payment/api/payins', { amount: 500_000, currency: 'NGN', customerEmail: 'ada@example.com', reference: payin })).status).toBe(201);
        expect((await call(credential, 'POST', `/payment/api/payins/${payin}/simulate`, { outcome: 'successful' })).status).toBe(200);
      }
    });
    afterEach(async () => expect(await checkLedger(api.app.get<SqlClient>(SqlClient))).toEqual([]));
    afterAll(() => api.close());

    it('opens a batch idempotently by reference, and refuses the reference with another title', async () => {
      const reference = unique('batch');
      const created = await call(MERCHANT_B, 'POST', BATCHES, { reference, title: 'Vendors' });
      expect(created.status).toBe(201);
      expect(created.headers.get('location')).toBe(`${BATCHES}/${reference}`);
      expect(created.json).toMatchObject({ reference, status: 'OPEN', title: 'Vendors', itemCount: 0, total: 0, byStatus: [], approvalRequired: false, createdBy: MERCHANT_B.apiKey, version: 1 });
      expect(Date.parse(String(created.json.expiresAt)) - clock.now()).toBe(BATCH_TTL_SECONDS * 1000);
      const replay = await call(MERCHANT_B, 'POST', BATCHES, { reference, title: 'Vendors' });
      expect([replay.status, replay.headers.get('idempotent-replayed')]).toEqual([200, 'true']);
      expect((await call(MERCHANT_B, 'POST', BATCHES, { reference, title: 'Other' })).json.code).toBe('IDEMPOTENCY_CONFLICT');
      expect((await call(MERCHANT_A, 'GET', `${BATCHES}/${reference}`)).json.code).toBe('PAYOUT_BATCH_NOT_FOUND');
    });

    it('holds each payout that joins, sends none before the batch is submitted, and sends them all after; the batch completes with its event', async () => {
      const before = await balance(MERCHANT_B);
      const batch = await openBatch(MERCHANT_B);
      const items = [await join(MERCHANT_B, batch, 1000), await join(MERCHANT_B, batch, 2500.5), await join(MERCHANT_B, batch, 300, await enquire(MERCHANT_B, { bankCode: FAILING.bankCode, accountNumber: FAILING.accountNumber }))];
      expect(items.map((item) => [item.status, item.batchReference, item.approval])).toEqual(Array(3).fill(['BATCHED', batch, null]));
      expect(await balance(MERCHANT_B)).toMatchObject({ available: before.available - 3800.5 - 75, held: before.held + 3800.5 + 75 });
      expect(await batchOf(MERCHANT_B, batch)).toMatchObject({ itemCount: 3, total: 3800.5, fees: 75, byStatus: [{ status: 'BATCHED', count: 3, amount: 3800.5, fees: 75 }] });
      await runJob('payout-dispatch');
      expect((await call(MERCHANT_B, 'GET', `${PAYOUTS}/${items[0]?.reference}`)).json.status).toBe('BATCHED');

      const wrongCount = await submit(MERCHANT_B, batch, 4, 3800.5);
      expect(wrongCount.status).toBe(409);
      expect(wrongCount.json.code).toBe('PAYOUT_BATCH_MISMATCH');
      expect(wrongCount.json.message).toContain('holds 3 payouts totalling NGN 3800.50; you expected 4 totalling NGN 3800.50');
      const wrongTotal = await submit(MERCHANT_B, batch, 3, 3800);
      expect(wrongTotal.json.message).toContain('holds 3 payouts totalling NGN 3800.50; you expected 3 totalling NGN 3800.00');
      expect(wrongTotal.json.details).toEqual([{ field: 'expectedTotal', code: 'mismatch', message: "The batch's payouts total NGN 3800.50; you expected NGN 3800.00." }]);
      expect((wrongCount.json.details as Array<{ field: string }>).map((detail) => detail.field)).toEqual(['expectedCount']);
      expect((await batchOf(MERCHANT_B, batch)).status).toBe('OPEN');

      const submitted = await submit(MERCHANT_B, batch, 3, 3800.5);
      expect(submitted.status).toBe(200);
      expect(submitted.json).toMatchObject({ status: 'SUBMITTED', submittedBy: MERCHANT_B.apiKey, expiresAt: null, byStatus: [{ status: 'QUEUED', count: 3, amount: 3800.5 }] });
      expect((await submit(MERCHANT_B, batch, 3, 3800.5)).json.status).toBe('SUBMITTED');
      expect((await submit(MERCHANT_B, batch, 3, 3800)).json.code).toBe('PAYOUT_BATCH_NOT_OPEN');
      const late = await call(MERCHANT_B, 'POST', PAYOUTS, { reference: unique('late'), amount: 100, currency: 'NGN', enquiryId: await enquire(MERCHANT_B), narration: 'Late', batchReference: batch });
      expect([late.status, late.json.code]).toEqual([409, 'PAYOUT_BATCH_NOT_OPEN']);

      await runJob('payout-dispatch');
      const done = await batchOf(MERCHANT_B, batch);
      expect(done).toMatchObject({ status: 'COMPLETED', completedAt: expect.any(String), itemCount: 3, byStatus: [{ status: 'SUCCESSFUL', count: 2, amount: 3500.5 }, { status: 'FAILED', count: 1, amount: 300 }] });
      const events = await batchEvents(batch);
      expect(events.map((event) => event.type)).toEqual(['payout_batch.completed']);
      expect(JSON.parse(events[0]?.payload as string)).toEqual({ type: 'payout_batch.completed', version: done.version, timestamp: done.completedAt, data: done });
      expect(await balance(MERCHANT_B)).toMatchObject({ available: before.available - 3500.5 - 50, held: before.held });
      const listed = (await call(MERCHANT_B, 'GET', `${PAYOUTS}?batchReference=${batch}&limit=2`)).json as unknown as PayoutList;
      expect(listed.data).toHaveLength(2);
      expect(listed.hasMore).toBe(true);
      const rest = (await call(MERCHANT_B, 'GET', `${PAYOUTS}?batchReference=${batch}&limit=2&cursor=${listed.nextCursor}`)).json as unknown as PayoutList;
      expect([...listed.data, ...rest.data].map((item) => item.reference).sort()).toEqual(items.map((item) => item.reference).sort());
      const foreignCursor = await call(MERCHANT_B, 'GET', `${PAYOUTS}?limit=2&cursor=${listed.nextCursor}`);
      expect([foreignCursor.status, (foreignCursor.json.details as Array<{ field: string }>)[0]?.field]).toEqual([400, 'cursor']);
    });

    it('needs a second credential with payouts:approve to submit a batch whose payouts need approval, and records it on each payout', async () => {
      const batch = await openBatch(MERCHANT_A);
      const items = [await join(MERCHANT_A, batch, 1000), await join(MERCHANT_A, batch, 2000)];
      expect(items.map((item) => [item.status, item.approval?.status, item.approval?.expiresAt])).toEqual([
        ['PENDING_APPROVAL', 'pending', null],
        ['PENDING_APPROVAL', 'pending', null],
      ]);
      expect((await batchOf(MERCHANT_A, batch)).approvalRequired).toBe(true);
      const byCreator = await submit(MERCHANT_A, batch, 2, 3000);
      expect([byCreator.status, byCreator.json.code]).toEqual([403, 'APPROVER_REQUIRED']);
      const submitted = await submit(APPROVER_A, batch, 2, 3000);
      expect(submitted.json).toMatchObject({ status: 'SUBMITTED', submittedBy: APPROVER_A.apiKey });
      for (const item of items) {
        expect((await call(MERCHANT_A, 'GET', `${PAYOUTS}/${item.reference}`)).json).toMatchObject({ status: 'QUEUED', approval: { status: 'approved', decidedBy: APPROVER_A.apiKey } });
      }
      await runJob('payout-dispatch');
      expect((await batchOf(MERCHANT_A, batch)).status).toBe('COMPLETED');
    });

    it('sends another merchant\'s payout in the first round after a submitted batch, not after the whole batch: merchants take turns', async () => {
      const batch = await openBatch(MERCHANT_B);
      const enquiryId = await enquire(MERCHANT_B);
      for (let i = 0; i < 12; i++) await join(MERCHANT_B, batch, 100, enquiryId);
      expect((await submit(MERCHANT_B, batch, 12, 1200)).status).toBe(200);
      const single = unique('single');
      expect((await call(MERCHANT_A, 'POST', PAYOUTS, { reference: single, amount: 500, currency: 'NGN', enquiryId: await enquire(MERCHANT_A), narration: 'Refund' })).status).toBe(201);
      expect((await call(APPROVER_A, 'POST', `${PAYOUTS}/${single}/approve`, {})).json.status).toBe('QUEUED');
      // One round of 5 slots: the 12 of the batch were queued first, yet merchant A's payout is in it.
      await runJob('payout-dispatch');
      expect((await call(MERCHANT_A, 'GET', `${PAYOUTS}/${single}`)).json.status).toBe('SUCCESSFUL');
      expect((await batchOf(MERCHANT_B, batch)).byStatus).toEqual([
        { status: 'QUEUED', count: 8, amount: 800, fees: 200 },
        { status: 'SUCCESSFUL', count: 4, amount: 400, fees: 100 },
      ]);
      for (let round = 0; round < 10 && (await batchOf(MERCHANT_B, batch)).status !== 'COMPLETED'; round++) await runJob('payout-dispatch');
      expect((await batchOf(MERCHANT_B, batch)).status).toBe('COMPLETED');
    });

    it('cancels an open batch with every payout in it, releasing their holds; a submitted one cannot be', async () => {
      const before = await balance(MERCHANT_B);
      const batch = await openBatch(MERCHANT_B);
      const items = [await join(MERCHANT_B, batch, 700), await join(MERCHANT_B, batch, 800)];
      const cancelled = await call(MERCHANT_B, 'POST', `${BATCHES}/${batch}/cancel`, {});
      expect(cancelled.json).toMatchObject({ status: 'CANCELLED', cancellationReason: 'cancelled_by_merchant', cancelledAt: expect.any(String), byStatus: [{ status: 'CANCELLED', count: 2, amount: 1500 }] });
      for (const item of items) expect((await call(MERCHANT_B, 'GET', `${PAYOUTS}/${item.reference}`)).json).toMatchObject({ status: 'CANCELLED', cancellationReason: 'batch_cancelled' });
      expect(await balance(MERCHANT_B)).toEqual(before);
      // A retry of the cancellation is answered the batch as it is; nothing is released twice.
      expect((await call(MERCHANT_B, 'POST', `${BATCHES}/${batch}/cancel`, {})).json).toEqual(cancelled.json);
      expect(await balance(MERCHANT_B)).toEqual(before);
      expect((await submit(MERCHANT_B, batch, 2, 1500)).json.code).toBe('PAYOUT_BATCH_NOT_OPEN');
    });

    it('cancels a batch not submitted within PAYOUT_BATCH_TTL_SECONDS, by the store clock', async () => {
      const before = await balance(MERCHANT_B);
      const batch = await openBatch(MERCHANT_B);
      await join(MERCHANT_B, batch, 900);
      clock.advance(BATCH_TTL_SECONDS * 1000 - 1000);
      await runJob('payout-expiry');
      expect((await batchOf(MERCHANT_B, batch)).status).toBe('OPEN');
      clock.advance(1000);
      // Past its expiry and not yet swept: it takes no payout and is not submitted.
      const late = await call(MERCHANT_B, 'POST', PAYOUTS, { reference: unique('late'), amount: 100, currency: 'NGN', enquiryId: await enquire(MERCHANT_B), narration: 'Late', batchReference: batch });
      expect([late.status, late.json.code]).toEqual([409, 'PAYOUT_BATCH_NOT_OPEN']);
      expect(late.json.message).toContain('past its expiry');
      expect((await submit(MERCHANT_B, batch, 1, 900)).json.code).toBe('PAYOUT_BATCH_NOT_OPEN');
      await runJob('payout-expiry');
      expect(await batchOf(MERCHANT_B, batch)).toMatchObject({ status: 'CANCELLED', cancellationReason: 'batch_expired', byStatus: [{ status: 'CANCELLED', count: 1 }] });
      const expiredItem = (await call(MERCHANT_B, 'GET', `${PAYOUTS}?batchReference=${batch}`)).json.data as Payout[];
      expect(expiredItem).toEqual([expect.objectContaining({ status: 'CANCELLED', cancellationReason: 'batch_expired' })]);
      expect(await balance(MERCHANT_B)).toEqual(before);
    });

    it('holds at most PAYOUT_BATCH_MAX_ITEMS payouts in one batch, refusing the next with nothing held', async () => {
      const batch = await openBatch(MERCHANT_B);
      const enquiryId = await enquire(MERCHANT_B);
      for (let i = 0; i < 15; i++) await join(MERCHANT_B, batch, 100, enquiryId);
      const before = await balance(MERCHANT_B);
      const full = await call(MERCHANT_B, 'POST', PAYOUTS, { reference: unique('over'), amount: 100, currency: 'NGN', enquiryId, narration: 'Over', batchReference: batch });
      expect([full.status, full.json.code]).toEqual([422, 'PAYOUT_LIMIT_EXCEEDED']);
      expect(full.json.message).toContain('past the 15 payouts one batch holds (PAYOUT_BATCH_MAX_ITEMS)');
      expect(await balance(MERCHANT_B)).toEqual(before);
      expect((await call(MERCHANT_B, 'POST', `${BATCHES}/${batch}/cancel`, {})).status).toBe(200);
    });

    it('lists the merchant\'s batches newest first, by status, a page at a time, each with its totals', async () => {
      const references = [await openBatch(MERCHANT_B, 'First'), await openBatch(MERCHANT_B, 'Second'), await openBatch(MERCHANT_B, 'Third')];
      await join(MERCHANT_B, references[1] as string, 400);
      const page = (await call(MERCHANT_B, 'GET', `${BATCHES}?status=OPEN&limit=2`)).json as unknown as { data: PayoutBatch[]; hasMore: boolean; nextCursor: string };
      expect(page.data.map((batch) => batch.reference)).toEqual([references[2], references[1]]);
      expect(page.data[1]).toMatchObject({ itemCount: 1, total: 400, byStatus: [{ status: 'BATCHED', count: 1, amount: 400 }] });
      expect(page.hasMore).toBe(true);
      const next = (await call(MERCHANT_B, 'GET', `${BATCHES}?status=OPEN&limit=2&cursor=${page.nextCursor}`)).json as unknown as { data: PayoutBatch[] };
      expect(next.data.map((batch) => batch.reference)).toContain(references[0]);
      expect(((await call(MERCHANT_A, 'GET', `${BATCHES}?limit=100`)).json.data as PayoutBatch[]).every((batch) => batch.merchantId === MERCHANT_A.merchantId)).toBe(true);
      expect((await call(MERCHANT_B, 'GET', `${BATCHES}?status=DONE`)).status).toBe(400);
      expect((await call(MERCHANT_B, 'GET', `${PAYOUTS}?limit=2&cursor=${page.nextCursor}`)).status).toBe(400);
      for (const reference of references) expect((await call(MERCHANT_B, 'POST', `${BATCHES}/${reference}/cancel`, {})).status).toBe(200);
    });

    it('refuses bad input with the documented 400s and a batch that is not there with 404', async () => {
      const bad = await call(MERCHANT_B, 'POST', BATCHES, { reference: 'has space', title: '' });
      expect(bad.status).toBe(400);
      expect((bad.json.details as Array<{ field: string }>).map((detail) => detail.field).sort()).toEqual(['reference', 'title']);
      const batch = await openBatch(MERCHANT_B);
      const badSubmit = await call(MERCHANT_B, 'POST', `${BATCHES}/${batch}/submit`, { expectedCount: 1.5, expectedTotal: 10.001 });
      expect((badSubmit.json.details as Array<{ field: string }>).map((detail) => detail.field).sort()).toEqual(['expectedCount', 'expectedTotal']);
      const huge = await call(MERCHANT_B, 'POST', `${BATCHES}/${batch}/submit`, { expectedCount: 1, expectedTotal: 1e21 });
      expect([huge.status, (huge.json.details as Array<{ field: string }>)[0]?.field]).toEqual([400, 'expectedTotal']);
      const missing = await call(MERCHANT_B, 'POST', PAYOUTS, { reference: unique('x'), amount: 100, currency: 'NGN', enquiryId: await enquire(MERCHANT_B), narration: 'x', batchReference: 'no-such-batch' });
      expect([missing.status, missing.json.code]).toEqual([404, 'PAYOUT_BATCH_NOT_FOUND']);
      expect((await call(MERCHANT_B, 'GET', `${PAYOUTS}?batchReference=not%20valid`)).status).toBe(400);
      expect((await call(MERCHANT_B, 'POST', `${BATCHES}/${batch}/cancel`, {})).status).toBe(200);
    });
  });
}

batchSuite('PostgreSQL', (env, options) => startTestApp(env, options));
batchSuite('PGlite', (env, options) => startEmbeddedTestApp(env, options));
