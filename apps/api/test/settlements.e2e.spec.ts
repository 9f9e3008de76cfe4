// Settlements over HTTP, on the real app: the account and its delay, the schedule's runs, each settlement's transfer through the payouts' dispatcher, and what it covered.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { makeNuban } from '../src/banks/nuban';
import { SqlClient } from '../src/db/sql-client';
import { JobRunner } from '../src/jobs/job-runner';
import { checkLedger } from '../src/ledger-invariants';
import { PayoutDispatcher } from '../src/payouts/payout-dispatcher';
import { signedCall } from './support/api-client';
import { MERCHANT_A, MERCHANT_B, WEBHOOK_SECRETS_A, WEBHOOK_SECRET_B, type TestCredential } from './support/credentials';
import { DATABASE_URL, createPrivateDatabase, describeWithStore } from './support/stores';
import { TestClock } from './support/test-clock';
import { startEmbeddedTestApp, startTestApp, type TestApp } from './support/test-app';

const DAY_MS = 86_400_000;
/** The sandbox's documented accounts (docs/sandbox.md): found by enquiry, and paid; the last fails at dispatch. */
const ACCOUNTS = {
  ada: ['058', '012345678'],
  chinedu: ['044', '000111222'],
  bolanle: ['057', '100000001'],
  musa: ['033', '204060801'],
  failing: ['058', '300000001'],
} as const;
const HOUR_MS = 3_600_000;
let sequence = 0;
const unique = (prefix: string) => `${prefix}-${Date.now()}-${sequence++}`;

/** Merchant A's key may manage settlements; merchant B's holds the default roles, which may not. */
function settlementMerchantsFile(): string {
  const entry = (c: TestCredential, name: string, webhookSecrets: readonly string[], roles?: string[]) => ({
    merchantId: c.merchantId,
    tenantId: c.tenantId,
    name,
    webhookSecrets,
    webhookUrl: 'http://127.0.0.1:9/hooks',
    fees: { payinPercent: 1.5 },
    credentials: [{ apiKey: c.apiKey, secretKey: c.secretKey, ...(roles ? { roles } : {}) }],
  });
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'settlement-merchants-')), 'merchants.json');
  fs.writeFileSync(file, JSON.stringify([entry(MERCHANT_A, 'Merchant A', WEBHOOK_SECRETS_A, ['payouts:create', 'refunds:create', 'settlements:manage']), entry(MERCHANT_B, 'Merchant B', [WEBHOOK_SECRET_B])]));
  return file;
}

type Json = Record<string, unknown>;

