// The dashboard's payins over HTTP on the real app and PostgreSQL: the search
// box read by its form (reference, email, amount), the filters, keyset
// paging without gaps or duplicates, a payin's page with its events,
// customer and refunds, refunds made from it under the signed API's rules
// and a fresh second factor, the reports exported as CSV with the API's
// rows, and merchants kept apart.
import { randomUUID } from 'node:crypto';
import { JobRunner } from '../src/jobs/job-runner';
import { signedCall } from './support/api-client';
import { csvObjects } from './support/csv-records';
import { MERCHANT_A, MERCHANT_B } from './support/credentials';
import { totpCode } from './support/dashboard-client';
import { acceptLink, invited, type SignedInMember } from './support/dashboard-team';
import { merchantAdmin } from './support/merchant-changes';
import { describeWithStore, DATABASE_URL } from './support/stores';
import { startTestApp, type TestApp } from './support/test-app';
import { TestClock } from './support/test-clock';

type Summary = { reference: string; status: string; amount: number; customerEmail: string; channel: string | null; createdAt: string };
const BULK = 23;

describeWithStore('PostgreSQL', DATABASE_URL, 'dashboard payins', () => {
  let api: TestApp;
  const clock = new TestClock();
  const start = clock.now();
  let owner: SignedInMember;
  let operations: SignedInMember;
  const run = randomUUID().slice(0, 6);
  const ref = (name: string) => `${name}-${run}`;
  const signed = (credential: typeof MERCHANT_A, method: string, path: string, body?: unknown) =>
    signedCall(api.baseUrl, { method, path, credential, timestamp: Math.floor(clock.now() / 1000), ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  const payin = async (reference: string, body: Record<string, unknown>, outcome?: 'successful' | 'failed') => {
    const created = await signed(MERCHANT_A, 'POST', '/payment/api/payins', { currency: 'NGN', reference, ...body });
    expect([reference, created.status]).toEqual([reference, 201]);
    if (outcome) expect((await signed(MERCHANT_A, 'POST', `/payment/api/payins/${reference}/simulate`, { outcome })).status).toBe(200);
  };
  const list = async (query: string) => {
    const answer = await owner.browser.call('GET', `/payins${query}`);
    expect([query, answer.status]).toEqual([query, 200]);
    return answer.json as { data: Summary[]; nextCursor: string | null };
  };
  const references = async (query: string) => (await list(query)).data.map((p) => p.reference);

  beforeAll(async () => {
    api = await startTestApp({ REFUND_WINDOW_DAYS: '30', SETTLEMENT_DELAY_SECONDS: '0' }, { overrides: { clock: clock.now }, startJobs: false });
    // Settled into the available balance, which a refund draws on once the payin's own unsettled credit is less than it.
    await payin(ref('funding'), { amount: 5000, customerEmail: 'funding@example.com', gateway: 'card' }, 'successful');
    await api.app.get(JobRunner).runNow('settlement');
    clock.advance(1000);
    await payin(ref('card'), { amount: 1500, customerEmail: 'Ada.Obi@Example.com', customerName: 'Ada Obi', gateway: 'card', notifyUrl: 'https://example.com/hooks' }, 'successful');
    clock.advance(1000);
    await payin(ref('transfer'), { amount: 2500.5, customerEmail: 'bola@example.com', gateway: 'bank_transfer' }, 'failed');
    clock.advance(1000);
    await payin(ref('ussd'), { amount: 700, customerEmail: 'chidi@example.com', gateway: 'ussd' });
    clock.advance(1000);
    // Created in one millisecond: only the reference orders them, which paging must keep.
    for (let i = 0; i < BULK; i += 1) await payin(ref(`bulk-${String(i).padStart(2, '0')}`), { amount: 100 + i, customerEmail: `bulk${i}@example.com` });
    const link = await merchantAdmin(api).run((admin) => admin.setupLink(MERCHANT_A.merchantId, { email: `owner-${run}@example.com`, origin: api.baseUrl, ttlSeconds: 3600 }));
    owner = await acceptLink(api, clock, link.setupUrl);
    operations = await invited(api, clock, owner.browser, 'operations');
  });
  afterAll(() => api.close());

  it('reads the search box by its form: a reference, an email in any case, an amount in naira', async () => {
    expect(await references(`?q=${ref('ussd')}`)).toEqual([ref('ussd')]);
    expect(await references('?q=ADA.OBI%40example.COM')).toEqual([ref('card')]);
    expect(await references('?q=1500')).toEqual([ref('card')]);
    expect(await references('?q=1500.00')).toEqual([ref('card')]);
    expect(await references('?q=2500.5')).toEqual([ref('transfer')]);
    expect(await references('?q=nobody%40example.com')).toEqual([]);
    const bad = await owner.browser.call('GET', '/payins?q=two%20words');
    expect([bad.status, bad.json.code, bad.json.message]).toEqual([400, 'VALIDATION_FAILED', expect.stringContaining('q must be a payin reference')]);
  });

  it('filters by status, channel and creation window, and refuses what it does not know', async () => {
    expect(await references('?status=FAILED')).toEqual([ref('transfer')]);
    expect(await references('?status=SUCCESSFUL&channel=card')).toEqual([ref('card'), ref('funding')]);
    expect(await references('?channel=ussd')).toEqual([ref('ussd')]);
    const from = new Date(start + 2000).toISOString();
    const to = new Date(start + 3000).toISOString();
    expect(await references(`?from=${from}&to=${to}`)).toEqual([ref('transfer')]);
    for (const query of ['?status=PAID', '?channel=cash', '?from=yesterday', `?from=${to}&to=${from}`, '?limit=0', '?sort=amount', '?q=a%00%40b.com', '?q=a%01b%40c.com', '?q=a&q=b', '?after=abc']) {
      expect([query, (await owner.browser.call('GET', `/payins${query}`)).status]).toEqual([query, 400]);
    }
    expect((await owner.browser.call('GET', '/payins?after=abc')).json.message).toContain('after is not one this page issued');
  });

  it('pages newest first without gaps or duplicates, and keeps a cursor to its filters', async () => {
    const all = (await list('?limit=100')).data;
    expect(all).toHaveLength(BULK + 4);
    const seen: string[] = [];
    let after: string | null = null;
    do {
      const page = await list(`?limit=7${after ? `&after=${after}` : ''}`);
      seen.push(...page.data.map((p) => p.reference));
      after = page.nextCursor;
    } while (after);
    expect(seen).toEqual(all.map((p) => p.reference));
    expect(seen.slice(0, 3)).toEqual([ref('bulk-22'), ref('bulk-21'), ref('bulk-20')]);
    const cursor = (await list('?limit=2')).nextCursor as string;
    const foreign = await owner.browser.call('GET', `/payins?limit=2&status=PENDING&after=${cursor}`);
    expect([foreign.status, foreign.json.message]).toEqual([400, expect.stringContaining('after was issued for other filters')]);
  });

  it("shows a payin's page: the payin, its events, its customer and its refunds", async () => {
    const page = await owner.browser.call('GET', `/payins/${ref('card')}`);
    expect(page.status).toBe(200);
    expect(page.json).toMatchObject({
      payin: { reference: ref('card'), status: 'SUCCESSFUL', amount: 150_000, fee: expect.any(Number), amountRefunded: 0, channel: 'card' },
      customer: { email: 'Ada.Obi@Example.com', name: 'Ada Obi' },
      amountRefunding: 0,
      refunds: [],
    });
    expect((page.json.events as Array<{ type: string }>).map((e) => e.type)).toContain('payin.successful');
    expect((await owner.browser.call('GET', '/payins/none-such')).json.code).toBe('PAYIN_NOT_FOUND');
  });

  it('refunds part of a payin, then the rest, never more, with a fresh factor, and logs who did it', async () => {
    const reference = ref('card');
    const viewer = await invited(api, clock, owner.browser, 'viewer');
    expect((await viewer.browser.call('POST', `/payins/${reference}/refunds`, { amount: 50_000, reason: 'requested_by_customer' })).json.code).toBe('DASHBOARD_ROLE_FORBIDDEN');
    clock.advance((api.config.dashboard.freshFactorSeconds + 1) * 1000);
    expect((await operations.browser.call('POST', `/payins/${reference}/refunds`, { amount: 50_000, reason: 'requested_by_customer' })).json.code).toBe('DASHBOARD_FRESH_FACTOR_REQUIRED');
    expect((await operations.browser.call('POST', '/sign-in/totp', { code: await totpCode(operations.secret, clock.now()) })).status).toBe(200);
    const bad = await operations.browser.call('POST', `/payins/${reference}/refunds`, { amount: 500.5, reason: 'because', extra: 1 });
    expect([bad.status, (bad.json.details as Array<{ field: string }>).map((d) => d.field).sort()]).toEqual([400, ['amount', 'extra', 'reason']]);

    const part = await operations.browser.call('POST', `/payins/${reference}/refunds`, { amount: 50_000, reason: 'requested_by_customer', reference: ref('rf-part') });
    expect([part.status, part.json]).toEqual([201, expect.objectContaining({ reference: ref('rf-part'), status: 'PENDING', amount: 50_000, createdBy: `dashboard:${operations.email}` })]);
    const again = await operations.browser.call('POST', `/payins/${reference}/refunds`, { amount: 50_000, reason: 'requested_by_customer', reference: ref('rf-part') });
    expect([again.status, again.json.reference]).toEqual([200, ref('rf-part')]);
    const over = await operations.browser.call('POST', `/payins/${reference}/refunds`, { amount: 100_001, reason: 'other' });
    expect([over.status, over.json.code, over.json.message]).toEqual([422, 'REFUND_EXCEEDS_PAYIN', expect.stringContaining('1000.00')]);
    const rest = await operations.browser.call('POST', `/payins/${reference}/refunds`, { reason: 'other' });
    expect([rest.status, rest.json.amount]).toEqual([201, 100_000]);
    expect((await operations.browser.call('POST', `/payins/${reference}/refunds`, { amount: 1, reason: 'other' })).json.code).toBe('REFUND_EXCEEDS_PAYIN');
    expect((await operations.browser.call('POST', `/payins/${ref('transfer')}/refunds`, { reason: 'other' })).json.code).toBe('PAYIN_NOT_REFUNDABLE');

    // The provider settles one: the page shows each refund's state as it is.
    const settled = await signed(MERCHANT_A, 'POST', `/payment/api/refunds/${ref('rf-part')}/simulate`, { outcome: 'successful' });
    expect([settled.status, settled.json.status]).toEqual([200, 'SUCCESSFUL']);
    const page = (await owner.browser.call('GET', `/payins/${reference}`)).json as { payin: { amountRefunded: number }; amountRefunding: number; refunds: Array<{ reference: string; status: string }> };
    expect(page.refunds.map((r) => [r.reference, r.status])).toEqual([[String(rest.json.reference), expect.stringMatching(/^(PENDING|PROCESSING)$/)], [ref('rf-part'), 'SUCCESSFUL']]);
    expect([page.payin.amountRefunded, page.amountRefunding]).toEqual([50_000, 100_000]);
    const log = (await owner.browser.call('GET', '/security-log')).json.data as Array<{ action: string; subject: string; actor: string; detail: Record<string, unknown> }>;
    expect(log.filter((e) => e.action === 'refund.created').map((e) => [e.subject, e.actor, e.detail.amount])).toEqual([
      [String(rest.json.reference), operations.email, 100_000],
      [ref('rf-part'), operations.email, 50_000],
    ]);
  });

  it("exports the report's rows, the same as the API lists, through the signed API's report code", async () => {
    const window = `from=${new Date(start - 60_000).toISOString()}&to=${new Date(clock.now() + 60_000).toISOString()}`;
    const csv = await owner.browser.call('GET', `/exports/payins.csv?${window}`);
    expect([csv.status, csv.headers.get('content-type'), csv.headers.get('content-disposition')]).toEqual([200, 'text/csv; charset=utf-8', expect.stringMatching(/^attachment; filename="payins-[0-9]{8}T[0-9]{6}Z-[0-9]{8}T[0-9]{6}Z\.csv"$/)]);
    const rows = csvObjects(csv.text);
    const listed = (await list('?limit=100')).data;
    // The report is oldest first; the listing newest first.
    expect(rows.map((r) => [r.reference, r.status, r.amount, r.customerEmail])).toEqual(
      [...listed].reverse().map((p) => [p.reference, p.status, (p.amount / 100).toFixed(2), p.customerEmail]),
    );
    const failed = csvObjects((await owner.browser.call('GET', `/exports/payins.csv?${window}&status=FAILED`)).text);
    expect(failed.map((r) => r.reference)).toEqual(await references('?status=FAILED'));
    const refunds = csvObjects((await owner.browser.call('GET', `/exports/refunds.csv?${window}&payinReference=${ref('card')}`)).text);
    expect(refunds.map((r) => r.reference)).toContain(ref('rf-part'));
    expect((await owner.browser.call('GET', `/exports/payins.csv?${window}&channel=card`)).status).toBe(400);
    expect((await owner.browser.call('GET', '/exports/payins.csv')).status).toBe(400);
    expect((await owner.browser.call('GET', `/exports/ledgers.csv?${window}`)).status).toBe(404);
    const approver = await invited(api, clock, owner.browser, 'approver');
    expect((await approver.browser.call('GET', `/exports/payins.csv?${window}`)).json.code).toBe('DASHBOARD_ROLE_FORBIDDEN');
    expect((await approver.browser.call('GET', `/exports/payouts.csv?${window}`)).status).toBe(200);
  });

  it("keeps merchants apart: another merchant's member finds none of these payins", async () => {
    const link = await merchantAdmin(api).run((admin) => admin.setupLink(MERCHANT_B.merchantId, { email: `other-${run}@example.com`, origin: api.baseUrl, ttlSeconds: 3600 }));
    const other = await acceptLink(api, clock, link.setupUrl);
    expect((await other.browser.call('GET', `/payins/${ref('card')}`)).status).toBe(404);
    expect((await other.browser.call('POST', `/payins/${ref('card')}/refunds`, { reason: 'other' })).json.code).toBe('PAYIN_NOT_FOUND');
    expect((await other.browser.call('GET', `/payins?q=${ref('card')}`)).json.data).toEqual([]);
    const csv = await other.browser.call('GET', `/exports/payins.csv?from=${new Date(start - 60_000).toISOString()}&to=${new Date(clock.now() + 60_000).toISOString()}`);
    expect(csv.text).not.toContain(run);
  });
});
