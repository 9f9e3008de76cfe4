// The operator's commands on objects and events, on the real app: what needs
// attention is listed, asked about again, and resolved with its journals and
// event; a merchant's webhooks are delivered again for a time range; every
// action is in the audit trail. The deployable's main.js runs them too.
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import * as path from 'node:path';
import { SqlClient } from '../src/db/sql-client';
import { JobRunner } from '../src/jobs/job-runner';
import { checkLedger } from '../src/ledger-invariants';
import { runOperatorCommand } from '../src/operator-commands';
import { PayoutDispatcher } from '../src/payouts/payout-dispatcher';
import { signedCall } from './support/api-client';
import { MERCHANT_A, TEST_MERCHANTS_FILE } from './support/credentials';
import { merchantAdmin } from './support/merchant-changes';
import { startTestApp, type TestApp } from './support/test-app';
import { WebhookReceiver } from './support/webhook-receiver';

const unique = (label: string) => `${label}-${randomUUID().slice(0, 8)}`;

describe('the operator commands', () => {
  let api: TestApp;
  let receiver: WebhookReceiver;
  const call = (method: string, path: string, body?: Record<string, unknown>) => signedCall(api.baseUrl, { method, path, credential: MERCHANT_A, ...(body ? { body: JSON.stringify(body) } : {}) });
  const run = async (...argv: string[]) => runOperatorCommand([...argv, '--actor', 'ops@test'], api.app);
  const json = async (...argv: string[]) => {
    const result = await run(...argv, '--json');
    expect(result).toMatchObject({ code: 0 });
    return JSON.parse(result.out[0] as string) as Record<string, unknown>;
  };
  const flag = (table: string, reference: string) => api.app.get<symbol, SqlClient>(SqlClient).query(`UPDATE ${table} SET needs_attention = true WHERE merchant_id = $1 AND reference = $2`, [MERCHANT_A.merchantId, reference]);
  const balance = async () => (await call('GET', '/payment/api/balance')).json as { available: number; held: number; pending: number };
  const audit = () => merchantAdmin(api).run((admin) => admin.audit({ merchantId: MERCHANT_A.merchantId, limit: 100 }));

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    // Jobs run when a test runs them.
    api = await startTestApp({ WEBHOOK_RETRY_SCHEDULE: '0,1' }, { startJobs: false });
    const funding = unique('fund');
    await call('POST', '/payment/api/payins', { amount: 50_000, currency: 'NGN', customerEmail: 'ada@example.com', reference: funding });
    await call('POST', `/payment/api/payins/${funding}/simulate`, { outcome: 'successful' });
  });
  afterAll(async () => {
    await api.close();
    await receiver.close();
  });
  afterEach(async () => expect(await checkLedger(api.app.get<symbol, SqlClient>(SqlClient))).toEqual([]));

  it('lists a payout that needs attention, asks its provider again, and resolves it as failed, its hold released by a journal', async () => {
    const before = await balance();
    const reference = unique('po');
    // The sandbox's account whose transfer stays pending at every check, as a provider that never gives an outcome.
    const enquiryId = (await call('POST', '/payment/merchant-api/account/inquiry', { bankCode: '058', accountNumber: '3000000129' })).json.enquiryId as string;
    expect((await call('POST', '/payment/api/payouts', { reference, amount: 1000, currency: 'NGN', enquiryId, narration: 'Invoice 12' })).status).toBe(201);
    await api.app.get(JobRunner).runNow('payout-dispatch');
    await api.app.get(PayoutDispatcher).idle();
    expect((await call('GET', `/payment/api/payouts/${reference}`)).json.status).toBe('PROCESSING');
    await flag('payouts', reference);

    const { items } = (await json('attention', 'list', '--kind', 'payout')) as { items: Array<Record<string, unknown>> };
    expect(items).toContainEqual(expect.objectContaining({ kind: 'payout', merchantId: MERCHANT_A.merchantId, reference, status: 'PROCESSING', amount: 1000, currency: 'NGN', provider: 'sandbox' }));

    const requeried = await json('attention', 'requery', '--kind', 'payout', '--merchant-id', MERCHANT_A.merchantId, '--reference', reference);
    expect(requeried).toMatchObject({ status: 'PROCESSING' });

    const held = await balance();
    expect(held.available).toBeLessThan(before.available);
    const resolved = await json('attention', 'resolve', '--kind', 'payout', '--merchant-id', MERCHANT_A.merchantId, '--reference', reference, '--outcome', 'failed', '--failure-reason', 'account_not_found', '--reason', 'Paystack support: transfer TRF_1 failed, account closed');
    expect(resolved).toMatchObject({ status: 'FAILED', needsAttention: false, resolution: 'failed' });
    const payout = (await call('GET', `/payment/api/payouts/${reference}`)).json;
    expect(payout).toMatchObject({ status: 'FAILED', failureReason: 'account_not_found', needsAttention: false });
    expect(await balance()).toEqual(before);
    expect(await audit()).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ action: 'attention.requery', actor: 'ops@test', subject: `payout ${reference}` }),
        expect.objectContaining({ action: 'attention.resolve', actor: 'ops@test', subject: `payout ${reference}`, detail: expect.objectContaining({ resolution: 'failed', statusBefore: 'PROCESSING', statusAfter: 'FAILED', reason: 'Paystack support: transfer TRF_1 failed, account closed' }) }),
      ]),
    );
  });

  it('resolves a pending payin as successful, credited by a journal, and acknowledges a final one without moving money', async () => {
    const reference = unique('pi');
    await call('POST', '/payment/api/payins', { amount: 2500, currency: 'NGN', customerEmail: 'ada@example.com', reference });
    await flag('payins', reference);
    const before = await balance();
    await json('attention', 'resolve', '--kind', 'payin', '--merchant-id', MERCHANT_A.merchantId, '--reference', reference, '--outcome', 'successful', '--reason', 'paid at the provider, confirmed on its dashboard');
    const payin = (await call('GET', `/payment/api/payins/${reference}`)).json;
    expect(payin).toMatchObject({ status: 'SUCCESSFUL' });
    const after = await balance();
    expect(after.available + after.pending).toBeCloseTo(before.available + before.pending + 2500 - (payin.fee as number), 2);

    await flag('payins', reference);
    const acknowledged = await json('attention', 'resolve', '--kind', 'payin', '--merchant-id', MERCHANT_A.merchantId, '--reference', reference, '--outcome', 'acknowledged', '--reason', 'checked: one payment, credited once');
    expect(acknowledged).toMatchObject({ status: 'SUCCESSFUL', needsAttention: false });
    expect(await balance()).toEqual(after);
  });

  it("refuses an operator's mistakes, changing nothing", async () => {
    const reference = unique('pi');
    await call('POST', '/payment/api/payins', { amount: 100, currency: 'NGN', customerEmail: 'ada@example.com', reference });
    const key = ['--kind', 'payin', '--merchant-id', MERCHANT_A.merchantId, '--reference', reference];
    expect(await run('attention', 'resolve', ...key, '--outcome', 'successful', '--reason', 'x')).toMatchObject({ code: 2, out: [expect.stringContaining('does not need attention')] });
    await flag('payins', reference);
    expect(await run('attention', 'resolve', ...key, '--outcome', 'reversed', '--reason', 'x')).toMatchObject({ code: 2, out: [expect.stringContaining('cannot be resolved as reversed')] });
    expect(await run('attention', 'resolve', ...key, '--outcome', 'acknowledged', '--reason', 'x')).toMatchObject({ code: 2, out: [expect.stringContaining('still in flight: acknowledged is only for a final object')] });
    expect(await run('attention', 'resolve', ...key, '--outcome', 'successful')).toMatchObject({ code: 2, out: ['resolve needs --reason.'] });
    expect(await run('attention', 'resolve', ...key, '--outcome', 'failed', '--failure-reason', 'bad_luck', '--reason', 'x')).toMatchObject({ code: 2, out: [expect.stringContaining('--failure-reason of a payin must be one of')] });
    expect(await run('attention', 'requery', '--kind', 'payin', '--merchant-id', MERCHANT_A.merchantId, '--reference', 'nothing-here')).toMatchObject({ code: 2 });
    expect((await call('GET', `/payment/api/payins/${reference}`)).json.status).toBe('PENDING');
  });

  it("delivers a merchant's events of a time range once more, with the same webhook-ids, and audits it", async () => {
    const from = new Date().toISOString();
    const references = [unique('wh'), unique('wh')];
    for (const reference of references) {
      await call('POST', '/payment/api/payins', { amount: 100, currency: 'NGN', customerEmail: 'ada@example.com', reference, notifyUrl: receiver.url });
      await call('POST', `/payment/api/payins/${reference}/simulate`, { outcome: 'successful' });
    }
    const to = new Date(Date.now() + 1000).toISOString();
    const deliverAll = async (count: number) => {
      for (let run = 0; run < 20 && references.some((r) => receiver.deliveriesOf(r).length < count); run++) await api.app.get(JobRunner).runNow('webhook-delivery');
      for (const reference of references) await receiver.waitFor(reference, count);
    };
    await deliverAll(1);
    // Replayed once each delivery is recorded: a replay of an event still in flight is overwritten by that attempt's own record.
    for (const reference of references) {
      for (let tries = 0; tries < 200; tries++) {
        const log = (await call('GET', `/payment/api/payins/${reference}/events`)).json.data as Array<{ status: string }>;
        if (log.every((event) => event.status === 'delivered')) break;
        await new Promise((resolve) => setImmediate(resolve));
      }
    }

    const range = ['--merchant-id', MERCHANT_A.merchantId, '--from', from, '--to', to, '--type', 'payin.successful'];
    expect(await json('webhooks', 'replay', ...range, '--dry-run')).toMatchObject({ events: 2, dryRun: true });
    expect(await run('webhooks', 'replay', ...range, '--max', '1')).toMatchObject({ code: 2, out: [expect.stringContaining('more than --max 1')] });
    expect(await json('webhooks', 'replay', ...range)).toMatchObject({ events: 2, dryRun: false });
    await deliverAll(2);
    for (const reference of references) {
      const [first, second] = receiver.deliveriesOf(reference);
      expect(second?.headers['webhook-id']).toBe(first?.headers['webhook-id']);
    }
    expect(await audit()).toContainEqual(expect.objectContaining({ action: 'webhooks.replay', detail: expect.objectContaining({ events: 2, type: 'payin.successful' }) }));
  });

  it('runs from the built service, with the service\'s environment', () => {
    const main = path.join(__dirname, '../dist/main.js');
    const printed = execFileSync(process.execPath, [main, 'attention', 'list', '--json', '--limit', '5'], {
      encoding: 'utf8',
      env: { PATH: process.env.PATH, DATABASE_URL: api.config.databaseUrl, MERCHANTS_FILE: TEST_MERCHANTS_FILE, DATA_DIR: api.config.dataDir },
    });
    expect(JSON.parse(printed)).toEqual({ items: expect.any(Array) });
  });
});
