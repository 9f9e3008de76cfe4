// The service in production mode with Paystack behind all three seams, against
// the fake provider (tools/fake-paystack): enquiries, payins paid on the
// provider's page and settled on its word, payouts by transfer, the provider's
// webhooks, faults at the boundary, and readiness while the provider is down.
import { createHmac } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { startFakePaystack, type FakePaystack } from '@paysign/fake-paystack';
import { makeNuban } from '../src/banks/nuban';
import { EnquiryCache } from '../src/accounts/enquiry-cache';
import { SqlClient } from '../src/db/sql-client';
import { JobRunner } from '../src/jobs/job-runner';
import { checkLedger } from '../src/ledger-invariants';
import { PayoutDispatcher } from '../src/payouts/payout-dispatcher';
import { RefundDispatcher } from '../src/refunds/refund-dispatcher';
import { ServiceMetrics } from '../src/metrics/service-metrics';
import { send, signedCall } from './support/api-client';
import { MERCHANT_A, MERCHANT_B } from './support/credentials';
import { merchantAdmin } from './support/merchant-changes';
import { FAKE_PAYSTACK_LIVE_KEY, paystackEverywhere } from './support/paystack-settings';
import { TestClock } from './support/test-clock';
import { PRODUCTION_SETTINGS, startProductionTestApp, type TestApp } from './support/test-app';

const LIVE_KEY = FAKE_PAYSTACK_LIVE_KEY;
const WEBHOOK_PATH = '/payment/provider-webhooks/paystack';
// An account of no other suite: enquiries are cached in the shared Redis by the suites that cache them.
const ACCOUNT = { bankCode: '058', accountNumber: makeNuban('058', '731950264'), accountName: 'ADAEZE NWOSU' };

let sequence = 0;
const unique = (prefix: string) => `${prefix}-${Date.now()}-${sequence++}`;

