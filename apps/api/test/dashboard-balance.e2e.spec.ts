// The dashboard's balance and settlements over HTTP on the real app and
// PostgreSQL: the settlement account named only by an owner with a fresh
// factor, pending until its delay and cancellable; the schedule; a
// settlement made by a real run, whose entries sum to it and each name the
// payin, refund or settlement that moved them; and the balance's entries
// filtered and paged.
import { randomUUID } from 'node:crypto';
import { makeNuban } from '../src/banks/nuban';
import { SqlClient } from '../src/db/sql-client';
import { JobRunner } from '../src/jobs/job-runner';
import { checkLedger } from '../src/ledger-invariants';
import { PayoutDispatcher } from '../src/payouts/payout-dispatcher';
import { signedCall } from './support/api-client';
import { MERCHANT_A } from './support/credentials';
import { totpCode, type DashboardClient } from './support/dashboard-client';
import { acceptLink, invited, merchantWithOwner, type SignedInMember } from './support/dashboard-team';
import { merchantAdmin } from './support/merchant-changes';
import { payoutMerchantsFile } from './support/payout-merchants';
import { describeWithStore, DATABASE_URL } from './support/stores';
import { startTestApp, type TestApp } from './support/test-app';
import { TestClock } from './support/test-clock';

const DAY_MS = 86_400_000;
const CHANGE_DELAY_SECONDS = 3600;
type Json = Record<string, unknown>;
type Entry = { id: string; type: string; balance: string; amount: number; createdAt: string; source: { kind: string; reference: string; payinReference: string | null } };

