// Payouts over HTTP, on the real app: bound to an enquiry, held in the ledger, sent to the sandbox provider and settled by its answers.
import { SANDBOX_PAYOUT_ACCOUNTS, type SandboxPayoutBehaviour } from '../src/providers/sandbox/sandbox-payout-accounts';
import { SqlClient } from '../src/db/sql-client';
import { JobRunner } from '../src/jobs/job-runner';
import { checkLedger } from '../src/ledger-invariants';
import { PayoutDispatcher } from '../src/payouts/payout-dispatcher';
import type { PayoutTransfers } from '../src/providers/ports/payout-transfers.port';
import { ProviderRegistry } from '../src/providers/provider-registry';
import { signedCall, type ApiResponse } from './support/api-client';
import { MERCHANT_A, MERCHANT_B, type TestCredential } from './support/credentials';
import { payoutMerchantsFile } from './support/payout-merchants';
import { TestClock } from './support/test-clock';
import { startEmbeddedTestApp, startProductionTestApp, startTestApp, type TestApp } from './support/test-app';

const PAYOUTS = '/payment/api/payouts';
const DEFAULT_ACCOUNT = { bankCode: '058', accountNumber: '0123456785', accountName: 'ADAEZE NWOSU' };
const accountWith = (kind: SandboxPayoutBehaviour['kind'], reason?: string) =>
  SANDBOX_PAYOUT_ACCOUNTS.find((account) => account.behaviour.kind === kind && (reason === undefined || ('reason' in account.behaviour && account.behaviour.reason === reason))) as (typeof SANDBOX_PAYOUT_ACCOUNTS)[number];

let sequence = 0;
const unique = (prefix: string) => `${prefix}-${Date.now()}-${sequence++}`;

