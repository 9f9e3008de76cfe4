// Payouts and batches in the dashboard, over HTTP on the real app and
// PostgreSQL: a member pays out to an enquired account through the merchant
// API's service (approval, holds), and may never approve it, nor through a
// key they made; a CSV file is dry-run row by row and a batch is made only
// when every row passes; approvals are rejected with a reason.
import { randomUUID } from 'node:crypto';
import { SqlClient } from '../src/db/sql-client';
import { checkLedger } from '../src/ledger-invariants';
import { DashboardAudit } from '../src/dashboard/dashboard-audit';
import { ApiException } from '../src/errors/api.exception';
import { PayoutsService } from '../src/payouts/payouts.service';
import { signedCall } from './support/api-client';
import { MERCHANT_A, MERCHANT_B, type TestCredential } from './support/credentials';
import { totpCode } from './support/dashboard-client';
import { acceptLink, invited, type SignedInMember } from './support/dashboard-team';
import { merchantAdmin } from './support/merchant-changes';
import { payoutMerchantsFile } from './support/payout-merchants';
import { describeWithStore, DATABASE_URL } from './support/stores';
import { startTestApp, type TestApp } from './support/test-app';
import { TestClock } from './support/test-clock';

const ACCOUNT = { bankCode: '058', accountNumber: '0123456785', accountName: 'ADAEZE NWOSU' };
const HEADER = 'reference,bankCode,accountNumber,amount,narration,expectedAccountName';
const row = (reference: string, amount: string, expectedName = 'Adaeze Nwosu') => `${reference},${ACCOUNT.bankCode},${ACCOUNT.accountNumber},${amount},Salary,${expectedName}`;
const unique = (label: string) => `${label}-${randomUUID().slice(0, 8)}`;

