// The payin lifecycle over real HTTP on both payin stores: creation with a
// checkout link, every transition through the sandbox simulation, refused
// transitions, races, expiry, listing and merchant isolation.
import { randomUUID } from 'node:crypto';
import { Pool } from 'pg';
import { signedCall, type ApiResponse } from './support/api-client';
import { CARD, DECLINED_CARD, browser } from './support/checkout-browser';
import { MERCHANT_A, MERCHANT_B, type TestCredential } from './support/credentials';
import { DATABASE_URL, describeInProduction, describeWithStore } from './support/stores';
import { appsOnPrivateDatabases, startEmbeddedTestApp, startProductionTestApp, startTestApp, type TestApp } from './support/test-app';
import { TestClock } from './support/test-clock';
import type { CreateAppOptions } from '../src/app.factory';
import { JobRunner } from '../src/jobs/job-runner';

const PAYINS = '/payment/api/payins';
const reference = (label: string) => `${label}-${randomUUID().slice(0, 8)}`;
const payinBody = (ref: string, extra: Record<string, unknown> = {}) => JSON.stringify({ amount: 1500.5, currency: 'NGN', customerEmail: 'ada@example.com', reference: ref, ...extra });

async function create(api: TestApp, ref: string, extra: Record<string, unknown> = {}, credential: TestCredential = MERCHANT_A): Promise<ApiResponse> {
  const response = await signedCall(api.baseUrl, { path: PAYINS, body: payinBody(ref, extra), credential });
  if (response.status !== 201 && response.status !== 200) throw new Error(`create answered ${response.status}: ${JSON.stringify(response.json)}`);
  return response;
}

const simulate = (api: TestApp, ref: string, body: Record<string, unknown>, credential: TestCredential = MERCHANT_A) =>
  signedCall(api.baseUrl, { path: `${PAYINS}/${ref}/simulate`, body: JSON.stringify(body), credential });
const read = (api: TestApp, ref: string, credential: TestCredential = MERCHANT_A) => signedCall(api.baseUrl, { path: `${PAYINS}/${ref}`, credential });
const list = (api: TestApp, query: string, credential: TestCredential = MERCHANT_A) => signedCall(api.baseUrl, { path: `${PAYINS}${query}`, credential });

