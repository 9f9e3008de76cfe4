// Approving payouts in the dashboard, over HTTP on the real app and
// PostgreSQL: the list shows what each payout binds (reference, amount,
// currency, destination); a member without a passkey approves with a TOTP
// code; a member may not approve a payout created with a key they made.
// The passkey-bound approval, and a tampered challenge refused, run in
// Chromium with a virtual authenticator (apps/sdk-e2e).
import { randomUUID } from 'node:crypto';
import { signedCall } from './support/api-client';
import { MERCHANT_A, MERCHANT_B, type TestCredential } from './support/credentials';
import { totpCode } from './support/dashboard-client';
import { acceptLink, invited, type SignedInMember } from './support/dashboard-team';
import { merchantAdmin } from './support/merchant-changes';
import { payoutMerchantsFile } from './support/payout-merchants';
import { describeWithStore, DATABASE_URL } from './support/stores';
import { startTestApp, type TestApp } from './support/test-app';
import { TestClock } from './support/test-clock';

const THRESHOLD_NAIRA = 1000;

describeWithStore('PostgreSQL', DATABASE_URL, 'dashboard approvals', () => {
  let api: TestApp;
  const clock = new TestClock();
  let owner: SignedInMember;
  let approver: SignedInMember;
  const call = (credential: TestCredential, method: string, path: string, body?: unknown) => signedCall(api.baseUrl, { method, path, credential, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  /** A payout of `naira` created with `credential`, waiting for approval. */
  const payout = async (naira: number, credential: TestCredential = MERCHANT_A): Promise<string> => {
    const reference = `dash-${randomUUID().slice(0, 8)}`;
    const enquiryId = (await call(MERCHANT_A, 'POST', '/payment/merchant-api/account/inquiry', { bankCode: '058', accountNumber: '0123456785' })).json.enquiryId as string;
    const created = await call(credential, 'POST', '/payment/api/payouts', { reference, amount: naira, currency: 'NGN', enquiryId, narration: 'Invoice' });
    expect(created.json).toMatchObject({ status: 'PENDING_APPROVAL' });
    return reference;
  };

  beforeAll(async () => {
    api = await startTestApp(
      { MERCHANTS_FILE: payoutMerchantsFile(undefined, { approvalA: { required: true, thresholdNaira: THRESHOLD_NAIRA } }), SANDBOX_PAYOUT_DELAY_MS: '0', PAYOUT_DAILY_LIMIT: '1000000' },
      { overrides: { clock: clock.now }, startJobs: false },
    );
    const funding = `fund-${randomUUID().slice(0, 8)}`;
    expect((await call(MERCHANT_A, 'POST', '/payment/api/payins', { amount: 500_000, currency: 'NGN', customerEmail: 'ada@example.com', reference: funding })).status).toBe(201);
    expect((await call(MERCHANT_A, 'POST', `/payment/api/payins/${funding}/simulate`, { outcome: 'successful' })).status).toBe(200);
    const link = await merchantAdmin(api).run((admin) => admin.setupLink(MERCHANT_A.merchantId, { email: `owner-${randomUUID().slice(0, 6)}@example.com`, origin: api.baseUrl, ttlSeconds: 3600 }));
    owner = await acceptLink(api, clock, link.setupUrl);
    approver = await invited(api, clock, owner.browser, 'approver');
  });
  afterAll(() => api.close());

  it('lists each payout waiting with what an approval binds, and approves one with a TOTP code', async () => {
    const reference = await payout(1500);
    const listed = (await approver.browser.call('GET', '/approvals')).json.data as Array<Record<string, unknown>>;
    expect(listed.find((p) => p.reference === reference)).toMatchObject({ kind: 'payout', amount: 150_000, currency: 'NGN', destination: expect.stringMatching(/^058\/0123456785 /), count: 1, createdBy: MERCHANT_A.apiKey });
    // No passkey: nothing can be bound, and the member is told to use a code.
    expect((await approver.browser.call('POST', `/approvals/payout/${reference}/options`)).json.code).toBe('DASHBOARD_CONFLICT');
    expect((await approver.browser.call('POST', `/approvals/payout/${reference}`, { totpCode: '12345' })).status).toBe(400);
    clock.advance(30_000);
    const approved = await approver.browser.call('POST', `/approvals/payout/${reference}`, { totpCode: await totpCode(approver.secret, clock.now()) });
    expect(approved.json).toEqual({ kind: 'payout', reference, status: 'QUEUED' });
    const read = (await call(MERCHANT_A, 'GET', `/payment/api/payouts/${reference}`)).json;
    expect(read).toMatchObject({ status: 'QUEUED', approval: { status: 'approved', decidedBy: `dashboard:${approver.email}` } });
    expect((await approver.browser.call('POST', `/approvals/payout/${reference}`, { totpCode: '123456' })).json.code).toBe('DASHBOARD_CONFLICT');
    // The security log holds the approval with what it bound, written in the approval's own transaction.
    const log = (await owner.browser.call('GET', '/security-log')).json.data as Array<{ action: string; subject: string; actor: string; detail: Record<string, unknown> }>;
    expect(log.find((e) => e.action === 'payout.approved' && e.subject === reference)).toMatchObject({ actor: approver.email, detail: { amount: 150_000, currency: 'NGN', factor: 'totp' } });
  });

  it('refuses a member the approval of a payout created with a key they made', async () => {
    const made = await owner.browser.call('POST', '/keys', { roles: ['payouts:create'] });
    expect(made.status).toBe(201);
    const key = { ...MERCHANT_A, apiKey: String(made.json.apiKey), secretKey: String(made.json.secretKey) };
    const reference = await payout(2000, key);
    clock.advance(30_000);
    const refused = await owner.browser.call('POST', `/approvals/payout/${reference}`, { totpCode: await totpCode(owner.secret, clock.now()) });
    expect(refused.status).toBe(403);
    expect(refused.json.code).toBe('DASHBOARD_FOUR_EYES');
    expect((await call(MERCHANT_A, 'GET', `/payment/api/payouts/${reference}`)).json.status).toBe('PENDING_APPROVAL');
    // Someone else may.
    clock.advance(30_000);
    expect((await approver.browser.call('POST', `/approvals/payout/${reference}`, { totpCode: await totpCode(approver.secret, clock.now()) })).json.status).toBe('QUEUED');
  });

  it('approves a batch holding a payout that needs approval, binding its count and total, by submitting it', async () => {
    const batch = `batch-${randomUUID().slice(0, 8)}`;
    expect((await call(MERCHANT_A, 'POST', '/payment/api/payout-batches', { reference: batch, title: 'November payroll' })).status).toBe(201);
    for (const amount of [1500, 200]) {
      const enquiryId = (await call(MERCHANT_A, 'POST', '/payment/merchant-api/account/inquiry', { bankCode: '058', accountNumber: '0123456785' })).json.enquiryId as string;
      expect((await call(MERCHANT_A, 'POST', '/payment/api/payouts', { reference: `item-${randomUUID().slice(0, 8)}`, amount, currency: 'NGN', enquiryId, narration: 'Salary', batchReference: batch })).status).toBe(201);
    }
    const listed = (await approver.browser.call('GET', '/approvals')).json.data as Array<Record<string, unknown>>;
    expect(listed.find((p) => p.reference === batch)).toMatchObject({ kind: 'batch', amount: 170_000, currency: 'NGN', count: 2, destination: '2 payouts of batch "November payroll"', createdBy: MERCHANT_A.apiKey });
    clock.advance(30_000);
    const approved = await approver.browser.call('POST', `/approvals/batch/${batch}`, { totpCode: await totpCode(approver.secret, clock.now()) });
    expect(approved.json).toEqual({ kind: 'batch', reference: batch, status: 'SUBMITTED' });
    const read = (await call(MERCHANT_A, 'GET', `/payment/api/payout-batches/${batch}`)).json;
    expect(read).toMatchObject({ status: 'SUBMITTED', submittedBy: `dashboard:${approver.email}` });
    const items = ((await call(MERCHANT_A, 'GET', `/payment/api/payouts?batchReference=${batch}`)).json.data as Array<{ status: string; approval: { decidedBy: string } | null }>);
    expect(items.map((i) => i.status).sort()).toEqual(['QUEUED', 'QUEUED']);
    expect(items.find((i) => i.approval !== null)?.approval?.decidedBy).toBe(`dashboard:${approver.email}`);
  });

  it('holds two keys one member made to be one person on the signed API: one creates, the other may not approve', async () => {
    const creating = await owner.browser.call('POST', '/keys', { roles: ['payouts:create'] });
    const approving = await owner.browser.call('POST', '/keys', { roles: ['payouts:approve'] });
    const [create, approve] = [creating, approving].map((made) => ({ ...MERCHANT_A, apiKey: String(made.json.apiKey), secretKey: String(made.json.secretKey) })) as [TestCredential, TestCredential];
    const reference = await payout(1300, create);
    const refused = await call(approve, 'POST', `/payment/api/payouts/${reference}/approve`, {});
    expect(refused.status).toBe(403);
    expect(refused.json.code).toBe('APPROVER_REQUIRED');
    expect(String(refused.json.message)).toContain('same team member');
  });

  it('leaves a batch with no payout needing approval to its creator', async () => {
    // Merchant B has no approval policy: its batches' payouts wait for nobody.
    const funding = `fund-b-${randomUUID().slice(0, 8)}`;
    expect((await call(MERCHANT_B, 'POST', '/payment/api/payins', { amount: 50_000, currency: 'NGN', customerEmail: 'ada@example.com', reference: funding })).status).toBe(201);
    expect((await call(MERCHANT_B, 'POST', `/payment/api/payins/${funding}/simulate`, { outcome: 'successful' })).status).toBe(200);
    const link = await merchantAdmin(api).run((admin) => admin.setupLink(MERCHANT_B.merchantId, { email: `owner-b-${randomUUID().slice(0, 6)}@example.com`, origin: api.baseUrl, ttlSeconds: 86_400 }));
    const ownerB = await acceptLink(api, clock, link.setupUrl);
    const batch = `small-${randomUUID().slice(0, 8)}`;
    expect((await call(MERCHANT_B, 'POST', '/payment/api/payout-batches', { reference: batch, title: 'Small' })).status).toBe(201);
    const enquiryId = (await call(MERCHANT_B, 'POST', '/payment/merchant-api/account/inquiry', { bankCode: '058', accountNumber: '0123456785' })).json.enquiryId as string;
    expect((await call(MERCHANT_B, 'POST', '/payment/api/payouts', { reference: `small-${randomUUID().slice(0, 8)}`, amount: 200, currency: 'NGN', enquiryId, narration: 'Tip', batchReference: batch })).status).toBe(201);
    expect(((await ownerB.browser.call('GET', '/approvals')).json.data as Array<{ reference: string }>).some((a) => a.reference === batch)).toBe(false);
    clock.advance(30_000);
    expect((await ownerB.browser.call('POST', `/approvals/batch/${batch}`, { totpCode: await totpCode(ownerB.secret, clock.now()) })).json.code).toBe('DASHBOARD_CONFLICT');
    expect((await call(MERCHANT_B, 'GET', `/payment/api/payout-batches/${batch}`)).json.status).toBe('OPEN');
  });

  it('refuses a wrong code and leaves the payout waiting', async () => {
    const reference = await payout(1200);
    clock.advance(30_000);
    const right = await totpCode(approver.secret, clock.now());
    const wrong = await approver.browser.call('POST', `/approvals/payout/${reference}`, { totpCode: right === '000000' ? '111111' : '000000' });
    expect(wrong.json.code).toBe('DASHBOARD_SIGN_IN_FAILED');
    expect((await call(MERCHANT_A, 'GET', `/payment/api/payouts/${reference}`)).json.status).toBe('PENDING_APPROVAL');
    expect((await approver.browser.call('POST', `/approvals/batch/${reference}`, { totpCode: right })).status).toBe(404);
    expect((await approver.browser.call('POST', `/approvals/refund/${reference}`, { totpCode: right })).status).toBe(404);
  });
});