describeWithStore('PostgreSQL', DATABASE_URL, 'dashboard balance and settlements', () => {
  let api: TestApp;
  // The members' clock (sessions, factors, signatures) and the money's (settlement delays, runs): a day of the money's passes without ending a session.
  const clock = new TestClock();
  const moneyClock = new TestClock();
  let owner: SignedInMember;
  let admin: SignedInMember;
  let viewer: SignedInMember;
  const signed = (method: string, path: string, body?: unknown) => signedCall(api.baseUrl, { method, path, credential: MERCHANT_A, timestamp: Math.floor(clock.now() / 1000), ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  const paid = async (naira: number): Promise<string> => {
    const reference = `order-${randomUUID().slice(0, 8)}`;
    expect((await signed('POST', '/payment/api/payins', { amount: naira, currency: 'NGN', customerEmail: 'ada@example.com', reference })).status).toBe(201);
    expect((await signed('POST', `/payment/api/payins/${reference}/simulate`, { outcome: 'successful' })).status).toBe(200);
    return reference;
  };
  const enquire = async (bankCode = '058', serial = '012345678'): Promise<string> => (await signed('POST', '/payment/merchant-api/account/inquiry', { bankCode, accountNumber: makeNuban(bankCode, serial) })).json.enquiryId as string;
  const runJob = async (job: string) => {
    await api.app.get(JobRunner).runNow(job);
    await api.app.get(PayoutDispatcher).idle();
  };
  /** A second factor given now: the owner's factor is fresh again. */
  const freshen = async (member: SignedInMember) => {
    clock.advance(30_000);
    expect((await member.browser.call('POST', '/sign-in/totp', { code: await totpCode(member.secret, clock.now()) })).status).toBe(200);
  };
  const allPages = async (browser: DashboardClient, path: string, parameter: 'after' | 'cursor'): Promise<Entry[]> => {
    const all: Entry[] = [];
    for (let next: string | null = null, first = true; first || next; first = false) {
      const page = await browser.call('GET', `${path}${path.includes('?') ? '&' : '?'}limit=2${next ? `&${parameter}=${encodeURIComponent(next)}` : ''}`);
      expect(page.status).toBe(200);
      all.push(...(page.json.data as Entry[]));
      next = page.json.nextCursor as string | null;
    }
    return all;
  };

  beforeAll(async () => {
    api = await startTestApp(
      { MERCHANTS_FILE: payoutMerchantsFile(), SETTLEMENT_DELAY_SECONDS: '86400', SETTLEMENT_RUN_HOUR_UTC: '0', SETTLEMENT_ACCOUNT_CHANGE_DELAY_SECONDS: String(CHANGE_DELAY_SECONDS), SANDBOX_PAYOUT_DELAY_MS: '0', SETTLEMENT_DEFAULT_MINIMUM_AMOUNT: '100' },
      { overrides: { clock: clock.now, storeClock: moneyClock.now }, startJobs: false },
    );
    // In mixed case: the member is recorded by their email in lower case (memberIdentity), however they typed it.
    const link = await merchantAdmin(api).run((admin) => admin.setupLink(MERCHANT_A.merchantId, { email: `Owner-${randomUUID().slice(0, 6)}@Example.com`, origin: api.baseUrl, ttlSeconds: 3600 }));
    owner = await acceptLink(api, clock, link.setupUrl);
    admin = await invited(api, clock, owner.browser, 'admin');
    viewer = await invited(api, clock, owner.browser, 'viewer');
  });
  afterEach(async () => expect(await checkLedger(api.app.get<SqlClient>(SqlClient))).toEqual([]));
  afterAll(() => api.close());

  it('lets only an owner with a fresh factor name the account, shows it pending until it comes into force, and cancels it', async () => {
    const enquiryId = await enquire();
    expect((await admin.browser.call('PUT', '/settlement-account', { enquiryId })).json.code).toBe('DASHBOARD_ROLE_FORBIDDEN');
    clock.advance((api.config.dashboard.freshFactorSeconds + 1) * 1000);
    expect((await owner.browser.call('PUT', '/settlement-account', { enquiryId })).json.code).toBe('DASHBOARD_FRESH_FACTOR_REQUIRED');
    await freshen(owner);
    expect((await owner.browser.call('PUT', '/settlement-account', { enquiryId: 'enq_short' })).status).toBe(400);
    expect((await owner.browser.call('PUT', '/settlement-account', { enquiryId: `enq_${'A'.repeat(22)}` })).json.code).toBe('ENQUIRY_NOT_FOUND');
    const requested = await owner.browser.call('PUT', '/settlement-account', { enquiryId });
    expect(requested.status).toBe(200);
    expect(requested.json).toEqual({
      current: null,
      pending: { account: { bankCode: '058', accountNumber: makeNuban('058', '012345678'), accountName: expect.any(String), enquiryId }, requestedAt: new Date(moneyClock.now()).toISOString(), effectiveAt: new Date(moneyClock.now() + CHANGE_DELAY_SECONDS * 1000).toISOString() },
      changeDelaySeconds: CHANGE_DELAY_SECONDS,
    });
    const recorded = await api.app.get<SqlClient>(SqlClient).query<{ requested_by: string }>('SELECT requested_by FROM settlement_accounts WHERE enquiry_id = $1', [enquiryId]);
    expect(recorded.rows.map((r) => r.requested_by)).toEqual([`dashboard:${owner.email.toLowerCase()}`]);
    // Every member reads it as the owner does.
    expect((await viewer.browser.call('GET', '/settlement-account')).json).toEqual(requested.json);
    expect((await admin.browser.call('POST', '/settlement-account/cancel')).json.code).toBe('DASHBOARD_ROLE_FORBIDDEN');
    const cancelled = await owner.browser.call('POST', '/settlement-account/cancel');
    expect(cancelled.json).toEqual({ current: null, pending: null, changeDelaySeconds: CHANGE_DELAY_SECONDS });
    expect((await owner.browser.call('POST', '/settlement-account/cancel')).json.code).toBe('SETTLEMENT_ACCOUNT_CHANGE_NOT_PENDING');
    const log = (await owner.browser.call('GET', '/security-log')).json.data as Array<{ action: string; actor: string; subject: string; detail: Json }>;
    expect(log.find((e) => e.action === 'settlement-account.requested')).toMatchObject({ actor: owner.email, subject: enquiryId, detail: { bankCode: '058', accountNumber: `******${makeNuban('058', '012345678').slice(-4)}`, effectiveAt: requested.json.pending && (requested.json.pending as Json).effectiveAt } });
    expect(log.find((e) => e.action === 'settlement-account.cancelled')).toMatchObject({ actor: owner.email, subject: enquiryId, detail: { accountNumber: `******${makeNuban('058', '012345678').slice(-4)}` } });
  });

  it('sets the schedule for an owner or admin, in kobo, and refuses a weekday with a daily one', async () => {
    expect((await viewer.browser.call('PUT', '/settlement-schedule', { interval: 'daily', minimumAmount: 0 })).json.code).toBe('DASHBOARD_ROLE_FORBIDDEN');
    expect((await admin.browser.call('PUT', '/settlement-schedule', { interval: 'daily', minimumAmount: 10_000, weekday: 'friday' })).status).toBe(400);
    expect((await admin.browser.call('PUT', '/settlement-schedule', { interval: 'weekly', minimumAmount: 10_000.5 })).status).toBe(400);
    const weekly = await admin.browser.call('PUT', '/settlement-schedule', { interval: 'weekly', minimumAmount: 250_000, weekday: 'friday' });
    expect(weekly.json).toMatchObject({ interval: 'weekly', minimumAmount: 250_000, weekday: 'friday', paused: false });
    // The signed API reads the same schedule, in naira.
    expect((await signed('GET', '/payment/api/settlement-schedule')).json).toMatchObject({ interval: 'weekly', minimumAmount: 2500, weekday: 'friday' });
    const daily = await owner.browser.call('PUT', '/settlement-schedule', { interval: 'daily', minimumAmount: 10_000 });
    expect(daily.json).toMatchObject({ interval: 'daily', minimumAmount: 10_000, weekday: null });
    expect((await viewer.browser.call('GET', '/settlement-schedule')).json).toEqual(daily.json);
    const log = (await owner.browser.call('GET', '/security-log')).json.data as Array<{ action: string; actor: string; detail: Json }>;
    expect(log.find((e) => e.action === 'settlement-schedule.set')).toMatchObject({ actor: owner.email, detail: { interval: 'daily', minimumAmount: 10_000 } });
  });

  it('shows a settlement of a real run with the entries it covered, which sum to it, each linked to its source', async () => {
    await freshen(owner);
    expect((await owner.browser.call('PUT', '/settlement-account', { enquiryId: await enquire() })).status).toBe(200);
    moneyClock.advance(CHANGE_DELAY_SECONDS * 1000);
    await runJob('settlement-run');
    expect((await viewer.browser.call('GET', '/settlement-account')).json).toMatchObject({ current: { account: { accountNumber: makeNuban('058', '012345678') } }, pending: null });

    const payins = [await paid(10_000), await paid(5_000)];
    moneyClock.advance(DAY_MS + 1000);
    await runJob('settlement');
    const refund = `rf-${randomUUID().slice(0, 8)}`;
    expect((await signed('POST', '/payment/api/refunds', { reference: refund, payinReference: payins[0], amount: 1000 })).status).toBe(201);
    await runJob('refund-dispatch');
    const before = (await viewer.browser.call('GET', '/balance')).json.data as Array<{ currency: string; available: number }>;
    const available = before.find((b) => b.currency === 'NGN')?.available ?? 0;
    expect(available).toBe(Math.round(((await signed('GET', '/payment/api/balance')).json.available as number) * 100));
    expect(available).toBeGreaterThan(0);

    await runJob('settlement-run');
    const listed = (await viewer.browser.call('GET', '/settlements')).json.data as Json[];
    expect(listed).toHaveLength(1);
    const settlement = listed[0] as Json;
    const id = settlement.id as string;
    expect(settlement).toMatchObject({ status: 'PENDING', amount: available, currency: 'NGN', trigger: 'schedule', account: { accountNumber: makeNuban('058', '012345678') } });
    expect((await viewer.browser.call('GET', `/settlements/${id}`)).json).toEqual(settlement);

    const covered = await allPages(viewer.browser, `/settlements/${id}/entries`, 'cursor');
    expect(covered.reduce((sum, entry) => sum + entry.amount, 0)).toBe(available);
    expect(covered.map((entry) => entry.type).sort()).toEqual(['refund_hold', 'settlement', 'settlement']);
    expect(covered.find((entry) => entry.type === 'refund_hold')?.source).toEqual({ kind: 'refund', reference: refund, payinReference: payins[0] });
    expect(covered.filter((entry) => entry.type === 'settlement').map((entry) => entry.source.payinReference).sort()).toEqual([...payins].sort());

    // The balance's own entries: the settlement's hold names it; filters by type, balance and time; paged by `after`.
    const held = (await viewer.browser.call('GET', '/balance/entries?balance=held&type=payout_hold')).json.data as Entry[];
    expect(held[0]?.source).toEqual({ kind: 'settlement', reference: id, payinReference: null });
    const credits = await allPages(viewer.browser, '/balance/entries?type=payin_credit', 'after');
    expect(credits.map((entry) => entry.source.reference).sort()).toEqual([...payins].sort());
    expect(credits.every((entry) => entry.balance === 'pending' && entry.amount > 0)).toBe(true);
    const everything = await allPages(viewer.browser, '/balance/entries', 'after');
    expect(everything.length).toBeGreaterThan(credits.length);
    expect(new Set(everything.map((entry) => entry.id)).size).toBe(everything.length);
    const at = encodeURIComponent(String(credits.at(-1)?.createdAt));
    const ids = async (query: string) => ((await viewer.browser.call('GET', `/balance/entries?limit=100&${query}`)).json.data as Entry[]).map((entry) => entry.id);
    expect(await ids(`from=${at}`)).toContain(credits.at(-1)?.id);
    expect(await ids(`to=${at}`)).not.toContain(credits.at(-1)?.id);
    expect([...(await ids(`to=${at}`)), ...(await ids(`from=${at}`))].sort()).toEqual(everything.map((entry) => entry.id).sort());
    expect((await viewer.browser.call('GET', '/balance/entries?type=nothing')).status).toBe(400);
    expect((await viewer.browser.call('GET', '/balance/entries?after=abc')).status).toBe(400);
    expect((await viewer.browser.call('GET', '/balance/entries?from=2026-11-02T00:00:00Z&to=2026-11-01T00:00:00Z')).status).toBe(400);

    // Another merchant's member finds none of it.
    const other = await merchantWithOwner(api, clock, 'OTHERBAL');
    expect((await other.owner.browser.call('GET', `/settlements/${id}`)).json.code).toBe('SETTLEMENT_NOT_FOUND');
    expect((await other.owner.browser.call('GET', `/settlements/${id}/entries`)).status).toBe(404);
    expect((await other.owner.browser.call('GET', '/settlements')).json.data).toEqual([]);
  });

  it('settles now for an owner or admin with a fresh factor, once per reference, audited', async () => {
    await paid(2_000);
    moneyClock.advance(DAY_MS + 1000);
    await runJob('settlement');
    const reference = `settle-${randomUUID().slice(0, 8)}`;
    expect((await viewer.browser.call('POST', '/settlements', { reference, currency: 'NGN' })).json.code).toBe('DASHBOARD_ROLE_FORBIDDEN');
    await freshen(admin);
    const made = await admin.browser.call('POST', '/settlements', { reference, currency: 'NGN' });
    expect(made.status).toBe(201);
    expect(made.json).toMatchObject({ amount: 200_000, trigger: 'manual', status: 'PENDING' });
    const again = await admin.browser.call('POST', '/settlements', { reference, currency: 'NGN' });
    expect(again.status).toBe(200);
    expect(again.json.id).toBe(made.json.id);
    expect((await admin.browser.call('POST', '/settlements', { reference: `${reference}-2`, currency: 'NGN' })).json.code).toBe('NOTHING_TO_SETTLE');
    // A merchant the operator suspended is settled by nobody: the member is told why, and stays signed in.
    await paid(2_000);
    moneyClock.advance(DAY_MS + 1000);
    await runJob('settlement');
    const client = api.app.get<SqlClient>(SqlClient);
    await client.query("UPDATE merchants SET status = 'suspended' WHERE merchant_id = $1", [MERCHANT_A.merchantId]);
    try {
      const suspended = await admin.browser.call('POST', '/settlements', { reference: `${reference}-3`, currency: 'NGN' });
      expect({ status: suspended.status, code: suspended.json.code, message: suspended.json.message }).toEqual({ status: 409, code: 'DASHBOARD_CONFLICT', message: expect.stringContaining('suspended') });
    } finally {
      await client.query("UPDATE merchants SET status = 'active' WHERE merchant_id = $1", [MERCHANT_A.merchantId]);
    }
    expect((await admin.browser.call('GET', '/session')).status).toBe(200);
    const log = (await owner.browser.call('GET', '/security-log')).json.data as Array<{ action: string; actor: string; subject: string }>;
    expect(log.filter((e) => e.action === 'settlement.created')).toEqual([expect.objectContaining({ actor: admin.email, subject: made.json.id })]);
  });
});