/** The calls a merchant makes, against one app. */
function merchantOf(api: TestApp, credential: TestCredential = MERCHANT_A) {
  const call = (method: 'GET' | 'POST', pathAndQuery: string, body?: unknown) =>
    signedCall(api.baseUrl, { method, path: pathAndQuery, credential, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  return {
    call,
    /** Makes `naira` available: a payin made successful, which settles at once in sandbox. */
    async fund(naira: number): Promise<void> {
      const reference = unique('fund');
      expect((await call('POST', '/payment/api/payins', { amount: naira, currency: 'NGN', customerEmail: 'ada@example.com', reference })).status).toBe(201);
      expect((await call('POST', `/payment/api/payins/${reference}/simulate`, { outcome: 'successful' })).status).toBe(200);
    },
    async enquire(account: { bankCode: string; accountNumber: string } = DEFAULT_ACCOUNT): Promise<string> {
      const enquiry = await call('POST', '/payment/merchant-api/account/inquiry', { bankCode: account.bankCode, accountNumber: account.accountNumber });
      expect(enquiry.status).toBe(200);
      return enquiry.json.enquiryId as string;
    },
    balance: async () => (await call('GET', '/payment/api/balance')).json,
    create: (body: Record<string, unknown>) => call('POST', PAYOUTS, body),
    get: (reference: string) => call('GET', `${PAYOUTS}/${reference}`),
    /** A payout of `amount` to `account`, created; its reference. */
    async payout(amount: number, account: { bankCode: string; accountNumber: string } = DEFAULT_ACCOUNT, extra: Record<string, unknown> = {}): Promise<string> {
      const reference = unique('po');
      const created = await call('POST', PAYOUTS, { reference, amount, currency: 'NGN', enquiryId: await this.enquire(account), narration: 'Invoice', ...extra });
      expect(created.status).toBe(201);
      return reference;
    },
  };
}

/** The app's runs of each payout job, as the jobs would run them on their own. */
async function runJob(api: TestApp, job: 'payout-dispatch' | 'payout-status-check'): Promise<void> {
  await api.app.get(JobRunner).runNow(job);
  // The dispatch starts sends and returns; what the test asserts is after they end.
  await api.app.get(PayoutDispatcher).idle();
}
/** The sandbox provider, as the service calls it: its answers come from its own books. */
const sandboxProvider = (api: TestApp) => api.app.get(ProviderRegistry).payouts('sandbox') as PayoutTransfers;
/** What the sandbox provider answers a status check of the transfer with now, as the payout status it would move a payout to. */
async function providerSays(api: TestApp, providerReference: string): Promise<string> {
  const status = await sandboxProvider(api).status({ providerReference, amountMinor: 100_000n, paid: false, merchantId: MERCHANT_A.merchantId }, AbortSignal.timeout(5_000));
  return status.outcome === 'failed' ? `FAILED ${status.reason}` : status.outcome.toUpperCase();
}
const transfersOf = async (api: TestApp, providerReference: string) =>
  (await api.app.get<SqlClient>(SqlClient).query<{ sends: number }>('SELECT sends FROM sandbox_payout_transfers WHERE provider_reference = $1', [providerReference])).rows;

function payoutSuite(name: string, start: (env: Record<string, string>, options: { overrides: { storeClock: () => number }; startJobs: false }) => Promise<TestApp>) {
  describe(`payouts on ${name}`, () => {
    // The store's clock: status checks and enquiries are due and expire by it, while requests are signed in real time.
    const clock = new TestClock();
    let api: TestApp;
    let a: ReturnType<typeof merchantOf>;
    let b: ReturnType<typeof merchantOf>;
    beforeAll(async () => {
      api = await start(
        {
          MERCHANTS_FILE: payoutMerchantsFile(),
          SANDBOX_PAYOUT_DELAY_MS: '0',
          PAYOUT_PROVIDER_TIMEOUT_MS: '300',
          PAYOUT_DAILY_LIMIT: '1000000',
        },
        // The jobs run when a test runs them, not on a timer or when a payout is created.
        { overrides: { storeClock: clock.now }, startJobs: false },
      );
      a = merchantOf(api, MERCHANT_A);
      b = merchantOf(api, MERCHANT_B);
      await a.fund(500_000);
      await b.fund(10_000);
    });
    afterAll(async () => {
      expect(await checkLedger(api.app.get<SqlClient>(SqlClient))).toEqual([]);
      await api.close();
    });

    it('holds the amount and its fee from available, queues the payout, and answers a retry with it as it is now', async () => {
      const before = await a.balance();
      const reference = unique('po');
      const body = { reference, amount: 5000, currency: 'NGN', enquiryId: await a.enquire(), narration: 'Invoice 88', expectedAccountName: 'Nwosu Adaeze' };
      const created = await a.create(body);
      expect(created.status).toBe(201);
      expect(created.headers.get('location')).toBe(`${PAYOUTS}/${reference}`);
      expect(created.json).toMatchObject({ reference, status: 'QUEUED', amount: 5000, fee: 25, accountName: 'ADAEZE NWOSU', nameMatch: 'exact', version: 1, providerReference: null });
      expect(await a.balance()).toMatchObject({ available: (before.available as number) - 5025, held: (before.held as number) + 5025 });
      const replay = await a.create(body);
      expect(replay.status).toBe(200);
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      expect(replay.json).toEqual((await a.get(reference)).json);
      const conflict = await a.create({ ...body, amount: 5001 });
      expect(conflict.status).toBe(409);
      expect(conflict.json.code).toBe('IDEMPOTENCY_CONFLICT');
      expect((await a.get(reference)).json).toEqual(created.json);
      expect((await a.call('POST', `${PAYOUTS}/${reference}/cancel`, {})).json).toMatchObject({ status: 'CANCELLED' });
      expect(await a.balance()).toEqual(before);
    });

    it('sends it, and on the provider\'s success takes the amount to the provider and the fee to revenue, with a payout.successful event', async () => {
      const before = await a.balance();
      const reference = await a.payout(1000);
      await runJob(api, 'payout-dispatch');
      const paid = (await a.get(reference)).json;
      expect(paid).toMatchObject({ status: 'SUCCESSFUL', version: 3, failureReason: null, completedAt: expect.any(String), providerReference: expect.stringMatching(/^PSX-/) });
      expect(await a.balance()).toMatchObject({ available: (before.available as number) - 1025, held: before.held });
      expect(await transfersOf(api, paid.providerReference as string)).toEqual([{ sends: 1 }]);
      const entries = ((await a.call('GET', '/payment/api/balance/entries?limit=4')).json.data as Array<Record<string, unknown>>).map((e) => [e.type, e.balance, e.amount, e.objectType]);
      expect(entries).toEqual([
        ['payout_fee', 'held', -25, 'payout'],
        ['payout_debit', 'held', -1000, 'payout'],
        ['payout_hold', 'held', 1025, 'payout'],
        ['payout_hold', 'available', -1025, 'payout'],
      ]);
      const events = (await a.call('GET', `${PAYOUTS}/${reference}/events`)).json.data as Array<Record<string, unknown>>;
      expect(events.map((event) => [event.type, (event.payload as { version: number }).version])).toEqual([['payout.successful', 3]]);
      expect(events[0]?.notifyUrl).toBe('http://127.0.0.1:9/hooks');
    });

    it.each(SANDBOX_PAYOUT_ACCOUNTS.filter((account) => account.behaviour.kind === 'fails').map((account) => [(account.behaviour as { reason: string }).reason, account] as const))(
      'fails with %s when the provider says so, and releases the hold',
      async (reason, account) => {
        const before = await a.balance();
        const reference = await a.payout(1000, account);
        await runJob(api, 'payout-dispatch');
        expect((await a.get(reference)).json).toMatchObject({ status: 'FAILED', failureReason: reason, version: 3 });
        expect(await a.balance()).toEqual(before);
      },
    );

    it('sends nothing to an account renamed since its enquiry, and fails the payout with account_name_changed', async () => {
      const before = await a.balance();
      const reference = await a.payout(1000, accountWith('renamed'));
      await runJob(api, 'payout-dispatch');
      const failed = (await a.get(reference)).json;
      expect(failed).toMatchObject({ status: 'FAILED', failureReason: 'account_name_changed' });
      expect(await transfersOf(api, failed.providerReference as string)).toEqual([]);
      expect(await a.balance()).toEqual(before);
    });

    it('pays a Tier-1 account up to ₦50,000, and fails a larger payout with transfer_limit_exceeded', async () => {
      const small = await a.payout(40_000, accountWith('tier-one'));
      const large = await a.payout(60_000, accountWith('tier-one'));
      await runJob(api, 'payout-dispatch');
      expect((await a.get(small)).json).toMatchObject({ status: 'SUCCESSFUL' });
      expect((await a.get(large)).json).toMatchObject({ status: 'FAILED', failureReason: 'transfer_limit_exceeded' });
    });

    it('keeps a pending transfer PROCESSING until a status check hears of its success, at 1 then 5 minutes', async () => {
      const reference = await a.payout(1000, accountWith('pending-then-successful'));
      await runJob(api, 'payout-dispatch');
      const sent = (await a.get(reference)).json;
      expect(sent).toMatchObject({ status: 'PROCESSING', version: 2, nextStatusCheckAt: expect.any(String) });
      clock.advance(60_000);
      await runJob(api, 'payout-status-check');
      expect((await a.get(reference)).json).toMatchObject({ status: 'PROCESSING' });
      clock.advance(240_000);
      await runJob(api, 'payout-status-check');
      expect((await a.get(reference)).json).toMatchObject({ status: 'SUCCESSFUL', version: 3 });
      expect(await transfersOf(api, sent.providerReference as string)).toEqual([{ sends: 1 }]);
    });

    it('leaves a payout whose answer was lost PROCESSING, never sends it again, and learns of its success from the status check', async () => {
      const reference = await a.payout(1000, accountWith('answer-lost'));
      await runJob(api, 'payout-dispatch');
      const sent = (await a.get(reference)).json;
      expect(sent).toMatchObject({ status: 'PROCESSING' });
      clock.advance(60_000);
      await runJob(api, 'payout-status-check');
      expect((await a.get(reference)).json).toMatchObject({ status: 'SUCCESSFUL' });
      expect(await transfersOf(api, sent.providerReference as string)).toEqual([{ sends: 1 }]);
    });

    it('reverses a successful payout its bank returns, gives its money and fee back, and sends payout.reversed with a higher version', async () => {
      const before = await a.balance();
      const reference = await a.payout(1000, accountWith('reversed-after'));
      await runJob(api, 'payout-dispatch');
      expect((await a.get(reference)).json).toMatchObject({ status: 'SUCCESSFUL', version: 3 });
      clock.advance(61_000);
      await runJob(api, 'payout-status-check');
      expect((await a.get(reference)).json).toMatchObject({ status: 'REVERSED', version: 4, failureReason: 'reversed_by_beneficiary_bank', reversedAt: expect.any(String) });
      expect(await a.balance()).toEqual(before);
      const events = (await a.call('GET', `${PAYOUTS}/${reference}/events`)).json.data as Array<{ type: string; payload: { version: number; data: { status: string } } }>;
      expect(events.map((event) => [event.type, event.payload.version, event.payload.data.status])).toEqual([
        ['payout.successful', 3, 'SUCCESSFUL'],
        ['payout.reversed', 4, 'REVERSED'],
      ]);
    });

    it('sends a transfer the provider never received again, under the same provider reference, once the grace window has passed', async () => {
      const reference = await a.payout(1000);
      // An instance took it to PROCESSING, recording its provider and reference, and died before sending: the payout is claimed, and nothing reached the provider.
      await api.app.get<SqlClient>(SqlClient).query(
        `UPDATE payouts SET status = 'PROCESSING', version = 2, provider = 'sandbox', provider_reference = 'PSX-lost-' || reference, processing_at = $2::timestamptz, next_status_check_at = $3::timestamptz WHERE reference = $1`,
        [reference, new Date(clock.now()).toISOString(), new Date(clock.now() + 60_000).toISOString()],
      );
      clock.advance(60_000);
      await runJob(api, 'payout-status-check');
      expect((await a.get(reference)).json).toMatchObject({ status: 'PROCESSING' });
      clock.advance(300_000);
      await runJob(api, 'payout-status-check');
      expect((await a.get(reference)).json).toMatchObject({ status: 'SUCCESSFUL', providerReference: `PSX-lost-${reference}` });
      expect(await transfersOf(api, `PSX-lost-${reference}`)).toEqual([{ sends: 1 }]);
    });

    it('flags a payout with no definitive answer after 72 hours as needing attention, and keeps checking it daily', async () => {
      const reference = await a.payout(1000, accountWith('stays-pending'));
      await runJob(api, 'payout-dispatch');
      for (let hours = 0; hours < 73; hours++) {
        clock.advance(3_600_000);
        await runJob(api, 'payout-status-check');
      }
      const flagged = (await a.get(reference)).json;
      expect(flagged).toMatchObject({ status: 'PROCESSING', needsAttention: true });
      expect(Date.parse(flagged.nextStatusCheckAt as string) - clock.now()).toBeGreaterThan(3_600_000);
      expect(api.logs.some((line) => line.msg === 'payout needs attention: no definitive answer from the provider in 72 hours' && line.reference === reference)).toBe(true);
    });

    it('answers a requery with a status check now, and a second within a minute with 429 and Retry-After', async () => {
      const reference = await a.payout(1000, accountWith('pending-then-successful'));
      await runJob(api, 'payout-dispatch');
      expect((await a.call('POST', `${PAYOUTS}/${reference}/requery`, {})).json).toMatchObject({ status: 'PROCESSING' });
      const refused = await a.call('POST', `${PAYOUTS}/${reference}/requery`, {});
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      clock.advance(60_000);
      expect((await a.call('POST', `${PAYOUTS}/${reference}/requery`, {})).json).toMatchObject({ status: 'SUCCESSFUL' });
    });

    it('cancels a queued payout and releases its hold, and refuses to cancel one already sent', async () => {
      const before = await a.balance();
      const reference = await a.payout(1000);
      const cancelled = await a.call('POST', `${PAYOUTS}/${reference}/cancel`, {});
      expect(cancelled.json).toMatchObject({ status: 'CANCELLED', version: 2, completedAt: expect.any(String) });
      expect(await a.balance()).toEqual(before);
      const sent = await a.payout(1000, accountWith('stays-pending'));
      await runJob(api, 'payout-dispatch');
      const refused = await a.call('POST', `${PAYOUTS}/${sent}/cancel`, {});
      expect(refused.status).toBe(409);
      expect(refused.json).toMatchObject({ code: 'PAYOUT_NOT_CANCELLABLE', message: expect.stringContaining('PROCESSING') });
      expect((await a.call('POST', `${PAYOUTS}/${reference}/cancel`, {})).status).toBe(409);
    });

    it('simulates the provider in sandbox: a queued payout to successful, then reversed; nothing out of a final state', async () => {
      const reference = await a.payout(1000, accountWith('stays-pending'));
      expect((await a.call('POST', `${PAYOUTS}/${reference}/simulate`, { outcome: 'successful' })).json).toMatchObject({ status: 'SUCCESSFUL', version: 3 });
      const reversed = (await a.call('POST', `${PAYOUTS}/${reference}/simulate`, { outcome: 'reversed' })).json;
      expect(reversed).toMatchObject({ status: 'REVERSED', version: 4 });
      expect(await providerSays(api, reversed.providerReference as string)).toBe('REVERSED');
      const failed = await a.payout(1000, accountWith('stays-pending'));
      expect((await a.call('POST', `${PAYOUTS}/${failed}/simulate`, { outcome: 'failed', reason: 'do_not_honor' })).json).toMatchObject({ status: 'FAILED', failureReason: 'do_not_honor' });
      const refused = await a.call('POST', `${PAYOUTS}/${failed}/simulate`, { outcome: 'reversed' });
      expect(refused.status).toBe(409);
      expect(refused.json.code).toBe('PAYOUT_TRANSITION_NOT_ALLOWED');
      expect((await a.call('POST', `${PAYOUTS}/${failed}/simulate`, { outcome: 'successful', reason: 'do_not_honor' })).status).toBe(400);
    });

    it('refuses to simulate a failure once the sandbox provider made the transfer, and the status check then settles the payout as the provider says', async () => {
      const reference = await a.payout(1000, accountWith('answer-lost'));
      // The transfer is made at the provider; its answer never arrives, so the send is still under way as far as the payout knows.
      await runJob(api, 'payout-dispatch');
      const sent = (await a.get(reference)).json;
      expect(sent).toMatchObject({ status: 'PROCESSING' });
      const refused = await a.call('POST', `${PAYOUTS}/${reference}/simulate`, { outcome: 'failed', reason: 'do_not_honor' });
      expect({ status: refused.status, code: refused.json.code }).toEqual({ status: 409, code: 'PAYOUT_TRANSITION_NOT_ALLOWED' });
      expect((await a.get(reference)).json).toMatchObject({ status: 'PROCESSING', version: sent.version });
      clock.advance(60_000);
      await runJob(api, 'payout-status-check');
      expect((await a.get(reference)).json).toMatchObject({ status: 'SUCCESSFUL' });
      expect(await providerSays(api, sent.providerReference as string)).toBe('SUCCESSFUL');
    });

    it('records a simulated failure in the sandbox provider\'s books, so that the send under way is answered with it and a status check agrees', async () => {
      const before = await a.balance();
      const reference = await a.payout(1000);
      const failed = (await a.call('POST', `${PAYOUTS}/${reference}/simulate`, { outcome: 'failed', reason: 'do_not_honor' })).json;
      expect(failed).toMatchObject({ status: 'FAILED', failureReason: 'do_not_honor', providerReference: expect.stringMatching(/^PSX-/) });
      const providerReference = failed.providerReference as string;
      // The send reaches the provider after the simulation: it is answered from the books, and makes no transfer.
      const arriving = { merchantId: MERCHANT_A.merchantId, providerReference, bankCode: DEFAULT_ACCOUNT.bankCode, accountNumber: DEFAULT_ACCOUNT.accountNumber, accountName: DEFAULT_ACCOUNT.accountName, amountMinor: 100_000n, narration: 'Invoice' };
      expect(await sandboxProvider(api).send(arriving, AbortSignal.timeout(5_000))).toEqual({ outcome: 'failed', reason: 'do_not_honor' });
      expect(await providerSays(api, providerReference)).toBe('FAILED do_not_honor');
      expect((await a.get(reference)).json).toMatchObject({ status: 'FAILED', failureReason: 'do_not_honor' });
      expect(await a.balance()).toEqual(before);
    });

    it('leaves the payout and the sandbox provider agreeing when a simulated failure races the dispatch\'s send, whichever comes first', async () => {
      for (let round = 0; round < 5; round++) {
        const reference = await a.payout(1000);
        const [, simulated] = await Promise.all([api.app.get(JobRunner).runNow('payout-dispatch'), a.call('POST', `${PAYOUTS}/${reference}/simulate`, { outcome: 'failed', reason: 'do_not_honor' })]);
        await api.app.get(PayoutDispatcher).idle();
        const payout = (await a.get(reference)).json;
        // Refused only because the provider made the transfer first; either way the status check tells the payout's own story.
        expect({ round, simulated: simulated.status, payout: payout.status }).toEqual({ round, simulated: simulated.status, payout: simulated.status === 200 ? 'FAILED' : 'SUCCESSFUL' });
        expect(await providerSays(api, payout.providerReference as string)).toBe(payout.status === 'FAILED' ? 'FAILED do_not_honor' : 'SUCCESSFUL');
      }
    });

    describe('refusals, with nothing held', () => {
      const refusedWith = async (response: ApiResponse | Promise<ApiResponse>, status: number, code: string) => {
        const answered = await response;
        expect({ status: answered.status, code: answered.json.code }).toEqual({ status, code });
        return answered;
      };

      it('INSUFFICIENT_BALANCE when the amount and its fee exceed available, saying how much is missing', async () => {
        const before = await b.balance();
        const refused = await refusedWith(b.create({ reference: unique('po'), amount: 9_990, currency: 'NGN', enquiryId: await b.enquire(), narration: 'Too much' }), 422, 'INSUFFICIENT_BALANCE');
        expect(refused.json.message).toContain('NGN 10015.00');
        expect(await b.balance()).toEqual(before);
      });

      it('ENQUIRY_NOT_FOUND for an unknown enquiry and for another merchant\'s, ENQUIRY_EXPIRED past its expiry', async () => {
        await refusedWith(a.create({ reference: unique('po'), amount: 1000, currency: 'NGN', enquiryId: 'enq_AAAAAAAAAAAAAAAAAAAAAA', narration: 'x' }), 422, 'ENQUIRY_NOT_FOUND');
        await refusedWith(a.create({ reference: unique('po'), amount: 1000, currency: 'NGN', enquiryId: await b.enquire(), narration: 'x' }), 422, 'ENQUIRY_NOT_FOUND');
        const enquiryId = await a.enquire();
        clock.advance(1_800_000);
        await refusedWith(a.create({ reference: unique('po'), amount: 1000, currency: 'NGN', enquiryId, narration: 'x' }), 422, 'ENQUIRY_EXPIRED');
      });

      it('PAYOUT_LIMIT_EXCEEDED below ₦100, above the maximum, and past the daily total', async () => {
        const enquiryId = await a.enquire();
        const create = (amount: number) => a.create({ reference: unique('po'), amount, currency: 'NGN', enquiryId, narration: 'x' });
        expect((await refusedWith(create(99.99), 422, 'PAYOUT_LIMIT_EXCEEDED')).json.message).toContain('below the minimum payout of NGN 100.00');
        expect((await refusedWith(create(5_000_000.01), 422, 'PAYOUT_LIMIT_EXCEEDED')).json.message).toContain('above the maximum');
        expect((await refusedWith(create(1_000_000.01), 422, 'PAYOUT_LIMIT_EXCEEDED')).json.message).toContain('past the daily total of NGN 1000000.00');
      });

      it('ACCOUNT_NAME_MISMATCH when the expected name is not the enquired one; a partial match is accepted and said to be', async () => {
        const enquiryId = await a.enquire();
        await refusedWith(a.create({ reference: unique('po'), amount: 1000, currency: 'NGN', enquiryId, narration: 'x', expectedAccountName: 'Chinedu Okafor' }), 422, 'ACCOUNT_NAME_MISMATCH');
        const partial = await a.create({ reference: unique('po'), amount: 1000, currency: 'NGN', enquiryId, narration: 'x', expectedAccountName: 'Adaeze Chioma Nwosu' });
        expect(partial.json).toMatchObject({ status: 'QUEUED', nameMatch: 'partial' });
      });

      it.each([
        ['a narration longer than NIP allows', { narration: 'n'.repeat(101) }, 'narration'],
        ['a currency other than NGN', { currency: 'USD' }, 'currency'],
        ['an amount with 3 decimals', { amount: 1000.005 }, 'amount'],
        ['an enquiryId outside its grammar', { enquiryId: 'enq_short' }, 'enquiryId'],
        ['an unknown field', { beneficiary: 'x' }, 'beneficiary'],
      ])('400 with the field for %s', async (_case, change, field) => {
        const body = { reference: unique('po'), amount: 1000, currency: 'NGN', enquiryId: 'enq_AAAAAAAAAAAAAAAAAAAAAA', narration: 'x', ...change };
        const refused = await refusedWith(a.create(body), 400, 'VALIDATION_FAILED');
        expect(refused.json.details).toEqual(expect.arrayContaining([expect.objectContaining({ field })]));
      });
    });

    it("shows each merchant only its own payouts: another's reference is 404 on every route", async () => {
      const reference = await a.payout(1000, accountWith('stays-pending'));
      for (const [method, route, body] of [
        ['GET', '', undefined],
        ['POST', '/cancel', {}],
        ['POST', '/requery', {}],
        ['POST', '/simulate', { outcome: 'successful' }],
        ['GET', '/events', undefined],
      ] as const) {
        const answered = await b.call(method, `${PAYOUTS}/${reference}${route}`, body);
        expect({ route, status: answered.status, code: answered.json.code }).toEqual({ route, status: 404, code: 'PAYOUT_NOT_FOUND' });
      }
      const listed = (await b.call('GET', `${PAYOUTS}?limit=100`)).json.data as Array<{ merchantId: string }>;
      expect(listed.every((payout) => payout.merchantId === MERCHANT_B.merchantId)).toBe(true);
      expect((await a.get(reference)).json).toMatchObject({ status: 'QUEUED' });
    });

    it('lists payouts newest first, filtered by status, a page at a time', async () => {
      // Merchant B's own: it has created no other payout, so its listing is exactly these.
      const references = [await b.payout(150, accountWith('stays-pending')), await b.payout(160, accountWith('stays-pending')), await b.payout(170, accountWith('stays-pending'))];
      const page = await b.call('GET', `${PAYOUTS}?status=QUEUED&limit=2`);
      expect((page.json.data as Array<{ reference: string }>).map((p) => p.reference)).toEqual([references[2], references[1]]);
      const next = await b.call('GET', `${PAYOUTS}?status=QUEUED&limit=2&cursor=${page.json.nextCursor as string}`);
      expect((next.json.data as Array<{ reference: string }>).map((p) => p.reference)).toEqual([references[0]]);
      expect((await b.call('GET', `${PAYOUTS}?cursor=${page.json.nextCursor as string}`)).status).toBe(400);
    });
  });
}

payoutSuite('PostgreSQL', (env, options) => startTestApp(env, options));
payoutSuite('PGlite', (env, options) => startEmbeddedTestApp(env, options));

describe('payouts in production, which has no payout provider yet', () => {
  let api: TestApp;
  beforeAll(async () => {
    api = await startProductionTestApp();
  });
  afterAll(() => api.close());

  it('refuses a payout with 422 PAYOUT_PROVIDER_NOT_CONFIGURED, and has no simulation (404)', async () => {
    const create = await signedCall(api.baseUrl, { path: PAYOUTS, body: JSON.stringify({ reference: 'prod-1', amount: 1000, currency: 'NGN', enquiryId: 'enq_AAAAAAAAAAAAAAAAAAAAAA', narration: 'x' }), credential: MERCHANT_A });
    expect({ status: create.status, code: create.json.code }).toEqual({ status: 422, code: 'PAYOUT_PROVIDER_NOT_CONFIGURED' });
    const simulate = await signedCall(api.baseUrl, { path: `${PAYOUTS}/prod-1/simulate`, body: JSON.stringify({ outcome: 'successful' }), credential: MERCHANT_A });
    expect(simulate.status).toBe(404);
  });
});