describeWithStore('PostgreSQL', DATABASE_URL, 'dashboard payouts and batches', () => {
  let api: TestApp;
  const clock = new TestClock();
  let owner: SignedInMember;
  let approver: SignedInMember;
  let operations: SignedInMember;
  const call = (credential: TestCredential, method: string, path: string, body?: unknown) => signedCall(api.baseUrl, { method, path, credential, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  const enquire = async (credential: TestCredential = MERCHANT_A) => (await call(credential, 'POST', '/payment/merchant-api/account/inquiry', { bankCode: ACCOUNT.bankCode, accountNumber: ACCOUNT.accountNumber })).json.enquiryId as string;
  const approveWithCode = async (member: SignedInMember, kind: string, reference: string) => {
    clock.advance(30_000);
    return member.browser.call('POST', `/approvals/${kind}/${reference}`, { totpCode: await totpCode(member.secret, clock.now()) });
  };
  const fund = async (credential: TestCredential, naira: number) => {
    const funding = unique('fund');
    expect((await call(credential, 'POST', '/payment/api/payins', { amount: naira, currency: 'NGN', customerEmail: 'ada@example.com', reference: funding })).status).toBe(201);
    expect((await call(credential, 'POST', `/payment/api/payins/${funding}/simulate`, { outcome: 'successful' })).status).toBe(200);
  };

  beforeAll(async () => {
    api = await startTestApp(
      { MERCHANTS_FILE: payoutMerchantsFile(undefined, { approvalA: { required: true, thresholdNaira: 1000 } }), SANDBOX_PAYOUT_DELAY_MS: '0', PAYOUT_DAILY_LIMIT: '1000000', DASHBOARD_BATCH_MAX_ROWS: '5' },
      { overrides: { clock: clock.now }, startJobs: false },
    );
    await fund(MERCHANT_A, 500_000);
    const link = await merchantAdmin(api).run((admin) => admin.setupLink(MERCHANT_A.merchantId, { email: `Owner-${randomUUID().slice(0, 6)}@Example.com`, origin: api.baseUrl, ttlSeconds: 3600 }));
    owner = await acceptLink(api, clock, link.setupUrl);
    approver = await invited(api, clock, owner.browser, 'approver');
    operations = await invited(api, clock, owner.browser, 'operations');
  });
  // Every flow leaves the ledger's invariants whole: holds taken, released and moved as the ledger requires.
  afterEach(async () => expect(await checkLedger(api.app.get<SqlClient>(SqlClient))).toEqual([]));
  afterAll(() => api.close());

  it('makes a payout to an enquired account as the merchant API does, recorded as the member, and lists and reads it', async () => {
    const reference = unique('dash-pay');
    const body = { reference, amount: 150_000, currency: 'NGN', enquiryId: await enquire(), narration: 'Invoice 12' };
    const created = await operations.browser.call('POST', '/payouts', body);
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({ reference, status: 'PENDING_APPROVAL', amount: 150_000, accountName: ACCOUNT.accountName, createdBy: `dashboard:${operations.email}`, approval: { status: 'pending' } });
    // The same body again is the same payout; another under its reference is refused.
    expect((await operations.browser.call('POST', '/payouts', body)).status).toBe(200);
    expect((await operations.browser.call('POST', '/payouts', { ...body, amount: 160_000 })).json.code).toBe('IDEMPOTENCY_CONFLICT');
    // The merchant API sees the same payout, holding its amount.
    expect((await call(MERCHANT_A, 'GET', `/payment/api/payouts/${reference}`)).json).toMatchObject({ amount: 1500, createdBy: `dashboard:${operations.email}` });
    const found = await owner.browser.call('GET', `/payouts?q=${reference.slice(0, 12)}&status=PENDING_APPROVAL`);
    expect((found.json.data as Array<{ reference: string }>).map((p) => p.reference)).toContain(reference);
    const detail = await approver.browser.call('GET', `/payouts/${reference}`);
    expect(detail.json).toMatchObject({ payout: { reference }, events: [{ type: 'created', by: `dashboard:${operations.email}` }] });
    const log = (await owner.browser.call('GET', '/security-log')).json.data as Array<{ action: string; subject: string; actor: string; detail: Record<string, unknown> }>;
    // The security log keeps the account's last 4 digits only.
    expect(log.find((e) => e.action === 'payout.created' && e.subject === reference)).toMatchObject({ actor: operations.email, detail: { bankCode: ACCOUNT.bankCode, accountNumber: '******6785' } });
  });

  it('refuses bad input with the field named, and a developer the payouts', async () => {
    const bad = await owner.browser.call('POST', '/payouts', { reference: 'x', amount: 12.5, currency: 'USD', enquiryId: 'nope', narration: ' ', extra: 1 });
    expect(bad.status).toBe(400);
    expect((bad.json.details as Array<{ field: string }>).map((d) => d.field).sort()).toEqual(['amount', 'currency', 'enquiryId', 'extra', 'narration']);
    const expired = await owner.browser.call('POST', '/payouts', { reference: unique('p'), amount: 100_000, currency: 'NGN', enquiryId: 'enq_0000000000000000000000', narration: 'Rent' });
    expect(expired.json.code).toBe('ENQUIRY_NOT_FOUND');
    expect((await owner.browser.call('GET', '/payouts?from=yesterday')).json.details).toEqual([expect.objectContaining({ field: 'from' })]);
    expect((await owner.browser.call('GET', '/payouts?after=bm90LW91cnM')).json.details).toEqual([expect.objectContaining({ field: 'after' })]);
    expect((await owner.browser.call('GET', '/payouts/no-such-payout')).json.code).toBe('DASHBOARD_NOT_FOUND');
    const developer = await invited(api, clock, owner.browser, 'developer');
    expect((await developer.browser.call('GET', '/payouts')).json.code).toBe('DASHBOARD_ROLE_FORBIDDEN');
  });

  it('refuses text that would not display as it reads, a NUL byte included, with the field named and never a 500', async () => {
    const field = async (response: Promise<{ status: number; json: Record<string, unknown> }>) => {
      const answer = await response;
      return { status: answer.status, codes: (answer.json.details as Array<{ field: string; code: string }>).map((d) => [d.field, d.code]) };
    };
    const payout = { reference: unique('text'), amount: 100_000, currency: 'NGN', enquiryId: await enquire() };
    expect(await field(owner.browser.call('POST', '/payouts', { ...payout, narration: 'Rent\u0000' }))).toEqual({ status: 400, codes: [['narration', 'control_characters']] });
    expect(await field(owner.browser.call('POST', '/payouts', { ...payout, narration: 'Rent\u202Etneр' }))).toEqual({ status: 400, codes: [['narration', 'invisible_characters']] });
    expect(await field(owner.browser.call('POST', '/payout-batches', { reference: unique('text'), title: 'Pay\u0000roll', csv: [HEADER, row(unique('t'), '100')].join('\n') }))).toEqual({ status: 400, codes: [['title', 'control_characters']] });
    expect((await owner.browser.call('POST', '/payouts', { ...payout, narration: 'Rent' })).status).toBe(201);
    expect(await field(approver.browser.call('POST', `/approvals/payout/${payout.reference}/reject`, { reason: 'No\u0000' }))).toEqual({ status: 400, codes: [['reason', 'control_characters']] });
    const cells = [`${unique('t')},${ACCOUNT.bankCode},${ACCOUNT.accountNumber},100,Sal\u0000ary,`, `${unique('t')},${ACCOUNT.bankCode},${ACCOUNT.accountNumber},100,Salary,Ada\u200BNwosu`];
    const dry = await owner.browser.call('POST', '/payout-batches/dry-run', { csv: [HEADER, ...cells].join('\n') });
    expect((dry.json.rows as Array<{ problem: string }>).map((r) => r.problem)).toEqual([expect.stringContaining('narration'), expect.stringContaining('expectedAccountName')]);
  });

  it('reads a row amount of any length exactly, and refuses one outside the payout limits as a row problem', async () => {
    const amounts = ['1000000000000000000000', '5000000.01', '99.99', '5000000', '100.5'];
    const dry = await owner.browser.call('POST', '/payout-batches/dry-run', { csv: [HEADER, ...amounts.map((amount) => row(unique('amt'), amount))].join('\n') });
    expect(dry.status).toBe(200);
    expect((dry.json.rows as Array<{ amount: number | null; problem: string | null }>).map((r) => [r.amount, r.problem])).toEqual([
      [null, expect.stringContaining('above the maximum of NGN 5000000.00')],
      [null, expect.stringContaining('above the maximum')],
      [9_999, expect.stringContaining('below the minimum payout of NGN 100.00')],
      [500_000_000, null],
      [10_050, null],
    ]);
  });

  it('pages payouts newest first with the cursor it issued', async () => {
    const prefix = unique('page');
    for (const n of [1, 2, 3]) expect((await owner.browser.call('POST', '/payouts', { reference: `${prefix}-${n}`, amount: 50_000, currency: 'NGN', enquiryId: await enquire(), narration: 'Refund' })).status).toBe(201);
    const first = await owner.browser.call('GET', `/payouts?q=${prefix}&limit=2`);
    expect((first.json.data as Array<{ reference: string }>).map((p) => p.reference)).toEqual([`${prefix}-3`, `${prefix}-2`]);
    const second = await owner.browser.call('GET', `/payouts?q=${prefix}&limit=2&after=${String(first.json.nextCursor)}`);
    expect(second.json).toMatchObject({ data: [{ reference: `${prefix}-1` }], nextCursor: null });
    // A cursor is for the filters it was issued with.
    expect((await owner.browser.call('GET', `/payouts?limit=2&after=${String(first.json.nextCursor)}`)).status).toBe(400);
  });

  it('never lets the member who made a payout approve it, nor a key they made; another approver does', async () => {
    const reference = unique('four-eyes');
    expect((await owner.browser.call('POST', '/payouts', { reference, amount: 120_000, currency: 'NGN', enquiryId: await enquire(), narration: 'Supplier' })).status).toBe(201);
    const own = await approveWithCode(owner, 'payout', reference);
    expect({ status: own.status, code: own.json.code }).toEqual({ status: 403, code: 'DASHBOARD_FOUR_EYES' });
    const made = await owner.browser.call('POST', '/keys', { roles: ['payouts:approve'] });
    const key = { ...MERCHANT_A, apiKey: String(made.json.apiKey), secretKey: String(made.json.secretKey) };
    const byKey = await call(key, 'POST', `/payment/api/payouts/${reference}/approve`, {});
    expect({ status: byKey.status, code: byKey.json.code }).toEqual({ status: 403, code: 'APPROVER_REQUIRED' });
    expect((await approveWithCode(approver, 'payout', reference)).json).toEqual({ kind: 'payout', reference, status: 'QUEUED' });
    const detail = await owner.browser.call('GET', `/payouts/${reference}`);
    expect(detail.json).toMatchObject({ payout: { status: 'QUEUED', approval: { status: 'approved', decidedBy: `dashboard:${approver.email}` } } });
  });

  it('rejects a payout with a reason, which the payout and the security log keep', async () => {
    const reference = unique('reject');
    const before = (await call(MERCHANT_A, 'GET', '/payment/api/balance')).json;
    expect((await operations.browser.call('POST', '/payouts', { reference, amount: 130_000, currency: 'NGN', enquiryId: await enquire(), narration: 'Bonus' })).status).toBe(201);
    expect((await approver.browser.call('POST', `/approvals/payout/${reference}/reject`, { reason: '   ' })).status).toBe(400);
    expect((await operations.browser.call('POST', `/approvals/payout/${reference}/reject`, { reason: 'No' })).json.code).toBe('DASHBOARD_ROLE_FORBIDDEN');
    const rejected = await approver.browser.call('POST', `/approvals/payout/${reference}/reject`, { reason: 'Not on the November list' });
    expect(rejected.json).toEqual({ kind: 'payout', reference, status: 'CANCELLED' });
    const detail = await operations.browser.call('GET', `/payouts/${reference}`);
    expect(detail.json).toMatchObject({ payout: { status: 'CANCELLED', cancellationReason: 'rejected', approval: { status: 'rejected', reason: 'Not on the November list', decidedBy: `dashboard:${approver.email}` } } });
    expect((detail.json.events as Array<{ type: string; note: string | null }>).map((e) => [e.type, e.note])).toEqual([['created', null], ['rejected', 'Not on the November list']]);
    const log = (await owner.browser.call('GET', '/security-log')).json.data as Array<{ action: string; subject: string; detail: Record<string, unknown> }>;
    expect(log.find((e) => e.action === 'payout.rejected' && e.subject === reference)?.detail).toMatchObject({ reason: 'Not on the November list', amount: 130_000 });
    // A second rejection records nothing, and says who decided.
    const again = await approver.browser.call('POST', `/approvals/payout/${reference}/reject`, { reason: 'Again' });
    expect({ status: again.status, code: again.json.code, message: again.json.message }).toEqual({ status: 409, code: 'DASHBOARD_CONFLICT', message: expect.stringContaining(`was rejected by dashboard:${approver.email}`) });
    expect((await owner.browser.call('GET', '/security-log')).json.data).toEqual(log);
    // Its hold is released: the balance is what it was before the payout.
    expect((await call(MERCHANT_A, 'GET', '/payment/api/balance')).json).toEqual(before);
  });

  it('dry-runs a file row by row, and makes no batch and no payout from a file with a bad row', async () => {
    const [good, mismatch, badAmount] = [unique('row'), unique('row'), unique('row')];
    const csv = [HEADER, row(good, '1500.50'), row(mismatch, '200', 'John Doe'), row(badAmount, '12.345'), row(good, '100')].join('\n');
    const dry = await operations.browser.call('POST', '/payout-batches/dry-run', { csv });
    expect(dry.status).toBe(200);
    expect(dry.json).toMatchObject({ count: 4, problems: 3, total: 150_050 + 20_000 + 10_000 });
    const rows = dry.json.rows as Array<{ line: number; reference: string; accountName: string | null; nameMatch: string | null; problem: string | null }>;
    expect(rows.map((r) => [r.line, r.reference, r.accountName, r.nameMatch])).toEqual([
      [2, good, ACCOUNT.accountName, 'exact'],
      [3, mismatch, ACCOUNT.accountName, 'none'],
      [4, badAmount, null, null],
      [5, good, null, null],
    ]);
    expect(rows.map((r) => r.problem)).toEqual([null, expect.stringContaining('name mismatch'), expect.stringContaining('the amount must be naira'), 'the reference appears on an earlier row']);
    const batch = unique('refused');
    const refused = await operations.browser.call('POST', '/payout-batches', { reference: batch, title: 'November payroll', csv });
    expect(refused.status).toBe(400);
    expect((refused.json.details as Array<{ message: string }>).map((d) => d.message)).toEqual([expect.stringMatching(/^Line 3 /), expect.stringMatching(/^Line 4 /), expect.stringMatching(/^Line 5 /)]);
    expect((await operations.browser.call('GET', `/payout-batches/${batch}`)).json.code).toBe('DASHBOARD_NOT_FOUND');
    expect((await operations.browser.call('GET', `/payouts?q=${good}`)).json.data).toEqual([]);
    // The file as a whole: not CSV, no header, too many rows (DASHBOARD_BATCH_MAX_ROWS is 5 here).
    for (const text of ['a,"open', 'reference,amount\nx,1', [HEADER, ...Array.from({ length: 6 }, (_, i) => row(`many-${i}`, '1'))].join('\n')]) {
      const whole = await operations.browser.call('POST', '/payout-batches/dry-run', { csv: text });
      expect({ status: whole.status, field: (whole.json.details as Array<{ field: string }>)[0]?.field }).toEqual({ status: 400, field: 'csv' });
    }
  });

  it('refuses a row whose bank code or account number the enquiry would refuse, before asking the bank', async () => {
    const rows = [`${unique('g')},999,${ACCOUNT.accountNumber},100,Salary,`, `${unique('g')},05 8,${ACCOUNT.accountNumber},100,Salary,`, `${unique('g')},${ACCOUNT.bankCode},12345,100,Salary,`, `${unique('g')},${ACCOUNT.bankCode},012345678x,100,Salary,`];
    const dry = await operations.browser.call('POST', '/payout-batches/dry-run', { csv: [HEADER, ...rows].join('\n') });
    expect(dry.json).toMatchObject({ count: 4, problems: 4 });
    const results = dry.json.rows as Array<{ accountName: string | null; problem: string }>;
    expect(results.map((r) => [r.accountName, r.problem])).toEqual([
      [null, expect.stringContaining('not a supported bank')],
      [null, expect.stringContaining('not a supported bank')],
      [null, expect.stringContaining('10 digits')],
      [null, expect.stringContaining('10 digits')],
    ]);
  });

  it('makes a batch from a file that passes; its creator may not approve it, another approver submits it with its count and total', async () => {
    const batch = unique('payroll');
    const [first, second] = [unique('item'), unique('item')];
    const created = await operations.browser.call('POST', '/payout-batches', { reference: batch, title: 'November payroll', csv: [HEADER, row(first, '1500'), row(second, '250.50', '')].join('\r\n') });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({ batch: { reference: batch, status: 'OPEN', count: 2, total: 175_050, createdBy: `dashboard:${operations.email}` } });
    // Made in the same instant of the test's clock: their order is the references'.
    expect((created.json.payouts as Array<{ reference: string; status: string }>).map((p) => [p.reference, p.status]).sort()).toEqual([[first, 'PENDING_APPROVAL'], [second, 'PENDING_APPROVAL']].sort());
    expect((await operations.browser.call('POST', '/payout-batches', { reference: batch, title: 'Again', csv: [HEADER, row(unique('x'), '1')].join('\n') })).json.code).toBe('DASHBOARD_CONFLICT');
    // Its payouts need approval: its maker cannot submit it.
    expect((await operations.browser.call('POST', `/payout-batches/${batch}/submit`, { expectedCount: 2, expectedTotal: 175_050 })).json.code).toBe('DASHBOARD_CONFLICT');
    const listed = (await approver.browser.call('GET', '/approvals')).json.data as Array<Record<string, unknown>>;
    expect(listed.find((a) => a.reference === batch)).toMatchObject({ kind: 'batch', amount: 175_050, count: 2, createdBy: `dashboard:${operations.email}` });
    expect((await approveWithCode(approver, 'batch', batch)).json).toEqual({ kind: 'batch', reference: batch, status: 'SUBMITTED' });
    expect((await operations.browser.call('GET', `/payout-batches?status=SUBMITTED`)).json.data).toEqual(expect.arrayContaining([expect.objectContaining({ reference: batch })]));
  });

  it('refuses the submission of a batch needing approval to an owner who did not make it: only its approval, with a second factor, submits it', async () => {
    const batch = unique('no-bypass');
    expect((await operations.browser.call('POST', '/payout-batches', { reference: batch, title: 'Commissions', csv: [HEADER, row(unique('c'), '1200')].join('\n') })).status).toBe(201);
    const submit = await owner.browser.call('POST', `/payout-batches/${batch}/submit`, { expectedCount: 1, expectedTotal: 120_000 });
    expect({ status: submit.status, code: submit.json.code }).toEqual({ status: 409, code: 'DASHBOARD_CONFLICT' });
    expect((await owner.browser.call('GET', `/payout-batches/${batch}`)).json).toMatchObject({ batch: { status: 'OPEN' }, payouts: [{ status: 'PENDING_APPROVAL' }] });
  });

  it('makes one batch of one file when two creates of one reference race; the other is refused and adds nothing', async () => {
    const batch = unique('race');
    const files = [[unique('r'), unique('r')], [unique('s'), unique('s')]];
    const answers = await Promise.all(files.map((refs) => operations.browser.call('POST', '/payout-batches', { reference: batch, title: 'Payroll', csv: [HEADER, ...refs.map((r) => row(r, '100'))].join('\n') })));
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409]);
    const refused = answers.find((a) => a.status === 409);
    expect(refused?.json.code).toBe('DASHBOARD_CONFLICT');
    const winner = files[answers.findIndex((a) => a.status === 201)] ?? [];
    const detail = await operations.browser.call('GET', `/payout-batches/${batch}`);
    expect(detail.json).toMatchObject({ batch: { status: 'OPEN', count: 2, total: 20_000 } });
    expect((detail.json.payouts as Array<{ reference: string }>).map((p) => p.reference).sort()).toEqual([...winner].sort());
  });

  it('lists and approves no batch while its rows are being added; a row refused late cancels it with its holds released', async () => {
    const batch = unique('building');
    const service = api.app.get(PayoutsService);
    const createAsMember = service.createAsMember.bind(service);
    let midway: () => void = () => undefined;
    const reached = new Promise<void>((resolve) => (midway = resolve));
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    let calls = 0;
    // The second row waits until the test has looked, then is refused as a row refused at creation would be (its enquiry gone).
    const spy = jest.spyOn(service, 'createAsMember').mockImplementation(async (merchantId, createdBy, input) => {
      if (++calls < 2) return createAsMember(merchantId, createdBy, input);
      midway();
      await released;
      return createAsMember(merchantId, createdBy, { ...input, enquiryId: 'enq_0000000000000000000000' });
    });
    const before = (await call(MERCHANT_A, 'GET', '/payment/api/balance')).json;
    try {
      const creating = operations.browser.call('POST', '/payout-batches', { reference: batch, title: 'Half made', csv: [HEADER, row(unique('h'), '700'), row(unique('h'), '800')].join('\n') });
      await reached;
      expect(((await approver.browser.call('GET', '/approvals')).json.data as Array<{ reference: string }>).map((a) => a.reference)).not.toContain(batch);
      const approval = await approveWithCode(approver, 'batch', batch);
      expect({ status: approval.status, code: approval.json.code }).toEqual({ status: 409, code: 'DASHBOARD_CONFLICT' });
      release();
      expect((await creating).json.code).toBe('ENQUIRY_NOT_FOUND');
    } finally {
      spy.mockRestore();
    }
    expect((await owner.browser.call('GET', `/payout-batches/${batch}`)).json).toMatchObject({ batch: { status: 'CANCELLED' }, payouts: [{ status: 'CANCELLED' }] });
    expect((await call(MERCHANT_A, 'GET', '/payment/api/balance')).json).toEqual(before);
    const log = (await owner.browser.call('GET', '/security-log')).json.data as Array<{ action: string; subject: string; detail: Record<string, unknown> }>;
    expect(log.find((e) => e.subject === batch)).toMatchObject({ action: 'batch.cancelled', detail: { why: 'a row was refused as it was added: ENQUIRY_NOT_FOUND' } });
  });

  it('creates no payout whose security log line could not be written: the two commit together', async () => {
    const audit = api.app.get(DashboardAudit);
    const record = audit.record.bind(audit);
    const spy = jest.spyOn(audit, 'record').mockImplementation(async (actor, action, about, tx) => {
      if (action === 'payout.created') throw new ApiException('DASHBOARD_CONFLICT', { why: 'the security log refused the line' });
      return record(actor, action, about, tx);
    });
    const reference = unique('unlogged');
    const before = (await call(MERCHANT_A, 'GET', '/payment/api/balance')).json;
    try {
      expect((await owner.browser.call('POST', '/payouts', { reference, amount: 20_000, currency: 'NGN', enquiryId: await enquire(), narration: 'Rent' })).json.code).toBe('DASHBOARD_CONFLICT');
    } finally {
      spy.mockRestore();
    }
    expect((await owner.browser.call('GET', `/payouts/${reference}`)).json.code).toBe('DASHBOARD_NOT_FOUND');
    expect((await call(MERCHANT_A, 'GET', '/payment/api/balance')).json).toEqual(before);
  });

  it('refuses the owner who made a batch its approval, and rejects it with a reason that each of its payouts keeps', async () => {
    const batch = unique('rejected');
    expect((await owner.browser.call('POST', '/payout-batches', { reference: batch, title: 'Bonuses', csv: [HEADER, row(unique('b'), '300'), row(unique('b'), '400')].join('\n') })).status).toBe(201);
    const own = await approveWithCode(owner, 'batch', batch);
    expect({ status: own.status, code: own.json.code }).toEqual({ status: 403, code: 'DASHBOARD_FOUR_EYES' });
    expect((await approver.browser.call('POST', `/approvals/batch/${batch}/reject`, { reason: 'Bonuses are paid in December' })).json).toEqual({ kind: 'batch', reference: batch, status: 'CANCELLED' });
    const detail = await owner.browser.call('GET', `/payout-batches/${batch}`);
    expect(detail.json).toMatchObject({ batch: { status: 'CANCELLED' } });
    expect((detail.json.payouts as Array<{ status: string; approval: { status: string; reason: string } }>).map((p) => [p.status, p.approval.status, p.approval.reason])).toEqual([
      ['CANCELLED', 'rejected', 'Bonuses are paid in December'],
      ['CANCELLED', 'rejected', 'Bonuses are paid in December'],
    ]);
  });

  it('lets the maker of a batch that needs no approval submit it, only with the count and total it holds', async () => {
    await fund(MERCHANT_B, 50_000);
    const link = await merchantAdmin(api).run((admin) => admin.setupLink(MERCHANT_B.merchantId, { email: `owner-b-${randomUUID().slice(0, 6)}@example.com`, origin: api.baseUrl, ttlSeconds: 86_400 }));
    const ownerB = await acceptLink(api, clock, link.setupUrl);
    const batch = unique('small');
    expect((await ownerB.browser.call('POST', '/payout-batches', { reference: batch, title: 'Tips', csv: [HEADER, row(unique('t'), '200'), row(unique('t'), '100')].join('\n') })).json).toMatchObject({ payouts: [{ status: 'BATCHED' }, { status: 'BATCHED' }] });
    const mismatch = await ownerB.browser.call('POST', `/payout-batches/${batch}/submit`, { expectedCount: 2, expectedTotal: 20_000 });
    expect({ status: mismatch.status, code: mismatch.json.code, fields: (mismatch.json.details as Array<{ field: string }>).map((d) => d.field) }).toEqual({ status: 409, code: 'PAYOUT_BATCH_MISMATCH', fields: ['expectedTotal'] });
    const submitted = await ownerB.browser.call('POST', `/payout-batches/${batch}/submit`, { expectedCount: 2, expectedTotal: 30_000 });
    expect(submitted.json).toMatchObject({ reference: batch, status: 'SUBMITTED', submittedBy: `dashboard:${ownerB.email}` });
    expect((await owner.browser.call('GET', `/payout-batches/${batch}`)).json.code).toBe('DASHBOARD_NOT_FOUND');
  });
});