function lifecycleSuite(start: (env?: Record<string, string>, options?: CreateAppOptions) => Promise<TestApp>) {
  let api: TestApp;
  beforeAll(async () => {
    api = await start();
  });
  afterAll(() => api.close());

  describe('create', () => {
    it('returns a checkout link with an unguessable token and the expiry, and the same link on replay and read', async () => {
      const ref = reference('link');
      const created = await create(api, ref, { redirectUrl: 'https://merchant.example.com/done' });
      expect(created.status).toBe(201);
      const { checkoutUrl, createdAt, expiresAt } = created.json as { checkoutUrl: string; createdAt: string; expiresAt: string };
      expect(checkoutUrl).toMatch(new RegExp(`^${api.baseUrl}/payment/checkout/[A-Za-z0-9_-]{43}$`));
      expect(checkoutUrl).not.toContain(ref);
      expect(Date.parse(expiresAt) - Date.parse(createdAt)).toBe(api.config.payinExpirySeconds * 1000);
      expect(created.json).toMatchObject({ status: 'PENDING', paidAt: null, failedAt: null, failureReason: null });

      const replayed = await create(api, ref, { redirectUrl: 'https://merchant.example.com/done' });
      expect(replayed.status).toBe(200);
      expect(replayed.json).toEqual(created.json);
      expect((await read(api, ref)).json).toEqual(created.json);
    });

    it('gives every payin its own token', async () => {
      const urls = await Promise.all([1, 2, 3].map(async (i) => (await create(api, reference(`own-${i}`))).json.checkoutUrl));
      expect(new Set(urls).size).toBe(3);
    });

    it('links checkouts on the address the service is bound to, read once, not per link', async () => {
      await create(api, reference('bound'));
      const server = api.app.getHttpServer();
      const addressRead = jest.spyOn(server, 'address');
      try {
        const urls = await Promise.all([1, 2].map(async (i) => (await create(api, reference(`bound-${i}`))).json.checkoutUrl as string));
        for (const url of urls) expect(url.startsWith(`${api.baseUrl}/payment/checkout/`)).toBe(true);
        expect(addressRead).not.toHaveBeenCalled();
      } finally {
        addressRead.mockRestore();
      }
    });

    it('refuses a gateway outside the documented channels, listing them', async () => {
      const response = await signedCall(api.baseUrl, { path: PAYINS, body: payinBody(reference('gw'), { gateway: 'crypto' }), credential: MERCHANT_A });
      expect(response.status).toBe(400);
      expect(response.json.details).toEqual([{ field: 'gateway', code: 'enum', message: 'gateway must be one of card, bank_transfer, ussd; leave it out to offer every channel.' }]);
    });
  });

  describe('transitions through the sandbox simulation', () => {
    it.each([
      [{ outcome: 'successful' }, { status: 'SUCCESSFUL', failureReason: null, failedAt: null, paidAt: expect.any(String) }],
      [{ outcome: 'failed' }, { status: 'FAILED', failureReason: 'card_declined', paidAt: null, failedAt: expect.any(String) }],
      [{ outcome: 'failed', failureReason: 'insufficient_funds' }, { status: 'FAILED', failureReason: 'insufficient_funds', paidAt: null, failedAt: expect.any(String) }],
      [{ outcome: 'abandoned' }, { status: 'ABANDONED', failureReason: 'checkout_expired', paidAt: null, failedAt: expect.any(String) }],
      [{ outcome: 'cancelled' }, { status: 'CANCELLED', failureReason: 'customer_cancelled', paidAt: null, failedAt: expect.any(String) }],
    ])('%j moves PENDING to its final state, with no link left', async (body, expected) => {
      const ref = reference('sim');
      await create(api, ref);
      const moved = await simulate(api, ref, body);
      expect(moved.status).toBe(200);
      expect(moved.json).toMatchObject({ ...expected, checkoutUrl: null });
      expect((await read(api, ref)).json).toEqual(moved.json);
    });

    it('refuses every transition out of a final state with 409, changing nothing', async () => {
      const ref = reference('final');
      await create(api, ref);
      const paid = await simulate(api, ref, { outcome: 'successful' });
      for (const outcome of ['successful', 'failed', 'abandoned', 'cancelled']) {
        const refused = await simulate(api, ref, { outcome });
        expect(refused.status).toBe(409);
        expect(refused.json).toMatchObject({ code: 'PAYIN_NOT_PENDING', retryable: false, message: `Payin ${ref} is already SUCCESSFUL, a final state that does not change. Read the payin for its outcome.` });
      }
      expect((await read(api, ref)).json).toEqual(paid.json);
    });

    it('moves a payin exactly once when transitions race, and every loser gets 409', async () => {
      const ref = reference('race');
      await create(api, ref);
      const outcomes = ['successful', 'failed', 'cancelled', 'abandoned', 'successful', 'failed', 'successful', 'cancelled'];
      const answers = await Promise.all(outcomes.map((outcome) => simulate(api, ref, { outcome })));
      expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
      expect(answers.filter((a) => a.status === 409)).toHaveLength(outcomes.length - 1);
      const winner = answers.find((a) => a.status === 200);
      expect((await read(api, ref)).json.status).toBe(winner?.json.status);
    });

    it('refuses bad simulation bodies with field details', async () => {
      const ref = reference('badsim');
      await create(api, ref);
      const unknownOutcome = await simulate(api, ref, { outcome: 'refunded' });
      expect(unknownOutcome.status).toBe(400);
      expect(unknownOutcome.json.details).toEqual([expect.objectContaining({ field: 'outcome', code: 'enum' })]);
      const misplacedReason = await simulate(api, ref, { outcome: 'successful', failureReason: 'card_declined' });
      expect(misplacedReason.status).toBe(400);
      expect(misplacedReason.json.details).toEqual([{ field: 'failureReason', code: 'not_allowed', message: 'failureReason is allowed only with outcome failed or declined.' }]);
      expect((await read(api, ref)).json.status).toBe('PENDING');
    });

    it('answers 404 for a payin the merchant does not have', async () => {
      const response = await simulate(api, reference('none'), { outcome: 'successful' });
      expect(response.status).toBe(404);
      expect(response.json.code).toBe('PAYIN_NOT_FOUND');
    });
  });

  describe("the merchant's cancellation", () => {
    const cancel = (ref: string, body = '{}', credential: TestCredential = MERCHANT_A) => signedCall(api.baseUrl, { path: `${PAYINS}/${ref}/cancel`, body, credential });

    it('cancels a PENDING payin once, as merchant_cancelled with no link left, and never a final one', async () => {
      const ref = reference('mcancel');
      await create(api, ref);
      const cancelled = await cancel(ref);
      expect(cancelled.status).toBe(200);
      expect(cancelled.json).toMatchObject({ status: 'CANCELLED', failureReason: 'merchant_cancelled', checkoutUrl: null, failedAt: expect.any(String) });
      expect((await read(api, ref)).json).toEqual(cancelled.json);
      const again = await cancel(ref);
      expect(again.status).toBe(409);
      expect(again.json.code).toBe('PAYIN_NOT_PENDING');

      const paid = reference('mcancel-paid');
      await create(api, paid);
      await simulate(api, paid, { outcome: 'successful' });
      expect((await cancel(paid)).json).toMatchObject({ code: 'PAYIN_NOT_PENDING' });
      expect((await read(api, paid)).json.status).toBe('SUCCESSFUL');
    });

    it("refuses a body with fields, and another merchant's payin", async () => {
      const ref = reference('mcancel-bad');
      await create(api, ref);
      const withField = await cancel(ref, JSON.stringify({ reason: 'out of stock' }));
      expect(withField.status).toBe(400);
      expect(withField.json.details).toEqual([{ field: 'reason', code: 'unknown', message: 'reason is not a field of this operation, which takes none; send {}.' }]);
      expect((await cancel(ref, '{}', MERCHANT_B)).status).toBe(404);
      expect((await read(api, ref)).json.status).toBe('PENDING');
    });
  });

  describe('attempts', () => {
    type Attempt = { channel: string; outcome: string; declineReason: string | null; attemptedAt: string };

    it('records a declined attempt and keeps the payin PENDING, one version on, until the last decline allowed fails it', async () => {
      const ref = reference('declines');
      await create(api, ref, { gateway: 'card' });
      const first = await simulate(api, ref, { outcome: 'declined' });
      expect(first.status).toBe(200);
      expect(first.json).toMatchObject({ status: 'PENDING', failureReason: null, failedAt: null, checkoutUrl: expect.any(String) });
      expect(first.json.attempts).toEqual([{ channel: 'card', outcome: 'declined', declineReason: 'card_declined', attemptedAt: expect.any(String) }]);
      expect((await read(api, ref)).json).toEqual(first.json);
      const second = await simulate(api, ref, { outcome: 'declined', failureReason: 'insufficient_funds' });
      expect(second.json.status).toBe('PENDING');
      const third = await simulate(api, ref, { outcome: 'declined', failureReason: 'expired_card' });
      expect(third.json).toMatchObject({ status: 'FAILED', failureReason: 'too_many_attempts', checkoutUrl: null, failedAt: expect.any(String) });
      expect((third.json.attempts as Attempt[]).map((attempt) => attempt.declineReason)).toEqual(['card_declined', 'insufficient_funds', 'expired_card']);
      const refused = await simulate(api, ref, { outcome: 'declined' });
      expect(refused.status).toBe(409);
      expect((await read(api, ref)).json).toEqual(third.json);
    });

    it('takes concurrent attempts one at a time, in order: the last allowed fails the payin once, and the rest are refused', async () => {
      const ref = reference('attempt-race');
      await create(api, ref);
      const answers = await Promise.all(Array.from({ length: 6 }, () => simulate(api, ref, { outcome: 'declined' })));
      expect(answers.filter((answer) => answer.status === 200)).toHaveLength(api.config.payinMaxAttempts);
      expect(answers.filter((answer) => answer.status === 409)).toHaveLength(6 - api.config.payinMaxAttempts);
      const final = (await read(api, ref)).json;
      expect(final).toMatchObject({ status: 'FAILED', failureReason: 'too_many_attempts' });
      const times = (final.attempts as Attempt[]).map((attempt) => Date.parse(attempt.attemptedAt));
      expect(times).toEqual([...times].sort((a, b) => a - b));
      // Each accepted answer saw one more attempt than the one before it: none was lost or counted twice.
      const counts = answers.filter((answer) => answer.status === 200).map((answer) => (answer.json.attempts as Attempt[]).length);
      expect(counts.sort()).toEqual(Array.from({ length: api.config.payinMaxAttempts }, (_, i) => i + 1));
    });

    it('pays once when two tabs submit the checkout at once, recording attempts in order', async () => {
      const ref = reference('two-tabs');
      const { checkoutUrl } = (await create(api, ref, { redirectUrl: 'https://merchant.example.com/done' })).json as { checkoutUrl: string };
      const [tabOne, tabTwo] = [browser(), browser()];
      const [pageOne, pageTwo] = await Promise.all([tabOne.open(checkoutUrl), tabTwo.open(checkoutUrl)]);
      const answers = await Promise.all([
        tabOne.submit(checkoutUrl, { csrf: pageOne.csrf as string, action: 'pay_card', ...DECLINED_CARD }),
        tabTwo.submit(checkoutUrl, { csrf: pageTwo.csrf as string, action: 'pay_card', ...CARD }),
      ]);
      const final = (await read(api, ref)).json;
      expect(final.status).toBe('SUCCESSFUL');
      const outcomes = (final.attempts as Attempt[]).map((attempt) => attempt.outcome);
      // The decline counts only if it came first: after the payment, nothing more is recorded.
      expect([['succeeded'], ['declined', 'succeeded']]).toContainEqual(outcomes);
      for (const answer of answers) expect(answer.status).toBe(303);
      expect(answers.map((answer) => answer.headers.get('location'))).toContain(`https://merchant.example.com/done?reference=${ref}&status=SUCCESSFUL`);
    });

    it('sends payin.attempt_failed to a merchant that opted in, and to no other', async () => {
      const [optedIn, notOptedIn] = [reference('optin'), reference('no-optin')];
      await create(api, optedIn, { notifyUrl: 'https://merchant.example.com/hooks' }, MERCHANT_B);
      await create(api, notOptedIn, { notifyUrl: 'https://merchant.example.com/hooks' }, MERCHANT_A);
      await simulate(api, optedIn, { outcome: 'declined' }, MERCHANT_B);
      await simulate(api, notOptedIn, { outcome: 'declined' }, MERCHANT_A);
      const events = async (ref: string, credential: TestCredential) => (await signedCall(api.baseUrl, { path: `${PAYINS}/${ref}/events`, credential })).json.data as Array<Record<string, unknown>>;
      expect(await events(optedIn, MERCHANT_B)).toEqual([
        expect.objectContaining({ type: 'payin.attempt_failed', payload: expect.objectContaining({ type: 'payin.attempt_failed', version: 2, data: expect.objectContaining({ status: 'PENDING', attempts: [expect.objectContaining({ outcome: 'declined' })] }) }) }),
      ]);
      expect(await events(notOptedIn, MERCHANT_A)).toEqual([]);
      await simulate(api, notOptedIn, { outcome: 'successful' }, MERCHANT_A);
      expect((await events(notOptedIn, MERCHANT_A)).map((event) => event.type)).toEqual(['payin.successful']);
    });
  });

  describe('merchant isolation', () => {
    it("keeps one merchant's payins from another: read, simulate and list", async () => {
      const ref = reference('iso');
      await create(api, ref);
      expect((await read(api, ref, MERCHANT_B)).status).toBe(404);
      expect((await simulate(api, ref, { outcome: 'successful' }, MERCHANT_B)).status).toBe(404);
      const listed = await list(api, '?limit=100', MERCHANT_B);
      expect((listed.json.data as Array<{ merchantId: string }>).every((p) => p.merchantId === MERCHANT_B.merchantId)).toBe(true);
      expect((await read(api, ref)).json.status).toBe('PENDING');
    });
  });

  describe('listing', () => {
    // Payins of their own merchant-scoped window: created between `from` and `to`, whatever other tests create.
    let from: string;
    let to: string;
    let refs: string[];
    beforeAll(async () => {
      from = new Date().toISOString();
      refs = [];
      for (let i = 0; i < 7; i++) {
        const ref = reference(`list-${i}`);
        refs.push(ref);
        await create(api, ref);
      }
      await simulate(api, refs[2] as string, { outcome: 'successful' });
      await simulate(api, refs[4] as string, { outcome: 'successful' });
      await new Promise((resolve) => setTimeout(resolve, 5));
      to = new Date().toISOString();
    });

    it('lists newest first with a default page of 20', async () => {
      const page = await list(api, `?createdFrom=${from}&createdTo=${to}`);
      expect(page.status).toBe(200);
      expect((page.json.data as Array<{ reference: string }>).map((p) => p.reference)).toEqual([...refs].reverse());
      expect(page.json).toMatchObject({ hasMore: false, nextCursor: null });
    });

    it('filters by status', async () => {
      const page = await list(api, `?status=SUCCESSFUL&createdFrom=${from}&createdTo=${to}`);
      expect((page.json.data as Array<{ reference: string }>).map((p) => p.reference)).toEqual([refs[4], refs[2]]);
    });

    it('walks every page with the cursor, each payin once', async () => {
      const seen: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const page: ApiResponse = await list(api, `?limit=3&createdFrom=${from}&createdTo=${to}${cursor ? `&cursor=${cursor}` : ''}`);
        expect(page.status).toBe(200);
        seen.push(...(page.json.data as Array<{ reference: string }>).map((p) => p.reference));
        cursor = page.json.nextCursor as string | null;
        expect(page.json.hasMore).toBe(cursor !== null);
        pages++;
      } while (cursor);
      expect(pages).toBe(3);
      expect(seen).toEqual([...refs].reverse());
    });

    it('has no duplicates and no gaps when payins arrive while the pages are walked', async () => {
      const walkFrom = new Date().toISOString();
      const before: string[] = [];
      for (let i = 0; i < 12; i++) before.push((await create(api, reference(`walk-${i}`))).json.reference as string);
      let inserting = true;
      const arrivals = (async () => {
        for (let i = 0; inserting; i++) {
          await create(api, reference(`arrive-${i}`));
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
      })();
      const seen: string[] = [];
      let cursor: string | null = null;
      try {
        do {
          const page: ApiResponse = await list(api, `?limit=2&createdFrom=${walkFrom}${cursor ? `&cursor=${cursor}` : ''}`);
          seen.push(...(page.json.data as Array<{ reference: string }>).map((p) => p.reference));
          cursor = page.json.nextCursor as string | null;
          await new Promise((resolve) => setTimeout(resolve, 10));
        } while (cursor);
      } finally {
        inserting = false;
        await arrivals;
      }
      expect(new Set(seen).size).toBe(seen.length);
      for (const ref of before) expect(seen).toContain(ref);
    });

    it('refuses bad filters with field details', async () => {
      const bad = await list(api, '?status=PAID&limit=0&createdFrom=yesterday&colour=red');
      expect(bad.status).toBe(400);
      expect((bad.json.details as Array<{ field: string }>).map((d) => d.field).sort()).toEqual(['colour', 'createdFrom', 'limit', 'status']);
      expect((await list(api, '?limit=101')).status).toBe(400);
      expect((await list(api, '?status=PENDING&status=FAILED')).json.details).toEqual([{ field: 'status', code: 'repeated', message: 'status must be given at most once.' }]);
      expect((await list(api, '?createdFrom=2026-12-01T00:00:00Z&createdTo=2026-11-01T00:00:00Z')).status).toBe(400);
    });

    it('refuses a cursor it did not issue, or one issued for other filters', async () => {
      const forged = await list(api, `?cursor=${Buffer.from('[0,"x","y"]').toString('base64url')}`);
      expect(forged.status).toBe(400);
      expect(forged.json.details).toEqual([expect.objectContaining({ field: 'cursor' })]);
      const page = await list(api, `?limit=1&createdFrom=${from}&createdTo=${to}`);
      const other = await list(api, `?limit=1&status=SUCCESSFUL&cursor=${page.json.nextCursor as string}`);
      expect(other.status).toBe(400);
      expect(other.json.details).toEqual([expect.objectContaining({ field: 'cursor', message: expect.stringContaining('issued for other filters') })]);
    });
  });

  describe('expiry', () => {
    let short: TestApp;
    const clock = new TestClock();
    beforeAll(async () => {
      // The sweeper is slowed right down: what is tested here is that reads never wait for it.
      short = await start({ PAYIN_EXPIRY_SECONDS: '1', PAYIN_SWEEP_INTERVAL_MS: '3600000' }, { overrides: { clock: clock.now } });
    });
    afterAll(() => short.close());

    it('never returns PENDING past expiresAt: a read answers ABANDONED, and payment is refused', async () => {
      const ref = reference('exp');
      const created = await create(short, ref);
      clock.advance(1100);
      const later = await read(short, ref);
      expect(later.json).toMatchObject({ status: 'ABANDONED', failureReason: 'checkout_expired', failedAt: created.json.expiresAt, checkoutUrl: null });
      const pay = await simulate(short, ref, { outcome: 'successful' });
      expect(pay.status).toBe(409);
      expect(pay.json.message).toContain('already ABANDONED');
    });

    it('filters expired payins as ABANDONED in a listing', async () => {
      const from = new Date(clock.now()).toISOString();
      const ref = reference('exp-list');
      await create(short, ref);
      clock.advance(1100);
      expect((await list(short, `?status=PENDING&createdFrom=${from}`)).json.data).toEqual([]);
      expect(((await list(short, `?status=ABANDONED&createdFrom=${from}`)).json.data as Array<{ reference: string }>).map((p) => p.reference)).toEqual([ref]);
    });

    it('writes nothing on a read: the sweep makes the payin ABANDONED, once, with its one event', async () => {
      const ref = reference('exp-pure');
      await create(short, ref, { notifyUrl: 'https://merchant.example.com/hooks' });
      clock.advance(1100);
      const events = () => signedCall(short.baseUrl, { path: `${PAYINS}/${ref}/events`, credential: MERCHANT_A });
      for (let i = 0; i < 3; i++) expect((await read(short, ref)).json).toMatchObject({ status: 'ABANDONED' });
      expect((await events()).json.data).toEqual([]);
      await short.app.get(JobRunner).runNow('payin-expiry');
      const [event, ...more] = (await events()).json.data as Array<Record<string, unknown>>;
      expect(more).toEqual([]);
      expect(event).toMatchObject({ type: 'payin.abandoned', reference: ref, payload: { type: 'payin.abandoned', version: 2, data: { status: 'ABANDONED' } } });
      expect((await read(short, ref)).json).toMatchObject({ status: 'ABANDONED', failureReason: 'checkout_expired' });
    });
  });
}

