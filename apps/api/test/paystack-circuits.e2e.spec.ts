// Production with Paystack, against the fake provider: one merchant's calls
// that keep failing (enquiries to a bank slow to answer) never cut the
// provider off for the other merchants. A slow or failing bank is not a
// failing provider, and each kind of call has its circuit.
import { startFakePaystack, type FakePaystack } from '@paysign/fake-paystack';
import { makeNuban } from '../src/banks/nuban';
import { JobRunner } from '../src/jobs/job-runner';
import { PayoutDispatcher } from '../src/payouts/payout-dispatcher';
import { send, signedCall } from './support/api-client';
import { MERCHANT_A, MERCHANT_B, type TestCredential } from './support/credentials';
import { FAKE_PAYSTACK_LIVE_KEY, paystackEverywhere } from './support/paystack-settings';
import { TestClock } from './support/test-clock';
import { startProductionTestApp, type TestApp } from './support/test-app';

const SLOW_BANK = '058';
// Accounts of no other suite: enquiries are cached in the shared Redis by the suites that cache them.
const HEALTHY = { bankCode: '044', accountNumber: makeNuban('044', '731950301'), accountName: 'NGOZI EZE' };
const AT_SLOW_BANK = { bankCode: SLOW_BANK, accountNumber: makeNuban(SLOW_BANK, '731950302'), accountName: 'TUNDE BAKARE' };

let sequence = 0;
const unique = (prefix: string) => `${prefix}-${Date.now()}-${sequence++}`;

describe('one merchant\'s failing calls, and everyone else\'s', () => {
  const clock = new TestClock();
  let fake: FakePaystack;
  let api: TestApp;
  const call = (credential: TestCredential, method: 'GET' | 'POST', path: string, body?: unknown) =>
    signedCall(api.baseUrl, { method, path, credential, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  const enquire = (credential: TestCredential, account: { bankCode: string; accountNumber: string }) => call(credential, 'POST', '/payment/merchant-api/account/inquiry', { bankCode: account.bankCode, accountNumber: account.accountNumber });
  const resolves = () => fake.calls.filter((route) => route === 'bank_resolve').length;
  const readiness = async () => ((await send(api.baseUrl, { method: 'GET', path: '/payment/health/ready' })).json as { checks: Record<string, string> }).checks['provider:paystack'];

  beforeAll(async () => {
    fake = await startFakePaystack({ secretKey: FAKE_PAYSTACK_LIVE_KEY });
    fake.addAccount(HEALTHY);
    fake.addAccount(AT_SLOW_BANK);
    // The enquiry's own deadline ends each call to the slow bank, well before the provider timeout.
    api = await startProductionTestApp({ ...paystackEverywhere(fake.url), ENQUIRY_TIMEOUT_MS: '400' }, { overrides: { storeClock: clock.now }, startJobs: false });
    fake.webhookUrl = `${api.baseUrl}/payment/provider-webhooks/paystack`;
    // Merchant B's funds for its payout: a payin paid at the provider, settled at once (SETTLEMENT_DELAY_SECONDS=0).
    const funding = await call(MERCHANT_B, 'POST', '/payment/api/payins', { amount: 50_000, currency: 'NGN', customerEmail: 'b@example.com', reference: unique('fund'), redirectUrl: 'https://shop.example.com/done' });
    expect(funding.status).toBe(201);
    const transaction = [...fake.transactions.values()].at(-1) as NonNullable<ReturnType<FakePaystack['transactions']['get']>>;
    const paid = await fetch(`${fake.url}/checkout/${transaction.accessCode}`, { method: 'POST', body: new URLSearchParams({ outcome: 'success' }), redirect: 'manual' });
    expect(paid.status).toBe(302);
    await api.app.get(JobRunner).runNow('settlement');
  });

  afterAll(async () => {
    await api?.close();
    await fake?.close();
  });

  it('keeps another merchant\'s enquiry to a healthy bank, its payin start and its payout send working while one merchant\'s enquiries to a slow bank time out', async () => {
    fake.faults.slowBanks.add(SLOW_BANK);
    for (let i = 0; i < 8; i++) {
      const slow = await enquire(MERCHANT_A, AT_SLOW_BANK);
      expect({ status: slow.status, code: slow.json.code }).toEqual({ status: 504, code: 'UPSTREAM_TIMEOUT' });
    }
    expect(await readiness()).toBe('up');

    const enquiry = await enquire(MERCHANT_B, HEALTHY);
    expect(enquiry.status).toBe(200);
    expect(enquiry.json).toMatchObject({ success: true, accountName: HEALTHY.accountName });

    const transactionsBefore = fake.transactions.size;
    const payin = await call(MERCHANT_B, 'POST', '/payment/api/payins', { amount: 1200, currency: 'NGN', customerEmail: 'b@example.com', reference: unique('order'), redirectUrl: 'https://shop.example.com/done' });
    expect(payin.status).toBe(201);
    expect(fake.transactions.size).toBe(transactionsBefore + 1);

    const reference = unique('po');
    const payout = await call(MERCHANT_B, 'POST', '/payment/api/payouts', { reference, amount: 1000, currency: 'NGN', enquiryId: enquiry.json.enquiryId, narration: 'Invoice 7' });
    expect(payout.status).toBe(201);
    await api.app.get(JobRunner).runNow('payout-dispatch');
    await api.app.get(PayoutDispatcher).idle();
    expect((await call(MERCHANT_B, 'GET', `/payment/api/payouts/${reference}`)).json).toMatchObject({ status: 'SUCCESSFUL' });
  });

  it('opens the slow bank\'s own circuit once a second merchant sees it fail: enquiries there are answered at once, and other banks and readiness are untouched', async () => {
    const slow = await enquire(MERCHANT_B, AT_SLOW_BANK);
    expect(slow.json.code).toBe('UPSTREAM_TIMEOUT');
    const before = resolves();
    const refused = await enquire(MERCHANT_A, AT_SLOW_BANK);
    expect({ status: refused.status, code: refused.json.code }).toEqual({ status: 502, code: 'BANK_UNAVAILABLE' });
    expect(resolves()).toBe(before);
    expect((await enquire(MERCHANT_A, HEALTHY)).status).toBe(200);
    expect(await readiness()).toBe('up');
    fake.faults.slowBanks.clear();
  });
});
