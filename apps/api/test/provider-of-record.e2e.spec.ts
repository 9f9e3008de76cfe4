// The provider of record, in production against the fake provider: a payout
// sent and a payin started at one provider are settled by that provider after
// the service restarts with another selected, and nothing is ever sent to the
// other; a configuration that drops a provider still in flight is refused at
// boot, and retiring it flags what was in flight instead of guessing.
import { createHmac } from 'node:crypto';
import { startFakePaystack, type FakePaystack } from '@paysign/fake-paystack';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import pino from 'pino';
import { createApp } from '../src/app.factory';
import { makeNuban } from '../src/banks/nuban';
import { loadConfig, type AppConfig } from '../src/config/app-config';
import { SqlClient } from '../src/db/sql-client';
import { JobRunner } from '../src/jobs/job-runner';
import { checkLedger } from '../src/ledger-invariants';
import { ServiceMetrics } from '../src/metrics/service-metrics';
import { PayoutDispatcher } from '../src/payouts/payout-dispatcher';
import { PayoutSendStore } from '../src/payouts/payout-send-store';
import { PayoutStore, type StoredPayout } from '../src/payouts/payout-store';
import { signedCall } from './support/api-client';
import { MERCHANT_A } from './support/credentials';
import { FAKE_PAYSTACK_LIVE_KEY, paystackEverywhere } from './support/paystack-settings';
import { REDIS_URL, createPrivateDatabase } from './support/stores';
import { TestClock } from './support/test-clock';
import { PRODUCTION_SETTINGS } from './support/test-app';

const ACCOUNT = { bankCode: '058', accountNumber: makeNuban('058', '731950277'), accountName: 'ADAEZE NWOSU' };
/** Held at the provider: pending for the first two verifications, then successful. */
const HELD = { bankCode: '044', accountNumber: makeNuban('044', '310000011'), accountName: 'CHIDI OKAFOR', behaviour: { kind: 'pending-then-success' as const, verifications: 2 } };
/** A sandbox account the fake's bank also knows: enquired at Paystack, paid by the sandbox. */
const SHARED = { bankCode: '058', accountNumber: '0123456785', accountName: 'ADAEZE NWOSU' };
/** Pending at the provider for as long as this suite runs. */
const STUCK = { bankCode: '044', accountNumber: makeNuban('044', '310000022'), accountName: 'BOLA ADEYEMI', behaviour: { kind: 'pending-then-success' as const, verifications: 1000 } };

let sequence = 0;
const unique = (prefix: string) => `${prefix}-${Date.now()}-${sequence++}`;

interface Running {
  app: NestFastifyApplication;
  baseUrl: string;
  logs: Array<Record<string, unknown>>;
  close(): Promise<void>;
}

