// The daily reconciliation in production against the fake Paystack: a day of
// payins, payouts and refunds made through it reconciles clean; each way the
// fake's listings can disagree is exactly one discrepancy, recorded once
// however often the day is run; a provider failing mid-run fails the run,
// never clean; a resolution moves money only through the object's own state
// machine or a correction journal, and ledger:check holds throughout. The
// built main.js runs the command.
import { execFileSync } from 'node:child_process';
import * as path from 'node:path';
import { startFakePaystack, type FakePaystack } from '@paysign/fake-paystack';
import { makeNuban } from '../src/banks/nuban';
import { SqlClient } from '../src/db/sql-client';
import { JobRunner } from '../src/jobs/job-runner';
import { checkLedger } from '../src/ledger-invariants';
import { ServiceMetrics } from '../src/metrics/service-metrics';
import { PayoutDispatcher } from '../src/payouts/payout-dispatcher';
import { RefundDispatcher } from '../src/refunds/refund-dispatcher';
import { runReconcileCommand, RECONCILE_EXIT } from '../src/reconciliation/reconcile-command';
import { Reconciler, type DayReport } from '../src/reconciliation/reconciler';
import { signedCall } from './support/api-client';
import { MERCHANT_A } from './support/credentials';
import { merchantAdmin } from './support/merchant-changes';
import { FAKE_PAYSTACK_LIVE_KEY, paystackEverywhere } from './support/paystack-settings';
import { REDIS_URL } from './support/stores';
import { PRODUCTION_SETTINGS, startProductionTestApp, type TestApp } from './support/test-app';

const ACCOUNT = { bankCode: '058', accountNumber: makeNuban('058', '731950311'), accountName: 'NGOZI EZE' };
let sequence = 0;
const unique = (prefix: string) => `${prefix}-${Date.now()}-${sequence++}`;

