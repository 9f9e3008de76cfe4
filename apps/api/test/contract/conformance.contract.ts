// `npm run test:contract`: every operation and every webhook of
// openapi/payment-api.yaml, run once against the real service in-process,
// each answer and each delivered payload checked by the contract's
// validator. It is the contract designer's loop: it proves in seconds what
// the end-to-end suites prove along the way, and lists, by name, any
// operation or webhook of the contract it did not reach.
import { createHmac, randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import { ContractValidator } from '@paysign/contracts/testing';
import { startFakePaystack } from '@paysign/fake-paystack';
import { JobRunner } from '../../src/jobs/job-runner';
import { PayoutDispatcher } from '../../src/payouts/payout-dispatcher';
import { RefundDispatcher } from '../../src/refunds/refund-dispatcher';
import { SettlementsService } from '../../src/settlements/settlements.service';
import { send, signedCall, type ApiResponse } from '../support/api-client';
import { CARD, browser } from '../support/checkout-browser';
import { MERCHANT_A, MERCHANT_B, type TestCredential } from '../support/credentials';
import { merchantAdmin } from '../support/merchant-changes';
import { APPROVER_A, payoutMerchantsFile } from '../support/payout-merchants';
import { startProductionTestApp, startTestApp, type TestApp } from '../support/test-app';
import { WebhookReceiver } from '../support/webhook-receiver';

const contract = new ContractValidator();
const METHODS = ['get', 'put', 'post', 'delete', 'patch'];
const OPERATIONS = Object.entries(contract.document.paths).flatMap(([template, item]) => Object.keys(item).filter((method) => METHODS.includes(method)).map((method) => `${method.toUpperCase()} ${template}`));
/** A payout of at least this much waits for a second credential (payout.approval_required). */
const APPROVAL_THRESHOLD = 1000;

/** The operation a concrete request is of, as `METHOD /template`. */
function operationOf(method: string, pathAndQuery: string): string | undefined {
  const path = pathAndQuery.split('?')[0] ?? pathAndQuery;
  const template = Object.keys(contract.document.paths).find((candidate) => new RegExp(`^${candidate.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`).test(path));
  return template && `${method.toUpperCase()} ${template}`;
}

describe('the contract, operation by operation and webhook by webhook, on the real service', () => {
  let api: TestApp;
  let receiver: WebhookReceiver;
  /** Each operation reached, with the statuses it answered; each answer was checked against the contract as it came. */
  const reached = new Map<string, number[]>();
  const record = (method: string, path: string, response: { status: number }) => {
    const operation = operationOf(method, path);
    if (operation) reached.set(operation, [...(reached.get(operation) ?? []), response.status]);
  };

  /** A signed call; `signedCall` refuses an answer outside the contract, naming each property at fault and its schema path. */
  async function call(credential: TestCredential, method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', path: string, body?: unknown, expectStatus?: number): Promise<ApiResponse> {
    const response = await signedCall(api.baseUrl, { method, path, credential, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    record(method, path, response);
    if (expectStatus !== undefined && response.status !== expectStatus) throw new Error(`${method} ${path} answered ${response.status}, not ${expectStatus}: ${JSON.stringify(response.json)}`);
    return response;
  }
  /** An unsigned exchange that is not JSON (the checkout's pages and form), checked by the validator here. */
  async function page(method: 'GET' | 'POST', url: string, answer: Response): Promise<Response> {
    const path = new URL(url).pathname;
    record(method, path, answer);
    const body = answer.headers.get('content-type')?.includes('application/json') ? await answer.json() : await answer.text();
    expect(contract.validateResponse({ method, path, status: answer.status, body })).toEqual([]);
    return answer;
  }

  const unique = (label: string) => `${label}-${randomUUID().slice(0, 8)}`;
  const createPayin = async (credential: TestCredential, amount = 1500.5) => {
    const reference = unique('ct');
    await call(credential, 'POST', '/payment/api/payins', { amount, currency: 'NGN', customerEmail: 'ada@example.com', reference, narration: 'Order 1042', notifyUrl: receiver.url }, 201);
    return reference;
  };
  const enquire = async (credential: TestCredential) => (await call(credential, 'POST', '/payment/merchant-api/account/inquiry', { bankCode: '058', accountNumber: '0123456785' }, 200)).json.enquiryId as string;
  const createPayout = async (credential: TestCredential, amount: number, extra: Record<string, unknown> = {}) => {
    const reference = unique('po');
    await call(credential, 'POST', '/payment/api/payouts', { reference, amount, currency: 'NGN', enquiryId: await enquire(credential), narration: 'Invoice 88', ...extra }, 201);
    return reference;
  };
  // Jobs run when a test runs them: a payout stays where a call put it until then.
  const dispatchPayouts = async () => {
    await api.app.get(JobRunner).runNow('payout-dispatch');
    await api.app.get(PayoutDispatcher).idle();
  };
  const deliverWebhooks = () => api.app.get(JobRunner).runNow('webhook-delivery');
  /** The merchants file, with merchant A opted in to payin.attempt_failed, which is sent only to merchants who ask. */
  const merchantsFile = () => {
    const file = payoutMerchantsFile(receiver.url, { approvalA: { required: true, thresholdNaira: APPROVAL_THRESHOLD } });
    const merchants = JSON.parse(fs.readFileSync(file, 'utf8')) as Array<Record<string, unknown>>;
    fs.writeFileSync(file, JSON.stringify(merchants.map((merchant) => (merchant.merchantId === MERCHANT_A.merchantId ? { ...merchant, webhookOptInEvents: ['payin.attempt_failed'] } : merchant))));
    return file;
  };

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    api = await startTestApp({ MERCHANTS_FILE: merchantsFile(), SANDBOX_PAYOUT_DELAY_MS: '0', PAYOUT_DAILY_LIMIT: '10000000' }, { startJobs: false });
    for (const credential of [MERCHANT_A, MERCHANT_B]) {
      const funding = await createPayin(credential, 200_000);
      await call(credential, 'POST', `/payment/api/payins/${funding}/simulate`, { outcome: 'successful' }, 200);
    }
  });
  afterAll(async () => {
    await api?.close();
    await receiver?.close();
  });

  it('the health checks', async () => {
    for (const path of ['/payment/health/live', '/payment/health/ready', '/payment/health']) {
      const response = await send(api.baseUrl, { method: 'GET', path });
      record('GET', path, response);
      expect(response.status).toBe(200);
    }
  });

  it('banks and the account enquiry', async () => {
    await call(MERCHANT_A, 'GET', '/payment/merchant-api/banks', undefined, 200);
    expect(await enquire(MERCHANT_A)).toEqual(expect.any(String));
  });

  it('payins: created, listed, read, driven to every final state, and their event logs', async () => {
    const paid = await createPayin(MERCHANT_A);
    await call(MERCHANT_A, 'GET', '/payment/api/payins?limit=5', undefined, 200);
    await call(MERCHANT_A, 'GET', `/payment/api/payins/${paid}`, undefined, 200);
    await call(MERCHANT_A, 'POST', `/payment/api/payins/${paid}/simulate`, { outcome: 'successful' }, 200);
    for (const outcome of ['failed', 'abandoned', 'declined']) await call(MERCHANT_A, 'POST', `/payment/api/payins/${await createPayin(MERCHANT_A)}/simulate`, { outcome }, 200);
    await call(MERCHANT_A, 'POST', `/payment/api/payins/${await createPayin(MERCHANT_A)}/cancel`, {}, 200);
    await deliverWebhooks();
    await receiver.waitFor(paid, 1);
    const log = await call(MERCHANT_A, 'GET', `/payment/api/payins/${paid}/events`, undefined, 200);
    const eventId = (log.json.data as Array<{ id: string }>)[0]?.id;
    await call(MERCHANT_A, 'POST', `/payment/api/events/${eventId}/redeliver`, {}, 202);
  });

  it('the balance and its entries', async () => {
    await call(MERCHANT_A, 'GET', '/payment/api/balance', undefined, 200);
    await call(MERCHANT_A, 'GET', '/payment/api/balance/entries?limit=5', undefined, 200);
  });

  it('the reports, every one the contract lists, downloaded as CSV with its documented header', async () => {
    const reports = OPERATIONS.filter((operation) => operation.startsWith('GET /payment/api/reports/')).map((operation) => operation.slice('GET '.length));
    expect(reports.length).toBeGreaterThan(0);
    for (const path of reports) await call(MERCHANT_A, 'GET', `${path}?from=2000-01-01T00:00:00Z&to=2100-01-01T00:00:00Z`, undefined, 200);
  });

  it('payouts: created, listed, read, approved, rejected, cancelled, requeried, driven to every final state, and their event logs', async () => {
    const sent = await createPayout(MERCHANT_A, 500);
    await call(MERCHANT_A, 'GET', '/payment/api/payouts?limit=5', undefined, 200);
    await call(MERCHANT_A, 'GET', `/payment/api/payouts/${sent}`, undefined, 200);
    await call(MERCHANT_A, 'POST', `/payment/api/payouts/${sent}/requery`, {}, 200);
    await call(MERCHANT_A, 'POST', `/payment/api/payouts/${sent}/simulate`, { outcome: 'successful' }, 200);
    await call(MERCHANT_A, 'POST', `/payment/api/payouts/${sent}/simulate`, { outcome: 'reversed' }, 200);
    await call(MERCHANT_A, 'POST', `/payment/api/payouts/${await createPayout(MERCHANT_A, 400)}/simulate`, { outcome: 'failed', reason: 'do_not_honor' }, 200);
    await call(MERCHANT_A, 'POST', `/payment/api/payouts/${await createPayout(MERCHANT_A, 300)}/cancel`, {}, 200);
    const approved = await createPayout(MERCHANT_A, APPROVAL_THRESHOLD);
    await call(APPROVER_A, 'POST', `/payment/api/payouts/${approved}/approve`, {}, 200);
    await call(APPROVER_A, 'POST', `/payment/api/payouts/${await createPayout(MERCHANT_A, APPROVAL_THRESHOLD)}/reject`, {}, 200);
    await call(MERCHANT_A, 'GET', `/payment/api/payouts/${sent}/events`, undefined, 200);
  });

  it('refunds: created, listed, read, cancelled, sent to an account, driven to every state, and their event logs', async () => {
    const payin = await createPayin(MERCHANT_A, 5000);
    await call(MERCHANT_A, 'POST', `/payment/api/payins/${payin}/simulate`, { outcome: 'successful' }, 200);
    const refund = (amount: number) => call(MERCHANT_A, 'POST', '/payment/api/refunds', { reference: unique('refund'), payinReference: payin, amount, notifyUrl: receiver.url }, 201).then((created) => created.json.reference as string);
    const dispatchRefunds = async () => {
      await api.app.get(JobRunner).runNow('refund-dispatch');
      await api.app.get(RefundDispatcher).idle();
    };
    const sent = await refund(500);
    await call(MERCHANT_A, 'GET', `/payment/api/refunds?payinReference=${payin}&limit=5`, undefined, 200);
    await call(MERCHANT_A, 'GET', `/payment/api/refunds/${sent}`, undefined, 200);
    await call(MERCHANT_A, 'POST', `/payment/api/refunds/${await refund(100)}/cancel`, {}, 200);
    await call(MERCHANT_A, 'POST', `/payment/api/refunds/${await refund(200)}/simulate`, { outcome: 'failed' }, 200);
    // .52: the sandbox cannot return it to the card (REQUIRES_ACTION), and sends it to the account given.
    const needsAccount = await refund(300.52);
    await dispatchRefunds();
    await call(MERCHANT_A, 'POST', `/payment/api/refunds/${needsAccount}/account`, { enquiryId: await enquire(MERCHANT_A) }, 200);
    await api.app.get(RefundDispatcher).idle();
    // A run delivers a share of each merchant's events: runs until the refund's three have gone.
    for (let run = 0; run < 20 && receiver.deliveriesOf(sent).length < 3; run++) await deliverWebhooks();
    await receiver.waitFor(sent, 3);
    await call(MERCHANT_A, 'GET', `/payment/api/refunds/${sent}/events`, undefined, 200);
  });

  it('webhook endpoints: created, listed, read, changed, their secret rolled, and deleted', async () => {
    const manager = await merchantAdmin(api).run((admin) => admin.add({ merchantId: unique('MCH-WE'), tenantId: 'TEN-WE', name: 'Endpoint Shop' }));
    const credential = { apiKey: manager.apiKey, secretKey: manager.secretKey, merchantId: manager.merchantId, tenantId: manager.tenantId };
    const created = await call(credential, 'POST', '/payment/api/webhook-endpoints', { url: receiver.url, enabledEvents: 'payin.successful,refund.failed', description: 'Orders' }, 201);
    const path = `/payment/api/webhook-endpoints/${String(created.json.id)}`;
    await call(credential, 'GET', '/payment/api/webhook-endpoints', undefined, 200);
    await call(credential, 'GET', path, undefined, 200);
    await call(credential, 'PATCH', path, { enabledEvents: '*', description: '' }, 200);
    await call(credential, 'POST', `${path}/roll-secret`, { expiresIn: 3600 }, 200);
    await call(credential, 'DELETE', path, undefined, 200);
    await call(credential, 'GET', path, undefined, 404);
  });

  it('settlements: the account set and its change cancelled, the schedule, settled now, listed, read with what they covered, paid, returned and failed', async () => {
    const owner = await merchantAdmin(api).run((admin) => admin.add({ merchantId: unique('MCH-ST'), tenantId: 'TEN-ST', name: 'Settling Shop' }));
    const credential = { apiKey: owner.apiKey, secretKey: owner.secretKey, merchantId: owner.merchantId, tenantId: owner.tenantId };
    await call(credential, 'POST', '/payment/api/webhook-endpoints', { url: receiver.url, enabledEvents: 'settlement.created,settlement.paid,settlement.failed,settlement.reversed,settlement_account.changed' }, 201);
    await call(credential, 'PUT', '/payment/api/settlement-account', { enquiryId: await enquire(credential) }, 200);
    await call(credential, 'GET', '/payment/api/settlement-account', undefined, 200);
    // The sandbox brings a change into force at once (SETTLEMENT_ACCOUNT_CHANGE_DELAY_SECONDS=0): none waits to be cancelled.
    await call(credential, 'POST', '/payment/api/settlement-account/cancel', {}, 409);
    await call(credential, 'PUT', '/payment/api/settlement-schedule', { interval: 'manual', minimumAmount: 0 }, 200);
    await call(credential, 'GET', '/payment/api/settlement-schedule', undefined, 200);
    const settleNow = async (naira: number) => {
      const payin = await createPayin(credential, naira);
      await call(credential, 'POST', `/payment/api/payins/${payin}/simulate`, { outcome: 'successful' }, 200);
      const id = (await call(credential, 'POST', '/payment/api/settlements', { reference: unique('stl'), currency: 'NGN' }, 201)).json.id as string;
      await dispatchPayouts();
      return id;
    };
    const paid = await settleNow(5000);
    await call(credential, 'GET', '/payment/api/settlements?limit=5', undefined, 200);
    expect((await call(credential, 'GET', `/payment/api/settlements/${paid}`, undefined, 200)).json.status).toBe('PAID');
    await call(credential, 'GET', `/payment/api/settlements/${paid}/entries?limit=5`, undefined, 200);
    // The bank returns it, as the provider's status check would report.
    const settlements = api.app.get(SettlementsService);
    await api.app.get(PayoutDispatcher).apply(await settlements.get(owner.merchantId, paid), { to: 'REVERSED', reason: 'account_not_found' });
    // The sandbox's documented account that fails at dispatch (docs/sandbox.md).
    await call(credential, 'PUT', '/payment/api/settlement-account', { enquiryId: (await call(credential, 'POST', '/payment/merchant-api/account/inquiry', { bankCode: '058', accountNumber: '3000000019' }, 200)).json.enquiryId }, 200);
    expect((await call(credential, 'GET', `/payment/api/settlements/${await settleNow(3000)}`, undefined, 200)).json.status).toBe('FAILED');
  });

  it('payout batches: opened, listed, read, filled, submitted and completed; another cancelled', async () => {
    const batch = unique('batch');
    await call(MERCHANT_B, 'POST', '/payment/api/payout-batches', { reference: batch, title: 'Vendors' }, 201);
    await createPayout(MERCHANT_B, 700, { batchReference: batch });
    await call(MERCHANT_B, 'GET', '/payment/api/payout-batches?limit=5', undefined, 200);
    await call(MERCHANT_B, 'GET', `/payment/api/payout-batches/${batch}`, undefined, 200);
    await call(MERCHANT_B, 'POST', `/payment/api/payout-batches/${batch}/submit`, { expectedCount: 1, expectedTotal: 700 }, 200);
    await dispatchPayouts();
    expect((await call(MERCHANT_B, 'GET', `/payment/api/payout-batches/${batch}`, undefined, 200)).json.status).toBe('COMPLETED');
    const cancelled = unique('batch');
    await call(MERCHANT_B, 'POST', '/payment/api/payout-batches', { reference: cancelled, title: 'Cancelled' }, 201);
    await call(MERCHANT_B, 'POST', `/payment/api/payout-batches/${cancelled}/cancel`, {}, 200);
  });

  it("the hosted checkout: its page, its form and the customer's way back", async () => {
    const reference = await createPayin(MERCHANT_A);
    const checkoutUrl = (await call(MERCHANT_A, 'GET', `/payment/api/payins/${reference}`, undefined, 200)).json.checkoutUrl as string;
    const customer = browser();
    const opened = await customer.open(checkoutUrl);
    await page('GET', checkoutUrl, new Response(opened.html, { status: opened.status, headers: opened.headers }));
    const paid = await page('POST', checkoutUrl, await customer.submit(checkoutUrl, { csrf: opened.csrf ?? '', action: 'pay_card', ...CARD }));
    expect(paid.status).toBe(303);
    const back = `${checkoutUrl}/return`;
    await page('GET', back, await fetch(back, { redirect: 'manual', headers: { cookie: customer.cookie() ?? '' } }));
  });

  it("the payment provider's webhooks, on a service in production with Paystack (the route exists only there)", async () => {
    const secretKey = 'sk_live_fakepaystack0123456789abcdef0123456789';
    const fake = await startFakePaystack({ secretKey });
    const paystack = await startProductionTestApp(
      { MERCHANTS_FILE: payoutMerchantsFile('https://merchant.example.com/hooks'), ACCOUNT_NAME_PROVIDER: 'paystack', PAYMENT_GATEWAY: 'paystack', PAYOUT_PROVIDER: 'paystack', PAYSTACK_SECRET_KEY: secretKey, PAYSTACK_BASE_URL: fake.url },
      { startJobs: false },
    );
    try {
      const path = '/payment/provider-webhooks/paystack';
      const body = JSON.stringify({ event: 'charge.success', data: { reference: unique('unknown'), status: 'success', amount: 100, currency: 'NGN' } });
      const signature = createHmac('sha512', secretKey).update(body).digest('hex');
      const response = await send(paystack.baseUrl, { method: 'POST', path, headers: { 'content-type': 'application/json', 'x-paystack-signature': signature }, body });
      record('POST', path, response);
      expect(response.status).toBe(200);
    } finally {
      await paystack.close();
      await fake.close();
    }
  });

  it.each(OPERATIONS)('reached %s', (operation) => {
    expect(reached.get(operation) ?? 'not reached: add a call to it to this suite').toEqual(expect.any(Array));
  });

  it.each(contract.webhookNames())('delivered %s, its payload as the contract says', async (name) => {
    const deadline = Date.now() + 10_000;
    let delivery = receiver.received.find((d) => (JSON.parse(d.body) as { type?: string }).type === name);
    while (!delivery && Date.now() < deadline) {
      await deliverWebhooks();
      await new Promise((resolve) => setTimeout(resolve, 50));
      delivery = receiver.received.find((d) => (JSON.parse(d.body) as { type?: string }).type === name);
    }
    expect(delivery ? contract.validateWebhook({ name, body: JSON.parse(delivery.body) }) : `no ${name} was delivered: make this suite cause one`).toEqual([]);
  });
});