describe('the provider of record, across a switch of providers', () => {
  const clock = new TestClock();
  let fake: FakePaystack;
  let database: { url: string; drop: () => Promise<void> };
  let env: Record<string, string>;
  let running: Running | undefined;

  /** The service on this suite's database, with `adjust` applied to the config the env gives: a test-only wiring selects the sandbox in production. */
  async function start(adjust: (config: AppConfig) => AppConfig = (config) => config, extraEnv: Record<string, string> = {}): Promise<Running> {
    const config = adjust(loadConfig({ ...env, ...extraEnv }));
    const logs: Array<Record<string, unknown>> = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => void logs.push(JSON.parse(line) as Record<string, unknown>) });
    const app = await createApp(config, { logger, overrides: { storeClock: clock.now }, startJobs: false });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const baseUrl = `http://127.0.0.1:${(app.getHttpServer().address() as { port: number }).port}`;
    fake.webhookUrl = `${baseUrl}/payment/provider-webhooks/paystack`;
    return { app, baseUrl, logs, close: () => app.close() };
  }
  /** Paystack selected for nothing new: the sandbox's adapters take new payins and payouts. */
  const sandboxSelected = (config: AppConfig): AppConfig => ({ ...config, paymentGateway: 'sandbox', payouts: { ...config.payouts, provider: 'sandbox' } });

  const api = () => running as Running;
  const call = (method: 'GET' | 'POST', path: string, body?: unknown) =>
    signedCall(api().baseUrl, { method, path, credential: MERCHANT_A, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  const runJob = async (job: string) => {
    await api().app.get(JobRunner).runNow(job);
    await api().app.get(PayoutDispatcher).idle();
  };
  const sql = () => api().app.get<SqlClient>(SqlClient);
  const payoutOf = async (reference: string) => (await call('GET', `/payment/api/payouts/${reference}`)).json;
  const payinOf = async (reference: string) => (await call('GET', `/payment/api/payins/${reference}`)).json;
  const sandboxTransfers = async () => Number((await sql().query<{ n: string }>('SELECT count(*)::text AS n FROM sandbox_payout_transfers')).rows[0]?.n);
  async function payout(account: { bankCode: string; accountNumber: string }, amount = 1000): Promise<string> {
    const reference = unique('po');
    const enquiry = await call('POST', '/payment/merchant-api/account/inquiry', { bankCode: account.bankCode, accountNumber: account.accountNumber });
    expect(enquiry.status).toBe(200);
    const created = await call('POST', '/payment/api/payouts', { reference, amount, currency: 'NGN', enquiryId: enquiry.json.enquiryId, narration: 'Invoice 12' });
    expect({ status: created.status, message: created.json.message }).toEqual({ status: 201, message: undefined });
    return reference;
  }
  async function payAtProvider(accessCode: string): Promise<void> {
    const response = await fetch(`${fake.url}/checkout/${accessCode}`, { method: 'POST', body: new URLSearchParams({ outcome: 'success' }), redirect: 'manual' });
    expect(response.status).toBe(302);
  }

  beforeAll(async () => {
    fake = await startFakePaystack({ secretKey: FAKE_PAYSTACK_LIVE_KEY });
    for (const account of [ACCOUNT, HELD, STUCK, SHARED]) fake.addAccount(account);
    database = await createPrivateDatabase('paysign_switch');
    env = {
      PAYSIGN_MODE: 'production',
      REDIS_URL,
      DATABASE_URL: database.url,
      ...PRODUCTION_SETTINGS,
      ...paystackEverywhere(fake.url),
      LOG_LEVEL: 'info',
    };
  });

  afterAll(async () => {
    await running?.close();
    await database?.drop();
    await fake?.close();
  });

  it('settles a payout and a payin at the provider they went to after another is selected, sends the other nothing, and sends new ones to the new one', async () => {
    // At provider A: funds collected, a payout held PROCESSING there, a payin started there and not yet paid.
    running = await start();
    const funds = await call('POST', '/payment/api/payins', { amount: 500_000, currency: 'NGN', customerEmail: 'ada@example.com', reference: unique('order') });
    expect(funds.status).toBe(201);
    await payAtProvider(([...fake.transactions.values()].at(-1) as { accessCode: string }).accessCode);
    await runJob('settlement');
    const held = await payout(HELD);
    await runJob('payout-dispatch');
    expect(await payoutOf(held)).toMatchObject({ status: 'PROCESSING', provider: 'paystack', providerReference: expect.stringMatching(/^PSX-[0-9a-f]{32}$/) });
    const started = unique('order');
    expect((await call('POST', '/payment/api/payins', { amount: 2500, currency: 'NGN', customerEmail: 'ada@example.com', reference: started })).status).toBe(201);
    const transaction = [...fake.transactions.values()].at(-1) as { accessCode: string; reference: string };
    expect(await payinOf(started)).toMatchObject({ status: 'PENDING', provider: 'paystack' });
    await running.close();

    // Restarted with the sandbox selected for new payins and payouts; Paystack stays configured.
    running = await start(sandboxSelected);
    const transfersAtA = fake.calls.filter((route) => route === 'transfer').length;
    // Past every step of the schedule and the resend grace: each check asks A, which answers pending, then successful.
    for (let check = 0; check < 3 && (await payoutOf(held)).status === 'PROCESSING'; check++) {
      clock.advance(3_600_000);
      await runJob('payout-status-check');
    }
    expect(await payoutOf(held)).toMatchObject({ status: 'SUCCESSFUL', provider: 'paystack' });
    expect(fake.transfers.get(((await payoutOf(held)).providerReference as string).toLowerCase())?.verifications).toBeGreaterThanOrEqual(2);
    expect(fake.calls.filter((route) => route === 'transfer').length).toBe(transfersAtA);
    expect(await sandboxTransfers()).toBe(0);

    // The payin started at A is paid there: A's webhook reaches the service, which asks A and credits it.
    await payAtProvider(transaction.accessCode);
    expect(await payinOf(started)).toMatchObject({ status: 'SUCCESSFUL', provider: 'paystack' });

    // New objects go to the provider selected now.
    const fresh = unique('order');
    expect((await call('POST', '/payment/api/payins', { amount: 100, currency: 'NGN', customerEmail: 'ada@example.com', reference: fresh })).status).toBe(201);
    expect(await payinOf(fresh)).toMatchObject({ status: 'PENDING', provider: 'sandbox' });
    const transactionsAtA = fake.transactions.size;
    const next = await payout(SHARED, 100);
    await runJob('payout-dispatch');
    expect(await payoutOf(next)).toMatchObject({ status: 'SUCCESSFUL', provider: 'sandbox' });
    expect(await sandboxTransfers()).toBe(1);
    expect(fake.transactions.size).toBe(transactionsAtA);
    expect(await checkLedger(sql())).toEqual([]);

    // Both paid payouts are watched for a reversal, each at its own provider, until the watch ends.
    for (let watch = 0; watch < 3; watch++) {
      clock.advance(86_400_000 + 60_000);
      await runJob('payout-status-check');
    }
    expect(await sandboxTransfers()).toBe(1);
    expect((await payoutOf(held)).status).toBe('SUCCESSFUL');
  });

  it('refuses to boot without a provider still named by a payout in flight, naming it and the count; retiring it boots and flags the payout for an operator', async () => {
    const stuck = await payout(STUCK, 150);
    // Paystack selected again, to send through it.
    await running?.close();
    running = await start();
    await runJob('payout-dispatch');
    expect(await payoutOf(stuck)).toMatchObject({ status: 'PROCESSING', provider: 'paystack' });
    // Every payout still checked at Paystack: this one, and any other test's not yet final there.
    const inFlight = Number(
      (await sql().query<{ n: string }>("SELECT count(*)::text AS n FROM payouts WHERE provider = 'paystack' AND status IN ('PROCESSING', 'SUCCESSFUL') AND next_status_check_at IS NOT NULL")).rows[0]?.n,
    );
    expect(inFlight).toBeGreaterThanOrEqual(1);
    await running.close();
    running = undefined;

    const withoutPaystack = (config: AppConfig): AppConfig => ({ ...sandboxSelected(config), accountNameProvider: 'sandbox', paystack: undefined });
    await expect(start(withoutPaystack)).rejects.toThrow(
      new RegExp(`${inFlight} payouts? \\(PROCESSING, or paid and watched for a reversal\\) in flight at provider "paystack", which this configuration no longer configures.*RETIRED_PROVIDERS=paystack`),
    );

    running = await start((config) => ({ ...withoutPaystack(config), retiredProviders: ['paystack'] }));
    expect(await payoutOf(stuck)).toMatchObject({ status: 'PROCESSING', provider: 'paystack', needsAttention: true, nextStatusCheckAt: null });
    expect(running.logs).toContainEqual(expect.objectContaining({ level: 50, provider: 'paystack', payouts: inFlight, payins: 0 }));
    expect(await running.app.get(ServiceMetrics).registry.getSingleMetricAsString('paysign_provider_checks_needing_attention_total')).toContain(`paysign_provider_checks_needing_attention_total{object="payout",reason="provider_retired"} ${inFlight}`);
    // A check another instance had under way when it was retired, ending late, does not start its checks again.
    const retired = (await running.app.get(PayoutStore, { strict: false }).find({ merchantId: MERCHANT_A.merchantId, reference: stuck })) as StoredPayout;
    expect(await running.app.get(PayoutSendStore, { strict: false }).rescheduleCheck(retired, 'PROCESSING', retired.statusChecks + 1, new Date(clock.now() + 60_000), false)).toBeUndefined();
    // Nothing asks about it again, and nothing is sent anywhere.
    const verifications = fake.calls.filter((route) => route === 'transfer_verify').length;
    clock.advance(86_400_000);
    await runJob('payout-status-check');
    expect(fake.calls.filter((route) => route === 'transfer_verify').length).toBe(verifications);
    expect(await sandboxTransfers()).toBe(1);
    expect(await checkLedger(sql())).toEqual([]);
  });

  it('records the provider of a payout in flight that the release before wrote without one, and refuses to start where nothing selected could record it', async () => {
    await running?.close();
    running = await start();
    const older = await payout(STUCK, 200);
    await runJob('payout-dispatch');
    // As the release before providers were recorded leaves it: sent, with its reference, and no provider.
    await sql().query('UPDATE payouts SET provider = NULL WHERE reference = $1', [older]);
    await running.close();
    running = undefined;

    const nothingSelected = (config: AppConfig): AppConfig => ({ ...config, payouts: { ...config.payouts, provider: 'none' } });
    await expect(start(nothingSelected)).rejects.toThrow('0 payins and 1 payouts are in flight with no provider recorded');

    running = await start();
    expect(await payoutOf(older)).toMatchObject({ status: 'PROCESSING', provider: 'paystack' });
    expect(running.logs).toContainEqual(expect.objectContaining({ msg: 'recorded the provider of older payins and payouts, from the configuration they ran under', payouts: 1 }));
  });

  it('answers a webhook for a provider not configured, or no provider at all, 404 ROUTE_NOT_FOUND, and one it cannot read 400', async () => {
    const post = (provider: string, body: string, headers: Record<string, string> = {}) =>
      fetch(`${api().baseUrl}/payment/provider-webhooks/${provider}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
    for (const provider of ['flutterwave', 'Paystack', 'a'.repeat(40), '%00']) {
      const answer = await post(provider, '{}');
      expect({ provider, status: answer.status, code: ((await answer.json()) as { code: string }).code }).toEqual({ provider, status: 404, code: 'ROUTE_NOT_FOUND' });
    }
    const signed = (body: string) => ({ 'x-paystack-signature': createHmac('sha512', FAKE_PAYSTACK_LIVE_KEY).update(body).digest('hex') });
    const notJson = await post('paystack', '{"event":', signed('{"event":'));
    expect({ status: notJson.status, code: ((await notJson.json()) as { code: string }).code }).toEqual({ status: 400, code: 'INVALID_JSON' });
    const forged = await post('paystack', '{"event":"charge.success","data":{"reference":"x"}}', { 'x-paystack-signature': '0'.repeat(128) });
    expect({ status: forged.status, code: ((await forged.json()) as { code: string }).code }).toEqual({ status: 401, code: 'PROVIDER_SIGNATURE_INVALID' });
  });
});