describe('reconciliation against the fake Paystack', () => {
  let fake: FakePaystack;
  let api: TestApp;
  const today = new Date().toISOString().slice(0, 10);
  const call = (method: 'GET' | 'POST', path: string, body?: unknown) => signedCall(api.baseUrl, { method, path, credential: MERCHANT_A, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  const runJob = async (job: string) => {
    await api.app.get(JobRunner).runNow(job);
    await api.app.get(PayoutDispatcher).idle();
    await api.app.get(RefundDispatcher).idle();
  };
  const reconcile = () => api.app.get(Reconciler).reconcileDay(today, { trigger: 'command', signal: AbortSignal.timeout(60_000) });
  const paystackRun = (report: DayReport) => report.runs.find((run) => run.provider === 'paystack') as DayReport['runs'][number];
  const command = (...argv: string[]) => runReconcileCommand([...argv, '--actor', 'ops@test'], api.app);
  const ledgerHolds = async () => expect(await checkLedger(api.app.get<SqlClient>(SqlClient))).toEqual([]);
  let payin: { reference: string; transactionReference: string };
  let payout: { reference: string; providerReference: string };

  beforeAll(async () => {
    fake = await startFakePaystack({ secretKey: FAKE_PAYSTACK_LIVE_KEY });
    fake.addAccount(ACCOUNT);
    api = await startProductionTestApp({ ...paystackEverywhere(fake.url), RECONCILIATION_PAGE_SIZE: '10', RECONCILIATION_MAX_PAGES: '1000' }, { startJobs: false });
    fake.webhookUrl = `${api.baseUrl}/payment/provider-webhooks/paystack`;
    // A day through the fake: two payins paid and one declined, a payout, and a refund: more than one page of each listing's ten.
    const paid: Array<{ reference: string; transactionReference: string }> = [];
    for (const [amount, outcome] of [[50_000, 'success'], [300, 'success'], [200, 'declined'], ...Array.from({ length: 9 }, () => [100, 'success'] as const)] as const) {
      const reference = unique('order');
      expect((await call('POST', '/payment/api/payins', { amount, currency: 'NGN', customerEmail: 'ada@example.com', reference, redirectUrl: 'https://shop.example.com/done' })).status).toBe(201);
      const transaction = [...fake.transactions.values()].at(-1) as { accessCode: string; reference: string };
      const paidAt = await fetch(`${fake.url}/checkout/${transaction.accessCode}`, { method: 'POST', body: new URLSearchParams({ outcome }), redirect: 'manual' });
      expect(paidAt.status).toBe(302);
      if (outcome === 'success') paid.push({ reference, transactionReference: transaction.reference });
    }
    payin = paid[1] as typeof payin;
    const enquiry = await call('POST', '/payment/merchant-api/account/inquiry', { bankCode: ACCOUNT.bankCode, accountNumber: ACCOUNT.accountNumber });
    const payoutReference = unique('po');
    expect((await call('POST', '/payment/api/payouts', { reference: payoutReference, amount: 1000, currency: 'NGN', enquiryId: enquiry.json.enquiryId, narration: 'Invoice 7' })).status).toBe(201);
    await runJob('payout-dispatch');
    const sent = (await call('GET', `/payment/api/payouts/${payoutReference}`)).json;
    expect(sent.status).toBe('SUCCESSFUL');
    payout = { reference: payoutReference, providerReference: sent.providerReference as string };
    const refund = unique('rf');
    expect((await call('POST', '/payment/api/refunds', { reference: refund, payinReference: (paid[0] as typeof payin).reference, amount: 500 })).status).toBe(201);
    await runJob('refund-dispatch');
    await fake.settleRefund([...fake.refunds.values()].at(-1)?.id as number, 'processed');
    expect((await call('GET', `/payment/api/refunds/${refund}`)).json.status).toBe('SUCCESSFUL');
  });

  afterAll(async () => {
    if (api) await ledgerHolds();
    await api?.close();
    await fake?.close();
  });

  it('reconciles a clean day with no discrepancy, every page of every listing read, and the sandbox not applicable', async () => {
    const report = await reconcile();
    const run = paystackRun(report);
    expect(run).toMatchObject({ outcome: 'clean', discrepancies: [] });
    // The declined payin is still PENDING here (its customer never came back, and Paystack sends no webhook for a decline): in flight, not a discrepancy.
    expect(run.counts).toEqual({ payin: { matched: 11, inFlight: 1, ignored: 0 }, payout: { matched: 1, inFlight: 0, ignored: 0 }, refund: { matched: 1, inFlight: 0, ignored: 0 } });
    expect(report.runs.filter((other) => other.provider !== 'paystack').every((other) => other.outcome === 'not_applicable')).toBe(true);
    expect(fake.calls.filter((route) => route === 'transaction_list').length).toBe(2);
    const printed = await command('--date', today);
    expect(printed.code).toBe(RECONCILE_EXIT.clean);
    expect(printed.out).toContain('  payin: 11 matched, 1 in flight, 0 of theirs left aside');
  });

  it('finds a successful transaction never heard of as one missing_ours, and resolves it with a correction journal to the merchant it belongs to', async () => {
    fake.faults.listings.extraTransactions.push({ reference: `psi-${'ab'.repeat(16)}`, amount: 250_000 });
    try {
      const [found, ...more] = paystackRun(await reconcile()).discrepancies;
      expect(more).toEqual([]);
      expect(found).toMatchObject({ kind: 'missing_ours', objectType: 'payin', merchantId: null, theirReference: `psi-${'ab'.repeat(16)}`, theirs: expect.objectContaining({ amountMinor: '250000', status: 'success' }) });
      const refused = await command('resolve', '--id', found?.id as string, '--reason', 'paid on a page we never opened', '--correct', 'journal', '--amount', '2500');
      expect(refused.code).toBe(RECONCILE_EXIT.usage);
      expect(refused.out[0]).toContain('--merchant-id');
      const before = (await call('GET', '/payment/api/balance')).json.available as number;
      const resolved = await command('resolve', '--id', found?.id as string, '--reason', 'Paystack support confirmed the customer paid merchant A', '--correct', 'journal', '--amount', '2500', '--merchant-id', MERCHANT_A.merchantId);
      expect(resolved).toMatchObject({ code: 0, out: [expect.stringContaining('corrected (journal')] });
      expect((await call('GET', '/payment/api/balance')).json.available).toBe(before + 2500);
      const entries = (await call('GET', '/payment/api/balance/entries?limit=1')).json.data as Array<Record<string, unknown>>;
      expect(entries[0]).toMatchObject({ type: 'correction', amount: 2500, balance: 'available', objectType: 'payin' });
      await ledgerHolds();
      // Resolved stays resolved: the day run again, with the fake still disagreeing, records nothing new.
      expect(paystackRun(await reconcile()).discrepancies).toEqual([expect.objectContaining({ id: found?.id, status: 'resolved', resolution: 'corrected' })]);
    } finally {
      fake.faults.listings.extraTransactions.length = 0;
    }
  });

  it('finds a transfer reversed there and paid here as one status_differs, reversed through the payout\'s own state machine', async () => {
    // Left in place: the provider goes on reporting it reversed, which the payout's reversal then agrees with.
    fake.faults.listings.reversedTransfers.add(payout.providerReference.toLowerCase());
    {
      const report = await command('--date', today, '--json');
      expect(report.code).toBe(RECONCILE_EXIT.discrepancies);
      const [found, ...more] = paystackRun(JSON.parse(report.out[0] as string) as DayReport).discrepancies;
      expect(more).toEqual([]);
      expect(found).toMatchObject({ kind: 'status_differs', objectType: 'payout', ourReference: payout.reference, ours: expect.objectContaining({ status: 'SUCCESSFUL' }), theirs: expect.objectContaining({ status: 'reversed' }) });
      // Nothing was corrected on its own.
      expect((await call('GET', `/payment/api/payouts/${payout.reference}`)).json.status).toBe('SUCCESSFUL');
      expect(await api.app.get(ServiceMetrics).registry.getSingleMetricAsString('paysign_reconciliation_discrepancies')).toContain('paysign_reconciliation_discrepancies{kind="status_differs"} 1');
      expect((await command('resolve', '--id', found?.id as string, '--reason', 'reversed by the bank', '--correct', 'reverse')).code).toBe(0);
      expect((await call('GET', `/payment/api/payouts/${payout.reference}`)).json.status).toBe('REVERSED');
      await ledgerHolds();
      const audit = await merchantAdmin(api).run((admin) => admin.audit({ merchantId: MERCHANT_A.merchantId, limit: 10 }));
      expect(audit).toContainEqual(expect.objectContaining({ action: 'reconciliation.resolve', actor: 'ops@test', detail: expect.objectContaining({ resolution: 'reversed', reason: 'reversed by the bank', statusAfter: 'REVERSED' }) }));
      // Now both say reversed: the day is clean again.
      expect(paystackRun(await reconcile())).toMatchObject({ outcome: 'clean', discrepancies: [] });
    }
  });

  it('finds a transaction of another amount as one amount_differs, recorded once however often the day runs, and acknowledged', async () => {
    fake.faults.listings.amountDeltas.set(payin.transactionReference, 100);
    try {
      const [first] = paystackRun(await reconcile()).discrepancies;
      expect(first).toMatchObject({ kind: 'amount_differs', objectType: 'payin', ourReference: payin.reference, ours: expect.objectContaining({ amountMinor: '30000' }), theirs: expect.objectContaining({ amountMinor: '30100' }) });
      const again = paystackRun(await reconcile());
      expect(again.discrepancies).toEqual([expect.objectContaining({ id: first?.id, firstRunId: first?.firstRunId, status: 'open' })]);
      expect((await command('resolve', '--id', first?.id as string, '--reason', 'the fee passed on, confirmed on the dashboard')).out[0]).toContain('acknowledged');
      const list = await command('list', '--open');
      expect(list.out.join('\n')).not.toContain(`#${first?.id} `);
    } finally {
      fake.faults.listings.amountDeltas.clear();
    }
  });

  it('fails a run whose provider fails mid-run, records it failed and never clean, and exits with the failure\'s code', async () => {
    fake.faults.serverErrors = { count: 1000, route: 'transfer_list' };
    try {
      const printed = await command('--date', today);
      expect(printed.code).toBe(RECONCILE_EXIT.failed);
      expect(printed.out.join('\n')).toContain('paystack: failed');
      const { rows } = await api.app.get<SqlClient>(SqlClient).query<{ outcome: string }>("SELECT outcome FROM reconciliation_runs WHERE provider = 'paystack' ORDER BY id DESC LIMIT 1");
      expect(rows[0]?.outcome).toBe('failed');
    } finally {
      fake.faults.serverErrors = { count: 0 };
    }
  });

  it('runs from the built service, with the service\'s environment', () => {
    const main = path.join(__dirname, '../dist/main.js');
    const printed = execFileSync(process.execPath, [main, 'reconcile', 'list', '--json', '--limit', '5'], {
      encoding: 'utf8',
      env: { PATH: process.env.PATH, PAYSIGN_MODE: 'production', REDIS_URL, DATABASE_URL: api.config.databaseUrl, ...PRODUCTION_SETTINGS, ...paystackEverywhere(fake.url) },
    });
    expect(JSON.parse(printed)).toEqual({ items: expect.any(Array) });
  });
});