describe('production with Paystack, against the fake provider', () => {
  const clock = new TestClock();
  let fake: FakePaystack;
  let api: TestApp;
  const call = (method: 'GET' | 'POST', path: string, body?: unknown) =>
    signedCall(api.baseUrl, { method, path, credential: MERCHANT_A, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  const runJob = async (job: string) => {
    await api.app.get(JobRunner).runNow(job);
    await api.app.get(PayoutDispatcher).idle();
    await api.app.get(RefundDispatcher).idle();
  };
  const balance = async () => (await call('GET', '/payment/api/balance')).json;
  /** What the merchant was credited, settled or not. */
  const credited = async () => {
    const { pending, available } = await balance();
    return (pending as number) + (available as number);
  };
  /** The service's answer on our own origin to a URL built on PUBLIC_BASE_URL, as the customer's browser would reach it. */
  const local = (url: string) => url.replace(PRODUCTION_SETTINGS.PUBLIC_BASE_URL, api.baseUrl);

  beforeAll(async () => {
    fake = await startFakePaystack({ secretKey: LIVE_KEY });
    fake.addAccount(ACCOUNT);
    api = await startProductionTestApp({ ...paystackEverywhere(fake.url), SETTLEMENTS_ENABLED: 'true', SETTLEMENT_ACCOUNT_CHANGE_DELAY_SECONDS: '3600' }, { overrides: { storeClock: clock.now }, startJobs: false });
    fake.webhookUrl = `${api.baseUrl}${WEBHOOK_PATH}`;
  });

  afterAll(async () => {
    expect(await checkLedger(api.app.get<SqlClient>(SqlClient))).toEqual([]);
    await api?.close();
    await fake?.close();
  });

  /** A payin created, and started at the provider; its reference, and the transaction the provider holds. */
  async function createPayin(amount = 1500.5) {
    const reference = unique('order');
    const created = await call('POST', '/payment/api/payins', { amount, currency: 'NGN', customerEmail: 'ada@example.com', reference, redirectUrl: 'https://shop.example.com/done?order=7' });
    expect(created.status).toBe(201);
    const transaction = [...fake.transactions.values()].at(-1);
    expect(transaction).toBeDefined();
    return { reference, checkoutUrl: created.json.checkoutUrl as string, transaction: transaction as NonNullable<typeof transaction> };
  }

  /** The customer on the provider's page: pays or is declined; the provider then sends them back (a 302 this test reads). */
  async function payAtProvider(transaction: { accessCode: string }, outcome: 'success' | 'declined', webhook: 'before-return' | 'never' = 'before-return'): Promise<string> {
    fake.faults.webhookTiming = webhook;
    const response = await fetch(`${fake.url}/checkout/${transaction.accessCode}`, { method: 'POST', body: new URLSearchParams({ outcome }), redirect: 'manual' });
    expect(response.status).toBe(302);
    return response.headers.get('location') as string;
  }

  async function signedWebhook(event: string, data: Record<string, unknown>, key = LIVE_KEY) {
    const body = JSON.stringify({ event, data });
    const signature = createHmac('sha512', key).update(body).digest('hex');
    return send(api.baseUrl, { method: 'POST', path: WEBHOOK_PATH, headers: { 'content-type': 'application/json', 'x-paystack-signature': signature }, body });
  }

  describe('account enquiry', () => {
    it('resolves the name through Paystack, with our bank code mapped to its own', async () => {
      const enquiry = await call('POST', '/payment/merchant-api/account/inquiry', { bankCode: ACCOUNT.bankCode, accountNumber: ACCOUNT.accountNumber });
      expect(enquiry.status).toBe(200);
      expect(enquiry.json).toMatchObject({ success: true, accountName: 'ADAEZE NWOSU', enquiryId: expect.any(String) });
    });

    it('answers an account the bank does not have as ACCOUNT_NOT_FOUND, a provider down as BANK_UNAVAILABLE, and one that hangs as UPSTREAM_TIMEOUT', async () => {
      const notFound = await call('POST', '/payment/merchant-api/account/inquiry', { bankCode: '058', accountNumber: makeNuban('058', '000000001') });
      expect({ status: notFound.status, code: notFound.json.code }).toEqual({ status: 422, code: 'ACCOUNT_NOT_FOUND' });

      fake.faults.serverErrors = { count: 3, route: 'bank_resolve' };
      const down = await call('POST', '/payment/merchant-api/account/inquiry', { bankCode: ACCOUNT.bankCode, accountNumber: ACCOUNT.accountNumber });
      expect({ status: down.status, code: down.json.code }).toEqual({ status: 502, code: 'BANK_UNAVAILABLE' });
      // Resolve is a lookup: retried after each 5xx (PROVIDER_RETRIES=2), three calls in all.
      expect(fake.faults.serverErrors.count).toBe(0);

      // One lost answer: resolve is a lookup, so it is asked again within the enquiry's time.
      const resolvesBefore = fake.calls.filter((route) => route === 'bank_resolve').length;
      fake.faults.hangAfterHandling.set('bank_resolve', 1);
      const recovered = await call('POST', '/payment/merchant-api/account/inquiry', { bankCode: ACCOUNT.bankCode, accountNumber: ACCOUNT.accountNumber });
      expect(recovered.status).toBe(200);
      expect(fake.calls.filter((route) => route === 'bank_resolve').length - resolvesBefore).toBe(2);
      // Every answer lost: the enquiry's timeout (ENQUIRY_TIMEOUT_MS) ends it.
      fake.faults.hangAfterHandling.set('bank_resolve', 3);
      const slow = await call('POST', '/payment/merchant-api/account/inquiry', { bankCode: ACCOUNT.bankCode, accountNumber: ACCOUNT.accountNumber });
      expect({ status: slow.status, code: slow.json.code }).toEqual({ status: 504, code: 'UPSTREAM_TIMEOUT' });
      fake.faults.hangAfterHandling.clear();
    });
  });

  describe('payins on the provider\'s page', () => {
    it('starts the transaction at create: amount in kobo, a reference of ours, the email, the channels, and our return page', async () => {
      const { transaction, checkoutUrl } = await createPayin(1500.5);
      expect(transaction).toMatchObject({ amount: 150050, currency: 'NGN', email: 'ada@example.com', channels: ['card', 'bank_transfer', 'ussd'] });
      expect(transaction.reference).toMatch(/^psi-[0-9a-f]{32}$/);
      expect(transaction.callbackUrl).toBe(`${checkoutUrl}/return`);
    });

    it('settles on the provider\'s webhook, verified with its API, with the credit and the event in one transaction; the return then sends the customer on', async () => {
      const before = await credited();
      const { reference, transaction } = await createPayin(2000);
      // The fake sends its webhook, and waits for our answer, before sending the customer back.
      const back = await payAtProvider(transaction, 'success');
      expect((await call('GET', `/payment/api/payins/${reference}`)).json).toMatchObject({ status: 'SUCCESSFUL', needsAttention: false, paidAt: expect.any(String) });
      expect(await credited()).toBe(before + 2000);
      const events = (await call('GET', `/payment/api/payins/${reference}/events`)).json.data as Array<Record<string, unknown>>;
      expect(events.map((event) => event.type)).toEqual(['payin.successful']);

      const returned = await fetch(local(back), { redirect: 'manual' });
      expect(returned.status).toBe(303);
      expect(returned.headers.get('location')).toBe(`https://shop.example.com/done?order=7&reference=${reference}&status=SUCCESSFUL`);
    });

    it('settles on the customer\'s return when no webhook came, asking the provider rather than the query string', async () => {
      const { reference, transaction } = await createPayin(300);
      const back = new URL(local(await payAtProvider(transaction, 'success', 'never')));
      expect((await call('GET', `/payment/api/payins/${reference}`)).json.status).toBe('PENDING');
      // A forged query changes nothing: only the provider's answer is read.
      back.searchParams.set('reference', 'psi-someone-elses');
      const returned = await fetch(back, { redirect: 'manual' });
      expect(returned.status).toBe(303);
      expect(returned.headers.get('location')).toContain(`reference=${reference}&status=SUCCESSFUL`);
    });

    it('records a declined payment as FAILED with the mapped reason', async () => {
      const { reference, transaction } = await createPayin(300);
      const returned = await fetch(local(await payAtProvider(transaction, 'declined')), { redirect: 'manual' });
      expect(returned.headers.get('location')).toContain('status=FAILED');
      expect((await call('GET', `/payment/api/payins/${reference}`)).json).toMatchObject({ status: 'FAILED', failureReason: 'insufficient_funds' });
    });

    it('shows a return before the provider confirms as pending, with a way to check again, and moves nothing', async () => {
      const { reference, checkoutUrl } = await createPayin(300);
      const returned = await fetch(local(`${checkoutUrl}/return`), { redirect: 'manual' });
      expect(returned.status).toBe(200);
      expect(await returned.text()).toContain('Check again');
      expect((await call('GET', `/payment/api/payins/${reference}`)).json.status).toBe('PENDING');
    });

    it('refuses a forged webhook with 401, and moves nothing; the genuine one, replayed, moves the payin once', async () => {
      const before = await credited();
      const { reference, transaction } = await createPayin(700);
      await payAtProvider(transaction, 'success', 'never');
      const data = fake.transactionEvent(transaction.reference);
      const forged = await signedWebhook('charge.success', data, 'sk_live_not_the_key_of_this_service_0000');
      expect(forged.status).toBe(401);
      expect(forged.json).toMatchObject({ code: 'PROVIDER_SIGNATURE_INVALID', retryable: false });
      const unsigned = await send(api.baseUrl, { method: 'POST', path: WEBHOOK_PATH, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ event: 'charge.success', data }) });
      expect(unsigned.status).toBe(401);
      expect((await call('GET', `/payment/api/payins/${reference}`)).json.status).toBe('PENDING');

      for (let copy = 0; copy < 3; copy++) expect((await signedWebhook('charge.success', data)).json).toEqual({ received: true });
      const paid = (await call('GET', `/payment/api/payins/${reference}`)).json;
      expect(paid).toMatchObject({ status: 'SUCCESSFUL' });
      expect(await credited()).toBe(before + 700);
      expect(((await call('GET', `/payment/api/payins/${reference}/events`)).json.data as unknown[]).length).toBe(1);
    });

    it('leaves a payment of another amount PENDING with needsAttention, counted, and moves no money', async () => {
      const before = await balance();
      const { reference, transaction } = await createPayin(900);
      await payAtProvider(transaction, 'success', 'never');
      fake.faults.reportedAmountDelta = -100;
      try {
        expect((await signedWebhook('charge.success', fake.transactionEvent(transaction.reference))).status).toBe(200);
      } finally {
        fake.faults.reportedAmountDelta = 0;
      }
      expect((await call('GET', `/payment/api/payins/${reference}`)).json).toMatchObject({ status: 'PENDING', needsAttention: true });
      expect(await balance()).toEqual(before);
      expect(await api.app.get(ServiceMetrics).registry.getSingleMetricAsString('paysign_provider_mismatches_total')).toContain('paysign_provider_mismatches_total{provider="paystack",object="payin"} 1');
      expect(api.logs.some((line) => typeof line.msg === 'string' && line.msg.startsWith('payin needs attention'))).toBe(true);
    });

    /** The customer's browser on the checkout page: its cookie and form, submitted with `action`. */
    async function submitCheckout(checkoutUrl: string, action: 'pay_card' | 'cancel'): Promise<Response> {
      const pageUrl = local(checkoutUrl);
      const shown = await fetch(pageUrl);
      const html = await shown.text();
      const csrf = /name="csrf" value="([^"]+)"/.exec(html)?.[1] as string;
      const cookie = (shown.headers.get('set-cookie') as string).split(';')[0] as string;
      return fetch(pageUrl, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded', cookie, 'sec-fetch-site': 'same-origin' }, body: new URLSearchParams({ csrf, action }) });
    }

    it('credits nothing for a charge short of what was asked (amount 90000 kobo, requested_amount 100000 on a NGN 1000 payin): PENDING with needsAttention', async () => {
      const before = await credited();
      const { reference, transaction } = await createPayin(1000);
      await payAtProvider(transaction, 'success', 'never');
      fake.faults.chargedAmountDelta = -10_000;
      try {
        expect(fake.transactionEvent(transaction.reference)).toMatchObject({ amount: 90_000, requested_amount: 100_000 });
        expect((await signedWebhook('charge.success', fake.transactionEvent(transaction.reference))).status).toBe(200);
      } finally {
        fake.faults.chargedAmountDelta = 0;
      }
      expect((await call('GET', `/payment/api/payins/${reference}`)).json).toMatchObject({ status: 'PENDING', needsAttention: true });
      expect(await credited()).toBe(before);
      expect(api.logs.some((line) => line.reference === reference && typeof line.msg === 'string' && line.msg.startsWith('payin needs attention') && line.reportedChargedMinor === '90000')).toBe(true);
    });

    it('credits the payin\'s own amount when the customer was charged Paystack\'s fee on top of it', async () => {
      const before = await credited();
      const { reference, transaction } = await createPayin(1000);
      await payAtProvider(transaction, 'success', 'never');
      fake.faults.chargedAmountDelta = 1_500;
      try {
        expect((await signedWebhook('charge.success', fake.transactionEvent(transaction.reference))).status).toBe(200);
      } finally {
        fake.faults.chargedAmountDelta = 0;
      }
      expect((await call('GET', `/payment/api/payins/${reference}`)).json).toMatchObject({ status: 'SUCCESSFUL', needsAttention: false });
      expect(await credited()).toBe(before + 1000);
    });

    it('starts a payin the provider would not start at create when the customer pays, and links on to its page', async () => {
      fake.faults.serverErrors = { count: 2, route: 'transaction_initialize' };
      const reference = unique('order');
      const created = await call('POST', '/payment/api/payins', { amount: 250, currency: 'NGN', customerEmail: 'ada@example.com', reference });
      expect(created.status).toBe(201);
      // Not at create, not when the page is shown: the page offers the channels all the same.
      const submitted = await submitCheckout(created.json.checkoutUrl as string, 'pay_card');
      expect(fake.faults.serverErrors.count).toBe(0);
      // Started only now: the page's CSP did not name the provider, so the way on is a link, not a redirect the browser would block.
      expect(submitted.status).toBe(200);
      const started = [...fake.transactions.values()].at(-1) as { accessCode: string; amount: number };
      expect(started.amount).toBe(25_000);
      expect(await submitted.text()).toContain(`href="${fake.url}/checkout/${started.accessCode}"`);
      // The next submission goes straight on, the provider's origin now being in the page's CSP.
      const again = await submitCheckout(created.json.checkoutUrl as string, 'pay_card');
      expect(again.status).toBe(303);
      expect(again.headers.get('location')).toBe(`${fake.url}/checkout/${started.accessCode}`);
    });

    it('answers a webhook it cannot verify while the provider is down with 503, so the provider sends it again, and moves nothing until then', async () => {
      const { reference, transaction } = await createPayin(650);
      await payAtProvider(transaction, 'success', 'never');
      fake.faults.serverErrors = { count: 3, route: 'transaction_verify' };
      const down = await signedWebhook('charge.success', fake.transactionEvent(transaction.reference));
      expect(down.status).toBe(503);
      expect(down.json).toMatchObject({ code: 'PROVIDER_UNAVAILABLE', retryable: true });
      expect((await call('GET', `/payment/api/payins/${reference}`)).json.status).toBe('PENDING');
      expect((await signedWebhook('charge.success', fake.transactionEvent(transaction.reference))).status).toBe(200);
      expect((await call('GET', `/payment/api/payins/${reference}`)).json.status).toBe('SUCCESSFUL');
    });

    it('flags a payment made at the provider after the customer cancelled here, counted, and credits nothing', async () => {
      const before = await credited();
      const flagged = async () => (await api.app.get(ServiceMetrics).payinsNeedingAttention.get()).values[0]?.value ?? 0;
      const flaggedBefore = await flagged();
      const { reference, checkoutUrl, transaction } = await createPayin(800);
      expect((await submitCheckout(checkoutUrl, 'cancel')).status).toBe(303);
      expect((await call('GET', `/payment/api/payins/${reference}`)).json.status).toBe('CANCELLED');
      await payAtProvider(transaction, 'success');
      expect((await call('GET', `/payment/api/payins/${reference}`)).json).toMatchObject({ status: 'CANCELLED', needsAttention: true });
      expect(await credited()).toBe(before);
      expect(api.logs.some((line) => typeof line.msg === 'string' && line.msg.includes('already CANCELLED'))).toBe(true);
      expect(await flagged()).toBe(flaggedBefore + 1);
    });

    it('settles a payment nobody reported on the schedule, and abandons one never paid at expiry, after asking', async () => {
      const paid = await createPayin(400);
      const unpaid = await createPayin(400);
      await payAtProvider(paid.transaction, 'success', 'never');
      clock.advance(61_000);
      await runJob('payin-provider-check');
      expect((await call('GET', `/payment/api/payins/${paid.reference}`)).json.status).toBe('SUCCESSFUL');
      expect((await call('GET', `/payment/api/payins/${unpaid.reference}`)).json.status).toBe('PENDING');
      // Past expiry: reads stay PENDING until the provider has been asked, then the payin is ABANDONED.
      clock.advance(1800_000);
      expect((await call('GET', `/payment/api/payins/${unpaid.reference}`)).json.status).toBe('PENDING');
      await runJob('payin-provider-check');
      expect((await call('GET', `/payment/api/payins/${unpaid.reference}`)).json).toMatchObject({ status: 'ABANDONED', failureReason: 'checkout_expired' });
    });
  });

  describe('payouts by transfer', () => {
    let enquiryId: () => Promise<string>;
    beforeAll(async () => {
      // Funds: payins paid at the provider, settled at once (SETTLEMENT_DELAY_SECONDS=0).
      const { transaction } = await createPayin(500_000);
      await payAtProvider(transaction, 'success');
      await runJob('settlement');
      enquiryId = async () => (await call('POST', '/payment/merchant-api/account/inquiry', { bankCode: ACCOUNT.bankCode, accountNumber: ACCOUNT.accountNumber })).json.enquiryId as string;
    });

    const accountFor = (behaviour: NonNullable<Parameters<FakePaystack['addAccount']>[0]['behaviour']>, accountNumber: string) => {
      const account = { bankCode: '044', accountNumber, accountName: 'CHIDI OKAFOR', behaviour };
      fake.addAccount(account);
      return account;
    };
    async function payout(amount: number, account: { bankCode: string; accountNumber: string } = ACCOUNT): Promise<string> {
      const reference = unique('po');
      const enquiry = await call('POST', '/payment/merchant-api/account/inquiry', { bankCode: account.bankCode, accountNumber: account.accountNumber });
      const created = await call('POST', '/payment/api/payouts', { reference, amount, currency: 'NGN', enquiryId: enquiry.json.enquiryId, narration: 'Invoice 12' });
      expect(created.status).toBe(201);
      return reference;
    }
    const payoutOf = async (reference: string) => (await call('GET', `/payment/api/payouts/${reference}`)).json;

    it('sends a transfer to a recipient made once, in kobo, under our provider reference in lower case', async () => {
      expect(await enquiryId()).toEqual(expect.any(String));
      const first = await payout(1000);
      const second = await payout(250.75);
      await runJob('payout-dispatch');
      const [a, b] = [await payoutOf(first), await payoutOf(second)];
      expect(a).toMatchObject({ status: 'SUCCESSFUL', providerReference: expect.stringMatching(/^PSX-[0-9a-f]{32}$/) });
      expect(b.status).toBe('SUCCESSFUL');
      expect(fake.transfers.get((a.providerReference as string).toLowerCase())).toMatchObject({ amount: 100_000, currency: 'NGN', reason: 'Invoice 12', status: 'success' });
      expect(fake.transfers.get((b.providerReference as string).toLowerCase())?.amount).toBe(25_075);
      expect([...fake.recipients.keys()].filter((key) => key === `${ACCOUNT.bankCode}:${ACCOUNT.accountNumber}`)).toHaveLength(1);
      // The recipient is kept: a later payout to the account creates none.
      const created = fake.calls.filter((route) => route === 'transferrecipient').length;
      await payout(100);
      await runJob('payout-dispatch');
      expect(fake.calls.filter((route) => route === 'transferrecipient').length).toBe(created);
    });

    it('settles a merchant\'s available balance to its settlement account by a transfer whose narration carries the settlement\'s id', async () => {
      const owner = await merchantAdmin(api).run((admin) => admin.add({ merchantId: unique('MCH-STL'), tenantId: 'TEN-STL', name: 'Settling Shop' }));
      const credential = { apiKey: owner.apiKey, secretKey: owner.secretKey, merchantId: owner.merchantId, tenantId: owner.tenantId };
      const as = (method: 'GET' | 'POST' | 'PUT', path: string, body?: unknown) => signedCall(api.baseUrl, { method, path, credential, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
      expect((await as('POST', '/payment/api/payins', { amount: 20_000, currency: 'NGN', customerEmail: 'ada@example.com', reference: unique('order') })).status).toBe(201);
      await payAtProvider([...fake.transactions.values()].at(-1) as { accessCode: string }, 'success');
      await runJob('settlement');
      const { available } = (await as('GET', '/payment/api/balance')).json;
      const enquiry = await as('POST', '/payment/merchant-api/account/inquiry', { bankCode: ACCOUNT.bankCode, accountNumber: ACCOUNT.accountNumber });
      expect((await as('PUT', '/payment/api/settlement-account', { enquiryId: enquiry.json.enquiryId })).json).toMatchObject({ current: null, pending: { account: { accountName: ACCOUNT.accountName } } });
      // Settled by hand, whatever the hour of the run: the account is in force after its delay, here an hour (at least that in production).
      expect((await as('PUT', '/payment/api/settlement-schedule', { interval: 'manual', minimumAmount: 0 })).status).toBe(200);
      clock.advance(3_600_000);
      await runJob('settlement-run');
      const created = await as('POST', '/payment/api/settlements', { reference: unique('early'), currency: 'NGN' });
      expect(created.json).toMatchObject({ status: 'PENDING', amount: available, trigger: 'manual' });
      const id = created.json.id as string;
      await runJob('payout-dispatch');
      const settled = (await as('GET', `/payment/api/settlements/${id}`)).json;
      expect(settled).toMatchObject({ status: 'PAID', provider: 'paystack', providerReference: expect.stringMatching(/^PSX-/) });
      expect(fake.transfers.get((settled.providerReference as string).toLowerCase())).toMatchObject({ amount: Math.round((available as number) * 100), currency: 'NGN', reason: `Paysign settlement ${id}`, status: 'success' });
      expect((await as('GET', '/payment/api/balance')).json).toMatchObject({ available: 0 });
    });

    it('fails a transfer Paystack fails, with the reason mapped, and releases the hold', async () => {
      const before = await balance();
      const reference = await payout(1000, accountFor({ kind: 'failed', reason: 'Beneficiary bank unavailable' }, makeNuban('044', '100000001')));
      await runJob('payout-dispatch');
      expect(await payoutOf(reference)).toMatchObject({ status: 'FAILED', failureReason: 'beneficiary_bank_unavailable' });
      expect(await balance()).toEqual(before);
    });

    it('keeps a pending transfer PROCESSING until transfer verify says success', async () => {
      const reference = await payout(1000, accountFor({ kind: 'pending-then-success', verifications: 2 }, makeNuban('044', '100000002')));
      await runJob('payout-dispatch');
      expect((await payoutOf(reference)).status).toBe('PROCESSING');
      clock.advance(61_000);
      await runJob('payout-status-check');
      expect((await payoutOf(reference)).status).toBe('PROCESSING');
      clock.advance(300_000);
      await runJob('payout-status-check');
      expect((await payoutOf(reference)).status).toBe('SUCCESSFUL');
    });

    it('records a reversal after success, prompted by the transfer.reversed webhook', async () => {
      const reference = await payout(1000, accountFor({ kind: 'reversed-after', verifications: 1 }, makeNuban('044', '100000003')));
      await runJob('payout-dispatch');
      const paid = await payoutOf(reference);
      expect(paid.status).toBe('SUCCESSFUL');
      const paystackReference = (paid.providerReference as string).toLowerCase();
      expect((await signedWebhook('transfer.reversed', fake.transferEvent(paystackReference))).status).toBe(200);
      const reversed = await payoutOf(reference);
      expect(reversed).toMatchObject({ status: 'REVERSED', failureReason: 'reversed_by_beneficiary_bank' });
      // An earlier event arriving late, twice, changes nothing: the provider's answer now is REVERSED.
      const late = { ...fake.transferEvent(paystackReference), status: 'success' };
      for (let copy = 0; copy < 2; copy++) expect((await signedWebhook('transfer.success', late)).status).toBe(200);
      expect(await payoutOf(reference)).toEqual(reversed);
    });

    it('answers a transfer under a reference it already has with the documented duplicate_transfer_reference, and makes no second transfer', async () => {
      const documented = JSON.parse(fs.readFileSync(path.resolve(__dirname, '../../../tools/fake-paystack/fixtures/transfer-initiate.duplicate.400.json'), 'utf8')) as unknown;
      const recipient = [...fake.recipients.values()][0] as { recipientCode: string };
      const transfer = JSON.stringify({ source: 'balance', amount: 10_000, reference: 'psx-reused-reference-0001', recipient: recipient.recipientCode, reason: 'Invoice', currency: 'NGN' });
      const initiate = () => fetch(`${fake.url}/transfer`, { method: 'POST', headers: { authorization: `Bearer ${LIVE_KEY}`, 'content-type': 'application/json' }, body: transfer });
      expect((await initiate()).status).toBe(200);
      const again = await initiate();
      expect({ status: again.status, body: (await again.json()) as unknown }).toEqual({ status: 400, body: documented });
      expect([...fake.transfers.values()].filter((sent) => sent.reference === 'psx-reused-reference-0001')).toHaveLength(1);
    });

    it('ends a send whose answer was lost SUCCESSFUL, with one transfer at the provider', async () => {
      fake.faults.hangAfterHandling.set('transfer', 1);
      const reference = await payout(1000);
      await runJob('payout-dispatch');
      const lost = await payoutOf(reference);
      expect(lost.status).toBe('PROCESSING');
      clock.advance(61_000);
      await runJob('payout-status-check');
      expect((await payoutOf(reference)).status).toBe('SUCCESSFUL');
      const sent = [...fake.transfers.values()].filter((transfer) => transfer.reference === (lost.providerReference as string).toLowerCase());
      expect(sent).toHaveLength(1);
    });
  });

  describe('refunds through the provider that took the payment', () => {
    /** A payin paid on the provider's page, settled by its webhook; its reference and the transaction. */
    async function paidPayin(amount: number) {
      const payin = await createPayin(amount);
      await payAtProvider(payin.transaction, 'success');
      expect((await call('GET', `/payment/api/payins/${payin.reference}`)).json.status).toBe('SUCCESSFUL');
      return payin;
    }
    const refundOf = async (reference: string) => (await call('GET', `/payment/api/refunds/${reference}`)).json;
    const refundsAtFakeOf = (transactionReference: string) => [...fake.refunds.values()].filter((refund) => refund.transactionReference === transactionReference);

    it('holds a part refund, sends it once in kobo carrying our reference, and moves it only on the provider\'s word through its webhook', async () => {
      const { reference: payinReference, transaction } = await paidPayin(1500.5);
      const before = await balance();
      const reference = unique('rf');
      const created = await call('POST', '/payment/api/refunds', { reference, payinReference, amount: 500, customerNote: 'Out of stock' });
      expect(created.json).toMatchObject({ status: 'PENDING', provider: 'paystack' });
      const from = created.json.fundedFrom as 'pending' | 'available';
      expect(await balance()).toMatchObject({ [from]: (before[from] as number) - 500, held: (before.held as number) + 500 });
      await runJob('refund-dispatch');
      const sent = await refundOf(reference);
      expect(sent).toMatchObject({ status: 'PROCESSING', providerReference: expect.stringMatching(/^PSR-/) });
      const [atFake, ...more] = refundsAtFakeOf(transaction.reference);
      expect(more).toEqual([]);
      expect(atFake).toMatchObject({ amount: 50_000, currency: 'NGN', customerNote: 'Out of stock', merchantNote: expect.stringContaining(sent.providerReference as string) });
      // A status check while the provider still has it pending moves nothing, and sends nothing again.
      clock.advance(61_000);
      await runJob('refund-status-check');
      expect((await refundOf(reference)).status).toBe('PROCESSING');
      expect(refundsAtFakeOf(transaction.reference)).toHaveLength(1);
      expect(await fake.settleRefund((atFake as { id: number }).id, 'processed')).toBe(200);
      expect(await refundOf(reference)).toMatchObject({ status: 'SUCCESSFUL' });
      expect(await balance()).toMatchObject({ [from]: (before[from] as number) - 500, held: before.held });
      expect((await call('GET', `/payment/api/payins/${payinReference}`)).json).toMatchObject({ amountRefunded: 500, amountRefundable: 1000.5 });
    });

    it('takes a refund the provider cannot return to the card to REQUIRES_ACTION, and retries it there with the account of an enquiry', async () => {
      const { reference: payinReference, transaction } = await paidPayin(2000);
      const reference = unique('rf');
      expect((await call('POST', '/payment/api/refunds', { reference, payinReference, amount: 800 })).status).toBe(201);
      await runJob('refund-dispatch');
      const atFake = refundsAtFakeOf(transaction.reference)[0] as { id: number };
      expect(await fake.settleRefund(atFake.id, 'needs-attention')).toBe(200);
      expect(await refundOf(reference)).toMatchObject({ status: 'REQUIRES_ACTION' });
      const enquiry = await call('POST', '/payment/merchant-api/account/inquiry', { bankCode: ACCOUNT.bankCode, accountNumber: ACCOUNT.accountNumber });
      const given = await call('POST', `/payment/api/refunds/${reference}/account`, { enquiryId: enquiry.json.enquiryId });
      expect(given.json).toMatchObject({ status: 'PROCESSING', account: { accountNumber: ACCOUNT.accountNumber } });
      await api.app.get(RefundDispatcher).idle();
      expect(fake.refunds.get(atFake.id)).toMatchObject({ account: { accountNumber: ACCOUNT.accountNumber, currency: 'NGN' } });
      expect(await fake.settleRefund(atFake.id, 'processed')).toBe(200);
      expect(await refundOf(reference)).toMatchObject({ status: 'SUCCESSFUL' });
      expect(refundsAtFakeOf(transaction.reference)).toHaveLength(1);
    });

    it('settles a refund waiting for an account on the provider\'s word when it gives up on it, releasing the hold', async () => {
      const { reference: payinReference, transaction } = await paidPayin(1200);
      const before = await balance();
      const reference = unique('rf');
      await call('POST', '/payment/api/refunds', { reference, payinReference, amount: 400 });
      await runJob('refund-dispatch');
      const atFake = refundsAtFakeOf(transaction.reference)[0] as { id: number };
      expect(await fake.settleRefund(atFake.id, 'needs-attention')).toBe(200);
      expect(await refundOf(reference)).toMatchObject({ status: 'REQUIRES_ACTION', nextStatusCheckAt: expect.any(String) });
      expect(await fake.settleRefund(atFake.id, 'failed')).toBe(200);
      expect(await refundOf(reference)).toMatchObject({ status: 'FAILED' });
      expect(await balance()).toEqual(before);
    });

    it('releases the hold of a refund the provider fails', async () => {
      const { reference: payinReference, transaction } = await paidPayin(900);
      const before = await balance();
      const reference = unique('rf');
      await call('POST', '/payment/api/refunds', { reference, payinReference, amount: 300 });
      await runJob('refund-dispatch');
      const atFake = refundsAtFakeOf(transaction.reference)[0] as { id: number };
      expect(await fake.settleRefund(atFake.id, 'failed')).toBe(200);
      expect(await refundOf(reference)).toMatchObject({ status: 'FAILED', failureReason: expect.any(String) });
      expect(await balance()).toEqual(before);
    });
  });

  describe('the provider boundary', () => {
    it('opens the enquiry circuit on 5xx that two merchants see at two banks: readiness shows the provider degraded and stays ready, and enquiries are refused unsent until it closes', async () => {
      fake.faults.serverErrors = { count: 100 };
      try {
        // One merchant at one bank opens nothing (PROVIDER_CIRCUIT_SOURCES, PROVIDER_CIRCUIT_ENQUIRY_BANKS): a second merchant at another bank does.
        for (let i = 0; i < 3; i++) await call('POST', '/payment/merchant-api/account/inquiry', { bankCode: ACCOUNT.bankCode, accountNumber: ACCOUNT.accountNumber });
        const alone = await send(api.baseUrl, { method: 'GET', path: '/payment/health/ready' });
        expect(alone.json).toMatchObject({ checks: { 'provider:paystack': 'up' } });
        const other = { bankCode: '044', accountNumber: makeNuban('044', '731950265') };
        await signedCall(api.baseUrl, { path: '/payment/merchant-api/account/inquiry', credential: MERCHANT_B, body: JSON.stringify(other) });
        const ready = await send(api.baseUrl, { method: 'GET', path: '/payment/health/ready' });
        expect(ready.status).toBe(200);
        expect(ready.json).toMatchObject({ status: 'ok', checks: { 'provider:paystack': 'degraded', payinStore: 'up' } });
        const callsBefore = fake.calls.length;
        const refused = await call('POST', '/payment/merchant-api/account/inquiry', { bankCode: ACCOUNT.bankCode, accountNumber: ACCOUNT.accountNumber });
        expect(refused.json.code).toBe('BANK_UNAVAILABLE');
        expect(fake.calls.length).toBe(callsBefore);
        expect(await api.app.get(ServiceMetrics).registry.getSingleMetricAsString('paysign_provider_calls_total')).toContain('outcome="circuit_open"');
      } finally {
        fake.faults.serverErrors = { count: 0 };
      }
    });

    it('never writes the secret key or a full account number to its logs', () => {
      const logged = JSON.stringify(api.logs);
      expect(logged).not.toContain(LIVE_KEY);
      expect(logged).not.toContain(ACCOUNT.accountNumber);
    });
  });
});

describe('the enquiry cache shared with a sandbox', () => {
  it('never answers a Paystack enquiry with a name another provider cached in the same Redis', async () => {
    const fake = await startFakePaystack({ secretKey: LIVE_KEY });
    const account = { bankCode: '058', accountNumber: makeNuban('058', '731950277'), accountName: 'NAME AT THE BANK' };
    fake.addAccount(account);
    const api = await startProductionTestApp({ ACCOUNT_NAME_PROVIDER: 'paystack', PAYSTACK_SECRET_KEY: LIVE_KEY, PAYSTACK_BASE_URL: fake.url, ENQUIRY_CACHE_TTL_SECONDS: '300' });
    try {
      const cache = api.app.get<EnquiryCache>(EnquiryCache);
      await cache.set(`sandbox:${account.bankCode}:${account.accountNumber}`, 'SANDBOX FIXED NAME', 60_000);
      const enquiry = await signedCall(api.baseUrl, { path: '/payment/merchant-api/account/inquiry', body: JSON.stringify({ bankCode: account.bankCode, accountNumber: account.accountNumber }), credential: MERCHANT_A });
      expect(enquiry.json.accountName).toBe('NAME AT THE BANK');
      expect(await cache.get(`paystack:${account.bankCode}:${account.accountNumber}`)).toBe('NAME AT THE BANK');
    } finally {
      await api.close();
      await fake.close();
    }
  });
});

describe('production boot with Paystack selected', () => {
  it.each([
    ['no key', {}, 'PAYSTACK_SECRET_KEY is required'],
    ['a test key', { PAYSTACK_SECRET_KEY: 'sk_test_0123456789abcdef0123456789' }, 'PAYSTACK_SECRET_KEY is a test key (sk_test_), refused in production mode'],
  ])('refuses to boot with %s', async (_case, env, message) => {
    await expect(startProductionTestApp({ PAYMENT_GATEWAY: 'paystack', PAYOUT_PROVIDER: 'paystack', ...env })).rejects.toThrow(message);
  });
});
