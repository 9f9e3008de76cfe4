// Four eyes over HTTP, on the real app: a payout at or above the merchant's threshold waits for a second credential with payouts:approve.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { SqlClient } from '../src/db/sql-client';
import { JobRunner } from '../src/jobs/job-runner';
import { checkLedger } from '../src/ledger-invariants';
import { PayoutDispatcher } from '../src/payouts/payout-dispatcher';
import type { Payout } from '@paysign/contracts';
import { signedCall } from './support/api-client';
import { MERCHANT_A, type TestCredential } from './support/credentials';
import { APPROVER_A, CREATOR_APPROVER_A, payoutMerchantsFile } from './support/payout-merchants';
import { importMerchants } from './support/merchant-changes';
import { TestClock } from './support/test-clock';
import { startEmbeddedTestApp, startTestApp, type TestApp } from './support/test-app';

const PAYOUTS = '/payment/api/payouts';
const THRESHOLD = 1000;
const APPROVAL_TTL_SECONDS = 3600;
let sequence = 0;
const unique = (prefix: string) => `${prefix}-${Date.now()}-${sequence++}`;

function approvalSuite(name: string, start: (env: Record<string, string>, options: { overrides: { storeClock: () => number }; startJobs: false }) => Promise<TestApp>) {
  describe(`payout approval on ${name}`, () => {
    const clock = new TestClock();
    const merchantsFile = payoutMerchantsFile(undefined, { approvalA: { required: true, thresholdNaira: THRESHOLD } });
    let api: TestApp;
    const call = (credential: TestCredential, method: 'GET' | 'POST', pathAndQuery: string, body?: unknown) =>
      signedCall(api.baseUrl, { method, path: pathAndQuery, credential, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    const balance = async () => (await call(MERCHANT_A, 'GET', '/payment/api/balance')).json as { available: number; held: number };
    // An enquiry per payout: tests move the store's clock past an enquiry's validity.
    const enquire = async () => (await call(MERCHANT_A, 'POST', '/payment/merchant-api/account/inquiry', { bankCode: '058', accountNumber: '0123456785' })).json.enquiryId as string;
    const create = async (amount: number, credential: TestCredential = MERCHANT_A) => {
      const reference = unique('ap');
      const enquiryId = await enquire();
      const created = await call(credential, 'POST', PAYOUTS, { reference, amount, currency: 'NGN', enquiryId, narration: 'Invoice' });
      return { reference, created };
    };
    const approve = (reference: string, credential: TestCredential) => call(credential, 'POST', `${PAYOUTS}/${reference}/approve`, {});
    const reject = (reference: string, credential: TestCredential, body: Record<string, unknown> = {}) => call(credential, 'POST', `${PAYOUTS}/${reference}/reject`, body);
    const get = async (reference: string) => (await call(MERCHANT_A, 'GET', `${PAYOUTS}/${reference}`)).json;
    const eventTypes = async (reference: string) => ((await call(MERCHANT_A, 'GET', `${PAYOUTS}/${reference}/events`)).json.data as Array<{ type: string }>).map((event) => event.type);
    const runJob = async (job: string) => {
      await api.app.get(JobRunner).runNow(job);
      await api.app.get(PayoutDispatcher).idle();
    };

    beforeAll(async () => {
      api = await start(
        { MERCHANTS_FILE: merchantsFile, SANDBOX_PAYOUT_DELAY_MS: '0', PAYOUT_APPROVAL_TTL_SECONDS: String(APPROVAL_TTL_SECONDS), PAYOUT_DAILY_LIMIT: '1000000' },
        { overrides: { storeClock: clock.now }, startJobs: false },
      );
      const payin = unique('fund');
      expect((await call(MERCHANT_A, 'POST', '/payment/api/payins', { amount: 200_000, currency: 'NGN', customerEmail: 'ada@example.com', reference: payin })).status).toBe(201);
      expect((await call(MERCHANT_A, 'POST', `/payment/api/payins/${payin}/simulate`, { outcome: 'successful' })).status).toBe(200);
    });
    // The ledger holds after every step each test takes.
    afterEach(async () => expect(await checkLedger(api.app.get<SqlClient>(SqlClient))).toEqual([]));
    afterAll(() => api.close());

    it('queues a payout below the threshold at once, with no approval', async () => {
      const { created } = await create(THRESHOLD - 0.01);
      expect(created.status).toBe(201);
      expect(created.json).toMatchObject({ status: 'QUEUED', approval: null, createdBy: MERCHANT_A.apiKey, batchReference: null });
      await runJob('payout-dispatch');
      expect((await get(created.json.reference as string)).status).toBe('SUCCESSFUL');
    });

    it('holds a payout at the threshold PENDING_APPROVAL, tells the merchant, and sends it once another credential approves it', async () => {
      const before = await balance();
      const { reference, created } = await create(THRESHOLD);
      expect(created.status).toBe(201);
      expect(created.json).toMatchObject({ status: 'PENDING_APPROVAL', createdBy: MERCHANT_A.apiKey, approval: { status: 'pending', decidedBy: null, decidedAt: null, reason: null } });
      expect(Date.parse(String((created.json as unknown as Payout).approval?.expiresAt)) - clock.now()).toBe(APPROVAL_TTL_SECONDS * 1000);
      expect(await balance()).toMatchObject({ available: before.available - 1025, held: before.held + 1025 });
      expect(await eventTypes(reference)).toEqual(['payout.approval_required']);
      // Not sent while it waits.
      await runJob('payout-dispatch');
      expect((await get(reference)).status).toBe('PENDING_APPROVAL');

      const approved = await approve(reference, APPROVER_A);
      expect(approved.status).toBe(200);
      expect(approved.json).toMatchObject({ status: 'QUEUED', approval: { status: 'approved', decidedBy: APPROVER_A.apiKey, decidedAt: expect.any(String) } });
      // The same approver again: the payout as it is, nothing moved twice.
      expect((await approve(reference, APPROVER_A)).json).toEqual((await call(MERCHANT_A, 'GET', `${PAYOUTS}/${reference}`)).json);
      await runJob('payout-dispatch');
      const paid = await get(reference);
      expect(paid).toMatchObject({ status: 'SUCCESSFUL', approval: { status: 'approved', decidedBy: APPROVER_A.apiKey } });
      // Sorted: the dispatcher stamps its moves by the test's store clock, which started before the service's.
      expect((await eventTypes(reference)).sort()).toEqual(['payout.approval_required', 'payout.successful']);
      expect(await balance()).toMatchObject({ available: before.available - 1025, held: before.held });
    });

    it('refuses the approval of the credential that created the payout, even with the approver role: four eyes', async () => {
      const { reference, created } = await create(5000, CREATOR_APPROVER_A);
      expect(created.json.status).toBe('PENDING_APPROVAL');
      const own = await approve(reference, CREATOR_APPROVER_A);
      expect(own.status).toBe(403);
      expect(own.json).toMatchObject({ code: 'APPROVER_REQUIRED', retryable: false });
      expect(own.json.message).toContain('it created the payout');
      expect((await get(reference)).status).toBe('PENDING_APPROVAL');
      expect((await approve(reference, APPROVER_A)).json.status).toBe('QUEUED');
      await runJob('payout-dispatch');
      expect((await get(reference)).status).toBe('SUCCESSFUL');
    });

    it('refuses the approval of a credential without the approver role, and payouts from one without payouts:create', async () => {
      const { reference } = await create(5000, CREATOR_APPROVER_A);
      const withoutRole = await approve(reference, MERCHANT_A);
      expect(withoutRole.status).toBe(403);
      expect(withoutRole.json.code).toBe('APPROVER_REQUIRED');
      expect(withoutRole.json.message).toContain('lacks the payouts:approve role');
      const approverCreates = await create(5000, APPROVER_A);
      expect(approverCreates.created.status).toBe(403);
      expect(approverCreates.created.json).toMatchObject({ code: 'ROLE_REQUIRED' });
      expect((await call(APPROVER_A, 'GET', `${PAYOUTS}/${approverCreates.reference}`)).status).toBe(404);
      // Every key keeps the rest of the API: the approver reads payouts and enquires.
      expect((await call(APPROVER_A, 'GET', `${PAYOUTS}/${reference}`)).status).toBe(200);
      expect((await reject(reference, APPROVER_A)).status).toBe(200);
    });

    it('rejects: the payout is cancelled with who rejected it and why, its hold released, and payout.cancelled sent', async () => {
      const before = await balance();
      const { reference } = await create(20_000);
      expect(await balance()).toMatchObject({ available: before.available - 20_025 });
      const rejected = await reject(reference, APPROVER_A, { reason: 'Duplicate of invoice 87' });
      expect(rejected.status).toBe(200);
      expect(rejected.json).toMatchObject({
        status: 'CANCELLED',
        cancellationReason: 'rejected',
        approval: { status: 'rejected', decidedBy: APPROVER_A.apiKey, reason: 'Duplicate of invoice 87' },
        completedAt: expect.any(String),
      });
      expect(await balance()).toEqual(before);
      expect((await eventTypes(reference)).sort()).toEqual(['payout.approval_required', 'payout.cancelled']);
      const late = await approve(reference, APPROVER_A);
      expect(late.status).toBe(409);
      expect(late.json.code).toBe('PAYOUT_NOT_AWAITING_APPROVAL');
      const other = (await create(5000)).reference;
      const badReason = await reject(other, APPROVER_A, { reason: '   ' });
      expect(badReason.status).toBe(400);
      expect(badReason.json.details).toEqual([expect.objectContaining({ field: 'reason' })]);
      expect((await reject(other, APPROVER_A)).json).toMatchObject({ status: 'CANCELLED', approval: { reason: null } });
    });

    it('cancels a payout nobody approved within PAYOUT_APPROVAL_TTL_SECONDS, by the store clock, and releases its hold', async () => {
      const before = await balance();
      const { reference } = await create(3000);
      clock.advance(APPROVAL_TTL_SECONDS * 1000 - 1000);
      await runJob('payout-expiry');
      expect((await get(reference)).status).toBe('PENDING_APPROVAL');
      clock.advance(1000);
      // Past its expiry and not yet swept: approving it is refused all the same, by the store's clock.
      const late = await approve(reference, APPROVER_A);
      expect([late.status, late.json.code]).toEqual([409, 'PAYOUT_NOT_AWAITING_APPROVAL']);
      expect(late.json.message).toContain('past its approval expiry');
      await runJob('payout-expiry');
      expect(await get(reference)).toMatchObject({ status: 'CANCELLED', cancellationReason: 'approval_expired', approval: { status: 'expired', decidedBy: null } });
      expect(await balance()).toEqual(before);
    });

    it('lets the creator cancel its own payout while it waits, and approves nothing in a batch one by one', async () => {
      const { reference, created } = await create(5000);
      expect(created.json).toMatchObject({ status: 'PENDING_APPROVAL' });
      expect((await call(MERCHANT_A, 'POST', `${PAYOUTS}/${reference}/cancel`, {})).json).toMatchObject({ status: 'CANCELLED', cancellationReason: 'cancelled_by_merchant', approval: { status: 'withdrawn', decidedBy: null } });
      const batch = unique('batch');
      expect((await call(MERCHANT_A, 'POST', '/payment/api/payout-batches', { reference: batch, title: 'Vendors' })).status).toBe(201);
      const item = unique('item');
      expect((await call(MERCHANT_A, 'POST', PAYOUTS, { reference: item, amount: 5000, currency: 'NGN', enquiryId: await enquire(), narration: 'Vendor', batchReference: batch })).json.status).toBe('PENDING_APPROVAL');
      // A batch's payouts tell the merchant nothing one by one: the batch is what is approved.
      expect(await eventTypes(item)).toEqual([]);
      // Below the threshold too: with approval on, a batch's payouts all wait for its approver, whatever their amounts.
      const small = unique('item');
      expect((await call(MERCHANT_A, 'POST', PAYOUTS, { reference: small, amount: THRESHOLD / 2, currency: 'NGN', enquiryId: await enquire(), narration: 'Vendor', batchReference: batch })).json.status).toBe('PENDING_APPROVAL');
      for (const operation of ['approve', 'reject', 'cancel']) {
        const refused = await call(operation === 'cancel' ? MERCHANT_A : APPROVER_A, 'POST', `${PAYOUTS}/${item}/${operation}`, {});
        expect([operation, refused.status, refused.json.code]).toEqual([operation, 409, 'PAYOUT_IN_BATCH']);
      }
      expect((await call(MERCHANT_A, 'POST', `/payment/api/payout-batches/${batch}/cancel`, {})).json.status).toBe('CANCELLED');
    });

    it('applies a role taken away at once, as revocation does', async () => {
      const { reference } = await create(5000);
      const entries = JSON.parse(fs.readFileSync(merchantsFile, 'utf8')) as Array<{ credentials: Array<{ apiKey: string; roles?: string[] }> }>;
      const withoutApproval = entries.map((entry) => ({ ...entry, credentials: entry.credentials.map((c) => (c.apiKey === APPROVER_A.apiKey ? { ...c, roles: ['payouts:create'] } : c)) }));
      const changed = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'approvals-roles-')), 'merchants.json');
      fs.writeFileSync(changed, JSON.stringify(withoutApproval));
      try {
        expect(await importMerchants(api, changed)).toEqual([`changed the roles of ${APPROVER_A.apiKey} to payouts:create`]);
        expect((await approve(reference, APPROVER_A)).json.code).toBe('APPROVER_REQUIRED');
        expect(api.logs).toContainEqual(expect.objectContaining({ msg: 'merchants loaded', rolesChanged: [APPROVER_A.apiKey] }));
      } finally {
        await importMerchants(api, merchantsFile);
      }
      expect((await approve(reference, APPROVER_A)).json.status).toBe('QUEUED');
    });
  });
}

approvalSuite('PostgreSQL', (env, options) => startTestApp(env, options));
approvalSuite('PGlite', (env, options) => startEmbeddedTestApp(env, options));