describeWithStore('PostgreSQL', DATABASE_URL, 'dashboard batch files and the enquiry allowance', () => {
  let api: TestApp;
  const clock = new TestClock();
  let owner: SignedInMember;

  beforeAll(async () => {
    api = await startTestApp({ MERCHANTS_FILE: payoutMerchantsFile(), RATE_LIMIT_ENQUIRY_PER_KEY_PER_MINUTE: '3' }, { overrides: { clock: clock.now }, startJobs: false });
    const link = await merchantAdmin(api).run((admin) => admin.setupLink(MERCHANT_A.merchantId, { email: `owner-${randomUUID().slice(0, 6)}@example.com`, origin: api.baseUrl, ttlSeconds: 3600 }));
    owner = await acceptLink(api, clock, link.setupUrl);
  });
  afterAll(() => api.close());

  it("counts each row a file enquires against the member's enquiry allowance, and refuses a file needing more than is left before enquiring any", async () => {
    expect((await owner.browser.call('POST', '/account-enquiries', { bankCode: ACCOUNT.bankCode, accountNumber: ACCOUNT.accountNumber })).status).toBe(200);
    const file = (n: number) => [HEADER, ...Array.from({ length: n }, () => row(unique('a'), '100'))].join('\n');
    const refused = await owner.browser.call('POST', '/payout-batches/dry-run', { csv: file(3) });
    expect({ status: refused.status, code: refused.json.code }).toEqual({ status: 429, code: 'RATE_LIMITED' });
    expect(refused.headers.get('retry-after')).toMatch(/^[0-9]+$/);
    const create = await owner.browser.call('POST', '/payout-batches', { reference: unique('limited'), title: 'Payroll', csv: file(3) });
    expect({ status: create.status, code: create.json.code }).toEqual({ status: 429, code: 'RATE_LIMITED' });
  });
});