function merchantOf(api: TestApp, credential: TestCredential) {
  const call = (method: 'GET' | 'POST' | 'PUT', pathAndQuery: string, body?: unknown) =>
    signedCall(api.baseUrl, { method, path: pathAndQuery, credential, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  return {
    call,
    async paid(naira: number): Promise<string> {
      const reference = unique('order');
      expect((await call('POST', '/payment/api/payins', { amount: naira, currency: 'NGN', customerEmail: 'ada@example.com', reference })).status).toBe(201);
      expect((await call('POST', `/payment/api/payins/${reference}/simulate`, { outcome: 'successful' })).status).toBe(200);
      return reference;
    },
    async enquire([bankCode, serial]: readonly [string, string] = ACCOUNTS.ada): Promise<string> {
      const enquiry = await call('POST', '/payment/merchant-api/account/inquiry', { bankCode, accountNumber: makeNuban(bankCode, serial) });
      expect(enquiry.status).toBe(200);
      return enquiry.json.enquiryId as string;
    },
    balance: async () => (await call('GET', '/payment/api/balance')).json,
    settlement: async (id: string) => (await call('GET', `/payment/api/settlements/${id}`)).json,
    /** Every entry the settlement covered, through every page. */
    async entries(id: string): Promise<Json[]> {
      const all: Json[] = [];
      let cursor: string | null = null;
      do {
        const page = await call('GET', `/payment/api/settlements/${id}/entries?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
        expect(page.status).toBe(200);
        all.push(...(page.json.data as Json[]));
        cursor = page.json.nextCursor as string | null;
      } while (cursor);
      return all;
    },
  };
}

async function runJob(api: TestApp, job: string): Promise<void> {
  await api.app.get(JobRunner).runNow(job);
  await api.app.get(PayoutDispatcher).idle();
}

/** The types of the events written for the merchant's settlements and settlement account, oldest first. */
async function eventTypes(api: TestApp, merchantId: string, objectId?: string): Promise<string[]> {
  const { rows } = await api.app.get<SqlClient>(SqlClient).query<{ type: string }>(
    `SELECT type FROM outbox_events WHERE merchant_id = $1 AND object_type IN ('settlement', 'settlement_account') ${objectId ? 'AND object_id = $2' : ''} ORDER BY created_at, version`,
    objectId ? [merchantId, objectId] : [merchantId],
  );
  return rows.map((row) => row.type);
}

const sum = (entries: Json[]) => Math.round(entries.reduce((total, entry) => total + (entry.amount as number) * 100, 0)) / 100;

function settlementSuite(name: string, start: (env: Record<string, string>, options: { overrides: { storeClock: () => number }; startJobs: false }) => Promise<TestApp>) {
  describe(`settlements on ${name}`, () => {
    const clock = new TestClock();
    let api: TestApp;
    let a: ReturnType<typeof merchantOf>;
    beforeAll(async () => {
      api = await start(
        { MERCHANTS_FILE: settlementMerchantsFile(), SETTLEMENT_DELAY_SECONDS: '86400', SETTLEMENT_RUN_HOUR_UTC: '0', SETTLEMENT_ACCOUNT_CHANGE_DELAY_SECONDS: '3600', SANDBOX_PAYOUT_DELAY_MS: '0', SETTLEMENT_DEFAULT_MINIMUM_AMOUNT: '100' },
        { overrides: { storeClock: clock.now }, startJobs: false },
      );
      a = merchantOf(api, MERCHANT_A);
    });
    afterEach(async () => expect(await checkLedger(api.app.get<SqlClient>(SqlClient))).toEqual([]));
    afterAll(() => api.close());

    it('settles a day of payins, a refund and a payout to the account, with exactly the entries it covered, once per run', async () => {
      expect((await a.call('GET', '/payment/api/settlement-account')).json).toEqual({ current: null, pending: null });
      // The first account waits its delay as any change does: a stolen key cannot name one and settle to it at once.
      const first = await a.call('PUT', '/payment/api/settlement-account', { enquiryId: await a.enquire() });
      expect(first.json).toMatchObject({ current: null, pending: { account: { bankCode: '058', accountNumber: makeNuban('058', '012345678') } } });
      expect((await a.call('POST', '/payment/api/settlements', { reference: unique('stl'), currency: 'NGN' })).json.code).toBe('SETTLEMENT_ACCOUNT_NOT_SET');
      clock.advance(HOUR_MS);
      await runJob(api, 'settlement-run');
      expect((await a.call('GET', '/payment/api/settlement-account')).json).toMatchObject({ current: { account: { accountNumber: makeNuban('058', '012345678') } }, pending: null });
      expect(await eventTypes(api, MERCHANT_A.merchantId)).toEqual(['settlement_account.changed', 'settlement_account.changed']);

      const payins = [await a.paid(10_000), await a.paid(5_000)];
      clock.advance(DAY_MS + 1000);
      await runJob(api, 'settlement');
      // 10,000 + 5,000 less 1.5 %: 14,775 available; then a refund and a payout spend from it.
      expect((await a.call('POST', '/payment/api/refunds', { reference: unique('rf'), payinReference: payins[0], amount: 1000 })).status).toBe(201);
      const payout = await a.call('POST', '/payment/api/payouts', { reference: unique('po'), amount: 2000, currency: 'NGN', enquiryId: await a.enquire(ACCOUNTS.chinedu), narration: 'Supplier' });
      expect(payout.status).toBe(201);
      await runJob(api, 'refund-dispatch');
      await runJob(api, 'payout-dispatch');
      const { available } = await a.balance();
      expect(available).toBeGreaterThan(0);

      await runJob(api, 'settlement-run');
      const listed = (await a.call('GET', '/payment/api/settlements')).json.data as Json[];
      expect(listed).toHaveLength(1);
      const settlement = listed[0] as Json;
      const id = settlement.id as string;
      expect(settlement).toMatchObject({ status: 'PENDING', amount: available, currency: 'NGN', trigger: 'schedule', narration: `Paysign settlement ${id}`, account: { accountNumber: makeNuban('058', '012345678') } });
      expect(await a.balance()).toMatchObject({ available: 0 });

      // Exactly what it covered: each payin's net settling, the refund's and the payout's holds; they sum to its amount.
      const entries = await a.entries(id);
      expect(sum(entries)).toBe(available);
      expect(entries.map((entry) => entry.type).sort()).toEqual(['payout_hold', 'refund_hold', 'settlement', 'settlement']);
      expect(entries.every((entry) => entry.balance === 'available')).toBe(true);

      // A settlement is not a payout of the merchant's.
      expect((await a.call('GET', `/payment/api/payouts/${id}`)).json.code).toBe('PAYOUT_NOT_FOUND');
      expect(((await a.call('GET', '/payment/api/payouts')).json.data as Json[]).map((p) => p.reference)).not.toContain(id);

      await runJob(api, 'payout-dispatch');
      await runJob(api, 'payout-status-check');
      expect(await a.settlement(id)).toMatchObject({ status: 'PAID', provider: 'sandbox', providerReference: expect.stringMatching(/^PSX-/), completedAt: expect.any(String) });
      // The reports: the settlement in settlements.csv with its narration, never in payouts.csv.
      const window = `from=${new Date(clock.now() - 7 * DAY_MS).toISOString()}&to=${new Date(clock.now() + DAY_MS).toISOString()}`;
      const settlementsCsv = String((await a.call('GET', `/payment/api/reports/settlements.csv?${window}`)).body).split('\r\n');
      expect(settlementsCsv[0]).toBe('id,status,amount,currency,trigger,bankCode,accountNumber,accountName,narration,providerReference,createdAt,completedAt,reversedAt,failureReason,cursor');
      expect(settlementsCsv[1]).toMatch(new RegExp(`^${id},PAID,${(available as number).toFixed(2)},NGN,schedule,058,${makeNuban('058', '012345678')},ADAEZE NWOSU,Paysign settlement ${id},PSX-`));
      expect(String((await a.call('GET', `/payment/api/reports/payouts.csv?${window}`)).body)).not.toContain(id);
      const held = ((await a.call('GET', '/payment/api/balance/entries?limit=1')).json.data as Json[])[0];
      expect(held).toMatchObject({ type: 'payout_debit', objectType: 'settlement', reference: id, balance: 'held' });

      // More money the same day waits for the next run: one settlement per merchant, currency and run.
      await a.paid(1_000);
      clock.advance(DAY_MS / 4);
      await runJob(api, 'settlement');
      await runJob(api, 'settlement-run');
      expect((await a.call('GET', '/payment/api/settlements')).json.data).toHaveLength(1);
      expect(await eventTypes(api, MERCHANT_A.merchantId, id)).toEqual(['settlement.created', 'settlement.paid']);

      // ledger:check holds it to what it covered: a settlement whose amount is not its entries' sum is found.
      const client = api.app.get<SqlClient>(SqlClient);
      await client.query('UPDATE settlements SET amount_minor = amount_minor + 1 WHERE id = $1', [id]);
      expect((await checkLedger(client)).map((problem) => problem.invariant)).toEqual([expect.stringMatching(/^every settlement covered entries of available that sum to its amount/)]);
      await client.query('UPDATE settlements SET amount_minor = amount_minor - 1 WHERE id = $1', [id]);
    });

    it('holds a change of account for its delay, announced, and lets it be cancelled meanwhile', async () => {
      const before = (await a.call('GET', '/payment/api/settlement-account')).json;
      const changed = await a.call('PUT', '/payment/api/settlement-account', { enquiryId: await a.enquire(ACCOUNTS.bolanle) });
      expect(changed.json).toMatchObject({ current: before.current, pending: { account: { accountNumber: makeNuban('057', '100000001') } } });
      const pending = changed.json.pending as Json;
      expect(Date.parse(pending.effectiveAt as string) - Date.parse(pending.requestedAt as string)).toBe(HOUR_MS);
      const cancelled = await a.call('POST', '/payment/api/settlement-account/cancel', {});
      expect(cancelled.json).toEqual({ current: before.current, pending: null });
      expect((await a.call('POST', '/payment/api/settlement-account/cancel', {})).json.code).toBe('SETTLEMENT_ACCOUNT_CHANGE_NOT_PENDING');

      await a.call('PUT', '/payment/api/settlement-account', { enquiryId: await a.enquire(ACCOUNTS.musa) });
      clock.advance(HOUR_MS - 1000);
      await runJob(api, 'settlement-run');
      expect((await a.call('GET', '/payment/api/settlement-account')).json).toMatchObject({ current: before.current });
      clock.advance(2000);
      await runJob(api, 'settlement-run');
      expect((await a.call('GET', '/payment/api/settlement-account')).json).toMatchObject({ current: { account: { accountNumber: makeNuban('033', '204060801') } }, pending: null });
      expect((await eventTypes(api, MERCHANT_A.merchantId)).filter((type) => type === 'settlement_account.changed')).toHaveLength(6);
      const { rows } = await api.app.get<SqlClient>(SqlClient).query<{ payload: string }>(
        "SELECT payload FROM outbox_events WHERE merchant_id = $1 AND object_type = 'settlement_account' ORDER BY version",
        [MERCHANT_A.merchantId],
      );
      expect(rows.map((row) => (JSON.parse(row.payload) as { data: { phase: string } }).data.phase)).toEqual(['requested', 'in_force', 'requested', 'cancelled', 'requested', 'in_force']);
    });

    it('gives a failed settlement its money back and pauses the schedule until it is set again; refuses what it must', async () => {
      // The sandbox cannot find this documented account at dispatch: the transfer fails.
      await a.call('PUT', '/payment/api/settlement-account', { enquiryId: await a.enquire(ACCOUNTS.failing) });
      clock.advance(HOUR_MS + 1000);
      await runJob(api, 'settlement-run');
      await a.paid(3_000);
      clock.advance(DAY_MS + 1000);
      await runJob(api, 'settlement');
      const { available } = await a.balance();
      const request = { reference: unique('early'), currency: 'NGN' };
      const created = await a.call('POST', '/payment/api/settlements', request);
      expect(created.status).toBe(201);
      expect(created.json).toMatchObject({ status: 'PENDING', trigger: 'manual', amount: available });
      const id = created.json.id as string;
      // The same reference again is the same settlement, never a second.
      const replayed = await a.call('POST', '/payment/api/settlements', request);
      expect([replayed.status, replayed.headers.get('idempotent-replayed'), replayed.json.id]).toEqual([200, 'true', id]);
      await runJob(api, 'payout-dispatch');
      expect(await a.settlement(id)).toMatchObject({ status: 'FAILED', failureReason: 'account_not_found' });
      expect(await a.balance()).toMatchObject({ available });
      expect((await a.call('GET', '/payment/api/settlement-schedule')).json).toMatchObject({ paused: true, pausedBy: id, nextRunAt: null });
      expect((await a.call('POST', '/payment/api/settlements', { reference: unique('stl'), currency: 'NGN' })).json.code).toBe('SETTLEMENTS_PAUSED');
      clock.advance(DAY_MS);
      await runJob(api, 'settlement-run');
      expect(await a.balance()).toMatchObject({ available });
      expect(await eventTypes(api, MERCHANT_A.merchantId, id)).toEqual(['settlement.created', 'settlement.failed']);

      const set = await a.call('PUT', '/payment/api/settlement-schedule', { interval: 'weekly', minimumAmount: 500.5, weekday: 'friday' });
      expect(set.json).toMatchObject({ interval: 'weekly', minimumAmount: 500.5, weekday: 'friday', runHourUtc: 0, paused: false, pausedBy: null, nextRunAt: expect.any(String) });
      expect(new Date(set.json.nextRunAt as string).getUTCDay()).toBe(5);

      expect((await a.call('PUT', '/payment/api/settlement-schedule', { interval: 'daily', minimumAmount: 1, weekday: 'monday' })).json.details).toEqual([expect.objectContaining({ field: 'weekday', code: 'not_allowed' })]);
      expect((await a.call('PUT', '/payment/api/settlement-schedule', { interval: 'weekly', minimumAmount: 1.005 })).status).toBe(400);
      expect((await a.call('POST', '/payment/api/settlements', { reference: unique('stl'), currency: 'USD' })).status).toBe(400);
      expect((await a.call('POST', '/payment/api/settlements', { currency: 'NGN' })).status).toBe(400);
      expect((await a.call('GET', '/payment/api/settlements/stl_nope')).status).toBe(400);
      expect((await a.call('GET', '/payment/api/settlements/stl_0000000000000000000000')).json.code).toBe('SETTLEMENT_NOT_FOUND');
      const b = merchantOf(api, MERCHANT_B);
      expect((await b.call('PUT', '/payment/api/settlement-account', { enquiryId: await b.enquire() })).json.code).toBe('ROLE_REQUIRED');
      expect((await b.call('GET', `/payment/api/settlements/${id}`)).json.code).toBe('SETTLEMENT_NOT_FOUND');
      expect((await a.call('PUT', '/payment/api/settlement-schedule', { interval: 'manual', minimumAmount: 0 })).json).toMatchObject({ interval: 'manual', weekday: null, nextRunAt: null });
    });

    it('pauses nothing for a settlement that fails after its account was replaced', async () => {
      // Made to the failing account still in force, then the account is replaced before the transfer is sent.
      await a.paid(2_000);
      clock.advance(DAY_MS + 1000);
      await runJob(api, 'settlement');
      const made = await a.call('POST', '/payment/api/settlements', { reference: unique('early'), currency: 'NGN' });
      expect(made.json).toMatchObject({ status: 'PENDING', account: { accountNumber: makeNuban(...ACCOUNTS.failing) } });
      await a.call('PUT', '/payment/api/settlement-account', { enquiryId: await a.enquire(ACCOUNTS.ada) });
      clock.advance(HOUR_MS + 1000);
      await runJob(api, 'settlement-run');
      await runJob(api, 'payout-dispatch');
      expect(await a.settlement(made.json.id as string)).toMatchObject({ status: 'FAILED' });
      expect((await a.call('GET', '/payment/api/settlement-schedule')).json).toMatchObject({ paused: false, pausedBy: null });
    });
  });
}

settlementSuite('PostgreSQL', (env, options) => startTestApp(env, options));
settlementSuite('PGlite', (env, options) => startEmbeddedTestApp(env, options));

describe('settlements where the deployment does not settle yet', () => {
  let api: TestApp;
  beforeAll(async () => {
    api = await startTestApp({ MERCHANTS_FILE: settlementMerchantsFile(), SETTLEMENTS_ENABLED: 'false', SETTLEMENT_RUN_HOUR_UTC: '0', SETTLEMENT_DEFAULT_MINIMUM_AMOUNT: '0' }, { startJobs: false });
  });
  afterAll(() => api.close());

  it('keeps the account and schedule, and settles nothing: no run, and POST answers SETTLEMENTS_NOT_ENABLED', async () => {
    const a = merchantOf(api, MERCHANT_A);
    expect((await a.call('PUT', '/payment/api/settlement-account', { enquiryId: await a.enquire() })).json).toMatchObject({ current: { account: { accountName: 'ADAEZE NWOSU' } } });
    await a.paid(2_000);
    await runJob(api, 'settlement-run');
    expect((await a.call('GET', '/payment/api/settlements')).json.data).toEqual([]);
    expect((await a.call('GET', '/payment/api/settlement-schedule')).json).toMatchObject({ paused: false, nextRunAt: null });
    const refused = await a.call('POST', '/payment/api/settlements', { reference: unique('stl'), currency: 'NGN' });
    expect([refused.status, refused.json.code]).toEqual([422, 'SETTLEMENTS_NOT_ENABLED']);
  });
});

describeWithStore('PostgreSQL', DATABASE_URL, 'the schedule run by two instances at once', () => {
  let database: { url: string; drop: () => Promise<void> };
  let instances: TestApp[];
  beforeAll(async () => {
    database = await createPrivateDatabase('paysign_settlement_race');
    const env = { DATABASE_URL: database.url, MERCHANTS_FILE: settlementMerchantsFile(), SETTLEMENT_RUN_HOUR_UTC: '0', SETTLEMENT_DEFAULT_MINIMUM_AMOUNT: '100' };
    instances = [await startTestApp(env, { startJobs: false }), await startTestApp(env, { startJobs: false })];
  });
  afterAll(async () => {
    for (const instance of instances) await instance.close();
    await database.drop();
  });

  it('makes one settlement of the whole balance, none while the merchant is suspended, and the ledger holds', async () => {
    const [one, two] = instances as [TestApp, TestApp];
    const a = merchantOf(one, MERCHANT_A);
    await a.call('PUT', '/payment/api/settlement-account', { enquiryId: await a.enquire() });
    await a.paid(10_000);
    const { available } = await a.balance();
    // A merchant the operator suspended is settled by no run until reinstated.
    const client = one.app.get<SqlClient>(SqlClient);
    await client.query("UPDATE merchants SET status = 'suspended' WHERE merchant_id = $1", [MERCHANT_A.merchantId]);
    await one.app.get(JobRunner).runNow('settlement-run');
    await client.query("UPDATE merchants SET status = 'active' WHERE merchant_id = $1", [MERCHANT_A.merchantId]);
    expect((await a.call('GET', '/payment/api/settlements')).json.data).toEqual([]);
    await Promise.all([one.app.get(JobRunner).runNow('settlement-run'), two.app.get(JobRunner).runNow('settlement-run'), one.app.get(JobRunner).runNow('settlement-run'), two.app.get(JobRunner).runNow('settlement-run')]);
    const listed = (await a.call('GET', '/payment/api/settlements')).json.data as Json[];
    expect(listed.map((s) => [s.amount, s.trigger])).toEqual([[available, 'schedule']]);
    expect(await checkLedger(one.app.get<SqlClient>(SqlClient))).toEqual([]);
  });
});