describe('payin lifecycle on PGlite', () => {
  lifecycleSuite((env = {}, options = {}) => startEmbeddedTestApp(env, options));
});

describeWithStore('PostgreSQL', DATABASE_URL, 'payin lifecycle on PostgreSQL', () => {
  const postgres = appsOnPrivateDatabases();
  lifecycleSuite((env, options) => postgres.start(env, options));
  // Declared after the suite's own hooks, so it runs after them: the apps close before their databases are dropped.
  afterAll(() => postgres.dropAll());

  it('abandons expired payins through the sweeper, with two instances sharing the database', async () => {
    const databaseUrl = await postgres.database();
    const settings = { DATABASE_URL: databaseUrl, PAYIN_EXPIRY_SECONDS: '1', PAYIN_SWEEP_INTERVAL_MS: '200', PAYIN_SWEEP_BATCH_SIZE: '3' };
    const first = await startTestApp(settings);
    const second = await startTestApp(settings);
    const pool = new Pool({ connectionString: databaseUrl });
    // The suite drops the database WITH (FORCE): a connection the pool is still closing is ended by the server, which is no failure.
    pool.on('error', () => undefined);
    try {
      const refs = await Promise.all(Array.from({ length: 20 }, (_, i) => create(i % 2 ? first : second, reference(`sweep-${i}`)).then((r) => r.json.reference as string)));
      // No read in between: only the sweepers can move them.
      const deadline = Date.now() + 10_000;
      let rows: Array<{ status: string; failed_at: Date; expires_at: Date; failure_reason: string }> = [];
      do {
        await new Promise((resolve) => setTimeout(resolve, 250));
        rows = (await pool.query('SELECT status, failed_at, expires_at, failure_reason FROM payins WHERE reference = ANY($1)', [refs])).rows;
      } while (rows.some((row) => row.status === 'PENDING') && Date.now() < deadline);
      expect(rows).toHaveLength(20);
      for (const row of rows) {
        expect(row).toMatchObject({ status: 'ABANDONED', failure_reason: 'checkout_expired' });
        expect(row.failed_at.getTime()).toBe(row.expires_at.getTime());
      }
      // Each sweep logs its total once its last batch is done, a moment after the rows changed.
      const swept = () => [...first.logs, ...second.logs].filter((line) => line.msg === 'abandoned payins that expired unpaid').reduce((sum, line) => sum + Number(line.abandoned), 0);
      for (const until = Date.now() + 5000; swept() < 20 && Date.now() < until; ) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(swept()).toBe(20);
    } finally {
      await pool.end();
      await first.close();
      await second.close();
    }
  });
});

describeInProduction('payins in production mode', () => {
  let api: TestApp;
  beforeAll(async () => {
    api = await startProductionTestApp();
  });
  afterAll(() => api.close());

  it('refuses a payin at create time with 422 while no gateway adapter is configured', async () => {
    for (const extra of [{ gateway: 'card' }, {}]) {
      const response = await signedCall(api.baseUrl, { path: PAYINS, body: payinBody(reference('prod'), extra), credential: MERCHANT_A });
      expect(response.status).toBe(422);
      expect(response.json).toMatchObject({ code: 'GATEWAY_NOT_CONFIGURED', retryable: false });
      expect(response.json.message).toContain('configured channels are none');
    }
  });

  it('has no simulation endpoint: 404 as for any unknown path', async () => {
    const response = await signedCall(api.baseUrl, { path: `${PAYINS}/any-ref/simulate`, body: '{"outcome":"successful"}', credential: MERCHANT_A });
    expect(response.status).toBe(404);
    expect(response.json.code).toBe('ROUTE_NOT_FOUND');
  });
});
