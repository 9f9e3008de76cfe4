// Webhook delivery over real HTTP to real receivers on loopback, on both payin
// stores: signatures checked with the standardwebhooks library, retries on
// schedule with one webhook-id, 410, timeouts and redirects, the events
// listing and redelivery, secret rotation, and the SSRF guard.
import { randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { signedCall } from './support/api-client';
import { MERCHANT_A, MERCHANT_B, WEBHOOK_SECRETS_A, WEBHOOK_SECRET_B, freshMerchants, type TestCredential } from './support/credentials';
import { DATABASE_URL, describeInProduction, describeWithStore } from './support/stores';
import { JobRunner } from '../src/jobs/job-runner';
import { SqlClient } from '../src/db/sql-client';
import type { CreateAppOptions } from '../src/app.factory';
import { TestClock } from './support/test-clock';
import { appsOnPrivateDatabases, startEmbeddedTestApp, startProductionTestApp, startTestApp, type TestApp } from './support/test-app';
import { WebhookReceiver } from './support/webhook-receiver';

const PAYINS = '/payment/api/payins';
const reference = (label: string) => `${label}-${randomUUID().slice(0, 8)}`;
// One receiver serves many tests that fail on purpose: its circuit must not open between them (the circuit has its own test).
const QUICK = { WEBHOOK_RETRY_SCHEDULE: '0,1,2', WEBHOOK_POLL_INTERVAL_MS: '50', WEBHOOK_TIMEOUT_MS: '1000', WEBHOOK_CIRCUIT_FAILURES: '1000' };

async function createPayin(api: TestApp, notifyUrl: string, credential: TestCredential = MERCHANT_A, ref = reference('wh')): Promise<string> {
  const created = await signedCall(api.baseUrl, { path: PAYINS, body: JSON.stringify({ amount: 1500.5, currency: 'NGN', customerEmail: 'ada@example.com', reference: ref, notifyUrl }), credential });
  if (created.status !== 201) throw new Error(`create answered ${created.status}: ${JSON.stringify(created.json)}`);
  return ref;
}
const simulate = (api: TestApp, ref: string, outcome: string, credential: TestCredential = MERCHANT_A) =>
  signedCall(api.baseUrl, { path: `${PAYINS}/${ref}/simulate`, body: JSON.stringify({ outcome }), credential });
const events = (api: TestApp, ref: string, credential: TestCredential = MERCHANT_A) => signedCall(api.baseUrl, { path: `${PAYINS}/${ref}/events`, credential });

async function eventuallyEvents(api: TestApp, ref: string, done: (list: Array<Record<string, unknown>>) => boolean): Promise<Array<Record<string, unknown>>> {
  for (const deadline = Date.now() + 10_000; ; await new Promise((r) => setTimeout(r, 50))) {
    const list = (await events(api, ref)).json.data as Array<Record<string, unknown>>;
    if (done(list) || Date.now() > deadline) return list;
  }
}

function deliverySuite(start: (env: Record<string, string>, options?: CreateAppOptions) => Promise<TestApp>) {
  let api: TestApp;
  let receiver: WebhookReceiver;
  // A second app for the tests about the schedule: its clock moves only when a test moves it, and its deliveries
  // are claimed only when a test runs the job, so that what is due when is asserted, never waited for.
  const clock = new TestClock();
  let timed: TestApp;
  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    api = await start(QUICK);
    // 5 s to answer, not QUICK's 1 s: on a busy machine a receiver answering at once may take over a second, and its answer would be lost to the timeout.
    timed = await start({ ...QUICK, WEBHOOK_TIMEOUT_MS: '5000', WEBHOOK_POLL_INTERVAL_MS: '60000' }, { overrides: { clock: clock.now } });
    // Two apps boot here, each migrating its own embedded database on PGlite: on a busy machine that has taken over 30 s together.
  }, 120_000);
  afterAll(async () => {
    await api.close();
    await timed.close();
    await receiver.close();
  });
  /** Runs one claim of the timed app, and resolves the payin's event once `attempts` attempts are recorded. */
  async function claimUntilRecorded(ref: string, attempts: number): Promise<{ status: string; attempts: Array<Record<string, unknown>> }> {
    await timed.app.get(JobRunner).runNow('webhook-delivery');
    const [event] = await eventuallyEvents(timed, ref, (list) => ((list[0]?.attempts as unknown[] | undefined)?.length ?? 0) >= attempts);
    return event as { status: string; attempts: Array<Record<string, unknown>> };
  }
  /** Events of the timed app claimed and not yet recorded: a claim that took nothing leaves none. */
  const inFlight = async () => Number((await timed.app.get<SqlClient>(SqlClient).query<{ n: string }>('SELECT count(*) AS n FROM outbox_events WHERE locked_until IS NOT NULL')).rows[0]?.n);
  const delayMs = (attempt: Record<string, unknown> | undefined) => Date.parse(String(attempt?.nextAttemptAt)) - Date.parse(String(attempt?.startedAt));
  beforeEach(() => receiver.answer(() => ({ status: 200, body: 'ok' })));

  it.each([
    ['successful', 'payin.successful'],
    ['failed', 'payin.failed'],
    ['abandoned', 'payin.abandoned'],
    ['cancelled', 'payin.cancelled'],
  ])('notifies a payin that became %s, signed so that the standardwebhooks library verifies it with either secret', async (outcome, type) => {
    const ref = await createPayin(api, receiver.url);
    const final = await simulate(api, ref, outcome);
    const [delivery] = await receiver.waitFor(ref, 1);
    const body = JSON.parse(delivery?.body as string) as Record<string, unknown>;
    // Created at version 1, made final once: version 2, which a receiver compares to ignore a late older event.
    expect(body).toEqual({ type, version: 2, timestamp: (final.json.paidAt ?? final.json.failedAt) as string, data: final.json });
    expect(delivery?.headers['content-type']).toBe('application/json');
    expect(delivery?.headers['webhook-id']).toMatch(/^evt_[A-Za-z0-9_-]{22}$/);
    expect(Math.abs(Number(delivery?.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(5);
    // Rotation: one v1 signature per active secret, and each verifies on its own.
    const signatures = String(delivery?.headers['webhook-signature']).split(' ');
    expect(signatures).toHaveLength(2);
    for (const signature of signatures) expect(signature).toMatch(/^v1,[A-Za-z0-9+/]+={0,2}$/);
    for (const secret of WEBHOOK_SECRETS_A) {
      expect(new Webhook(secret).verify(delivery?.body as string, delivery?.headers as Record<string, string>)).toEqual(body);
    }
    expect(() => new Webhook(WEBHOOK_SECRET_B).verify(delivery?.body as string, delivery?.headers as Record<string, string>)).toThrow();
  });

  it('keeps the connection to a receiver open for the next attempt', async () => {
    const first = await createPayin(api, receiver.url);
    await simulate(api, first, 'successful');
    const [one] = await receiver.waitFor(first, 1);
    const second = await createPayin(api, receiver.url);
    await simulate(api, second, 'successful');
    const [two] = await receiver.waitFor(second, 1);
    expect(two?.connection).toBe(one?.connection);
    expect(two?.nthOnConnection).toBeGreaterThan(1);
  });

  it('sends again on a new connection when the receiver closed the kept one as it was reused, and records one delivered attempt', async () => {
    const warm = await createPayin(api, receiver.url);
    await simulate(api, warm, 'successful');
    await receiver.waitFor(warm, 1);
    const ref = await createPayin(api, receiver.url);
    // As a server whose idle timeout ends just as the connection is reused: closed, no answer.
    receiver.answer((delivery) => (delivery.nthOnConnection > 1 && delivery.body.includes(ref) ? 'drop' : { status: 200, body: 'ok' }));
    await simulate(api, ref, 'successful');
    const [dropped, resent] = await receiver.waitFor(ref, 2);
    expect(resent?.headers['webhook-id']).toBe(dropped?.headers['webhook-id']);
    expect(resent?.nthOnConnection).toBe(1);
    const [event] = await eventuallyEvents(api, ref, (list) => list[0]?.status === 'delivered');
    expect(event).toMatchObject({ status: 'delivered', attempts: [{ statusCode: 200, error: null }] });
  });

  it('retries a receiver that fails twice, with the same webhook-id and body, on schedule', async () => {
    receiver.answer((_delivery, nth) => (nth <= 2 ? { status: 500, body: 'temporarily broken' } : { status: 200, body: 'ok' }));
    const ref = await createPayin(timed, receiver.url);
    await simulate(timed, ref, 'successful');
    let event = await claimUntilRecorded(ref, 1);
    // Schedule 0,1,2 s, each retry up to 10 % later.
    const first = delayMs(event.attempts[0]);
    expect(first).toBeGreaterThanOrEqual(1000);
    expect(first).toBeLessThanOrEqual(1100);
    clock.advance(first - 1);
    await timed.app.get(JobRunner).runNow('webhook-delivery');
    expect(await inFlight()).toBe(0);
    clock.advance(1);
    event = await claimUntilRecorded(ref, 2);
    const second = delayMs(event.attempts[1]);
    expect(second).toBeGreaterThanOrEqual(2000);
    expect(second).toBeLessThanOrEqual(2200);
    clock.advance(second);
    event = await claimUntilRecorded(ref, 3);
    const deliveries = receiver.deliveriesOf(ref);
    expect(deliveries).toHaveLength(3);
    expect(new Set(deliveries.map((d) => d.headers['webhook-id'])).size).toBe(1);
    expect(new Set(deliveries.map((d) => d.body)).size).toBe(1);
    expect(event).toMatchObject({ status: 'delivered', nextAttemptAt: null });
    expect(event.attempts.map((a) => [a.attempt, a.statusCode, a.responseBody])).toEqual([
      [1, 500, 'temporarily broken'],
      [2, 500, 'temporarily broken'],
      [3, 200, 'ok'],
    ]);
  });

  it('waits as long as a Retry-After asks, when that is longer than the schedule', async () => {
    receiver.answer((_delivery, nth) => (nth === 1 ? { status: 503, headers: { 'retry-after': '3' } } : { status: 200 }));
    const ref = await createPayin(timed, receiver.url);
    await simulate(timed, ref, 'successful');
    const event = await claimUntilRecorded(ref, 1);
    // The schedule says 1 s; the receiver asked for 3.
    expect(delayMs(event.attempts[0])).toBe(3000);
    clock.advance(2999);
    await timed.app.get(JobRunner).runNow('webhook-delivery');
    expect(await inFlight()).toBe(0);
    clock.advance(1);
    expect(await claimUntilRecorded(ref, 2)).toMatchObject({ status: 'delivered' });
  });

  it('records an answer with a NUL byte in it: the event is delivered, not wedged', async () => {
    receiver.answer(() => ({ status: 200, body: 'ok\u0000then' }));
    const ref = await createPayin(api, receiver.url);
    await simulate(api, ref, 'successful');
    await receiver.waitFor(ref, 1);
    const [event] = await eventuallyEvents(api, ref, (list) => list[0]?.status === 'delivered');
    expect(event).toMatchObject({ status: 'delivered', attempts: [{ attempt: 1, statusCode: 200, responseBody: 'ok\uFFFDthen' }] });
    for (let claim = 0; claim < 3; claim++) await api.app.get(JobRunner).runNow('webhook-delivery');
    expect(receiver.deliveriesOf(ref)).toHaveLength(1);
  });

  it('stops retrying an event whose receiver answers 410 Gone', async () => {
    receiver.answer(() => ({ status: 410 }));
    const ref = await createPayin(api, receiver.url);
    await simulate(api, ref, 'successful');
    await receiver.waitFor(ref, 1);
    const [event] = await eventuallyEvents(api, ref, (list) => list[0]?.status === 'failed');
    expect(event).toMatchObject({ status: 'failed', nextAttemptAt: null });
    // Claims after it find nothing of it to send.
    for (let claim = 0; claim < 3; claim++) await api.app.get(JobRunner).runNow('webhook-delivery');
    expect(receiver.deliveriesOf(ref)).toHaveLength(1);
  });

  it('counts a timeout and a redirect as failures, and gives up when the schedule runs out', async () => {
    receiver.answer((_delivery, nth) => (nth === 1 ? 'hang' : nth === 2 ? { status: 302, headers: { location: 'http://127.0.0.1:9/elsewhere' } } : { status: 503 }));
    const ref = await createPayin(timed, receiver.url);
    await simulate(timed, ref, 'cancelled');
    let event = await claimUntilRecorded(ref, 1);
    clock.advance(delayMs(event.attempts[0]));
    event = await claimUntilRecorded(ref, 2);
    clock.advance(delayMs(event.attempts[1]));
    event = await claimUntilRecorded(ref, 3);
    expect(event.attempts.map((a) => [a.statusCode, a.error])).toEqual([
      [null, 'no answer within 5000 ms'],
      [302, null],
      [503, null],
    ]);
    expect(event.attempts[0]?.durationMs).toBeGreaterThanOrEqual(4950);
    expect(event).toMatchObject({ status: 'failed', nextAttemptAt: null });
    // The schedule has ended: a minute on, nothing is claimed (the signatures of later calls stay within the skew allowed).
    clock.advance(60_000);
    await timed.app.get(JobRunner).runNow('webhook-delivery');
    expect(await inFlight()).toBe(0);
    expect(receiver.deliveriesOf(ref)).toHaveLength(3);
  });

  it('lists a payin’s events with their payload, and redelivers one with the same webhook-id', async () => {
    const ref = await createPayin(api, receiver.url);
    await simulate(api, ref, 'successful');
    const [first] = await receiver.waitFor(ref, 1);
    const [event] = await eventuallyEvents(api, ref, (list) => list[0]?.status === 'delivered');
    expect(event).toMatchObject({ id: first?.headers['webhook-id'], type: 'payin.successful', reference: ref, notifyUrl: receiver.url, payload: JSON.parse(first?.body as string) });

    const redelivered = await signedCall(api.baseUrl, { path: `/payment/api/events/${event?.id as string}/redeliver`, body: '{}', credential: MERCHANT_A });
    expect(redelivered.status).toBe(202);
    expect(redelivered.json).toMatchObject({ id: event?.id, status: 'pending' });
    const [, again] = await receiver.waitFor(ref, 2);
    expect(again?.headers['webhook-id']).toBe(first?.headers['webhook-id']);
    expect(again?.body).toBe(first?.body);
    // Signed afresh for the attempt's own time.
    expect(Number(again?.headers['webhook-timestamp'])).toBeGreaterThanOrEqual(Number(first?.headers['webhook-timestamp']));
    const [after] = await eventuallyEvents(api, ref, (list) => list[0]?.status === 'delivered' && (list[0]?.attempts as unknown[]).length === 2);
    expect((after?.attempts as Array<Record<string, unknown>>).map((a) => [a.attempt, a.statusCode])).toEqual([
      [1, 200],
      [2, 200],
    ]);
  });

  it("keeps each merchant's events to itself", async () => {
    const ref = await createPayin(api, receiver.url);
    await simulate(api, ref, 'successful');
    const [event] = await eventuallyEvents(api, ref, (list) => list.length === 1);
    expect((await events(api, ref, MERCHANT_B)).status).toBe(404);
    const other = await signedCall(api.baseUrl, { path: `/payment/api/events/${event?.id as string}/redeliver`, body: '{}', credential: MERCHANT_B });
    expect(other.status).toBe(404);
    expect(other.json.code).toBe('EVENT_NOT_FOUND');
  });

  it('shows in the metrics how long the oldest due event has waited for a claim, and 0 once it is delivered', async () => {
    const lag = async () => /^paysign_webhook_queue_lag_seconds (\S+)$/m.exec(await (await fetch(`${timed.baseUrl}/payment/metrics`)).text())?.[1];
    const ref = await createPayin(timed, receiver.url);
    await simulate(timed, ref, 'successful');
    // Due at once, and claimed only when the test runs the job: it waits exactly as long as the clock is moved.
    clock.advance(30_000);
    expect(await lag()).toBe('30');
    expect(await claimUntilRecorded(ref, 1)).toMatchObject({ status: 'delivered' });
    expect(await lag()).toBe('0');
  });

  it('shows the queue depth and the delivery outcomes in the metrics', async () => {
    const metric = async (line: RegExp) => Number(line.exec(await (await fetch(`${api.baseUrl}/payment/metrics`)).text())?.[1] ?? Number.NaN);
    const deliveredBefore = await metric(/^paysign_webhook_deliveries_total\{outcome="delivered"\} (\d+)$/m);
    receiver.answer(() => 'hang');
    const ref = await createPayin(api, receiver.url);
    await simulate(api, ref, 'successful');
    await receiver.waitFor(ref, 1);
    expect(await metric(/^paysign_webhook_queue_depth (\d+)$/m)).toBeGreaterThanOrEqual(1);
    receiver.answer(() => ({ status: 200 }));
    await eventuallyEvents(api, ref, (list) => list[0]?.status === 'delivered');
    // Other events of this suite may be delivered meanwhile: at least this one more.
    expect(await metric(/^paysign_webhook_deliveries_total\{outcome="delivered"\} (\d+)$/m)).toBeGreaterThanOrEqual((Number.isNaN(deliveredBefore) ? 0 : deliveredBefore) + 1);
    expect(await metric(/^paysign_webhook_deliveries_total\{outcome="retry"\} (\d+)$/m)).toBeGreaterThanOrEqual(1);
  });

  it('sends nothing for a payin without notifyUrl, and lists no events for it', async () => {
    const ref = reference('silent');
    await signedCall(api.baseUrl, { path: PAYINS, body: JSON.stringify({ amount: 5, currency: 'NGN', customerEmail: 'ada@example.com', reference: ref }), credential: MERCHANT_A });
    await simulate(api, ref, 'successful');
    expect((await events(api, ref)).json.data).toEqual([]);
  });
}

describe('webhooks on PGlite', () => {
  deliverySuite((env, options) => startEmbeddedTestApp(env, options));
});

describeWithStore('PostgreSQL', DATABASE_URL, 'webhooks on PostgreSQL', () => {
  const postgres = appsOnPrivateDatabases();
  deliverySuite((env, options) => postgres.start(env, options));
  // Declared after the suite's own hooks, so it runs after them: the apps close before their databases are dropped.
  afterAll(() => postgres.dropAll());

  it('delivers every event once, and none twice, with two instances sharing the database', async () => {
    const databaseUrl = await postgres.database();
    const receiver = await WebhookReceiver.start();
    // The default 15 s timeout: with QUICK's 1 s, a busy test machine may answer late, the attempt counts as failed
    // and is rightly sent again (at least once), which is not what this test is about.
    // One event per claim (WEBHOOK_RECEIVER_BATCH=1): the two instances race for every event, which is what "none twice" is about. With
    // batches, one merchant's events to one receiver go a batch at a time, and one instance may rightly take every batch.
    const settings = { DATABASE_URL: databaseUrl, ...QUICK, WEBHOOK_TIMEOUT_MS: '15000', WEBHOOK_POLL_INTERVAL_MS: '20', WEBHOOK_RECEIVER_BATCH: '1', RATE_LIMIT_PER_KEY_PER_SECOND: '10000', RATE_LIMIT_PER_KEY_BURST: '10000' };
    const first = await startTestApp(settings);
    const second = await startTestApp(settings);
    try {
      const outcomes = ['successful', 'failed', 'cancelled', 'abandoned'];
      const refs: string[] = [];
      for (let batch = 0; batch < 10; batch++) {
        refs.push(...(await Promise.all(Array.from({ length: 20 }, (_, i) => createPayin(i % 2 ? first : second, receiver.url, MERCHANT_A, reference(`pair-${batch}-${i}`))))));
      }
      // As a merchant's client does, a retryable answer (a store or the machine too busy to answer in time) is sent again, not back
      // to back but once the store answers a query again; any other answer is a failure.
      const storeAnswers = (api: TestApp) => api.app.get<SqlClient>(SqlClient).query('SELECT 1').catch(() => undefined);
      const finalAnswer = async (api: TestApp, ref: string, outcome: string) => {
        for (let attempt = 1; ; attempt++) {
          const answer = await simulate(api, ref, outcome);
          if (answer.status === 200 || attempt === 8 || ![408, 429, 503].includes(answer.status)) return { ref, status: answer.status, body: answer.json };
          await storeAnswers(api);
        }
      };
      const answers = await Promise.all(refs.map((ref, i) => finalAnswer(i % 3 ? first : second, ref, outcomes[i % 4] as string)));
      expect(answers.filter((answer) => answer.status !== 200)).toEqual([]);
      // Waits for the deliveries, not for time: the bound only ends a wait that would never end, and a busy machine needs it wide.
      for (const deadline = Date.now() + 90_000; receiver.received.length < refs.length && Date.now() < deadline; ) await new Promise((r) => setTimeout(r, 50));
      await new Promise((r) => setTimeout(r, 500));
      const ids = receiver.received.map((d) => d.headers['webhook-id']);
      const byReference = new Map(refs.map((ref) => [ref, receiver.deliveriesOf(ref).length]));
      console.log(`two instances, ${refs.length} payins: ${receiver.received.length} deliveries, ${new Set(ids).size} distinct webhook-ids`);
      expect(refs).toHaveLength(200);
      expect([...byReference.values()].every((n) => n === 1)).toBe(true);
      expect(new Set(ids).size).toBe(200);
      const attemptsBy = (api: TestApp) => api.logs.filter((line) => line.msg === 'webhook attempt').length;
      expect(attemptsBy(first) + attemptsBy(second)).toBe(200);
      expect(attemptsBy(first)).toBeGreaterThan(0);
      expect(attemptsBy(second)).toBeGreaterThan(0);
    } finally {
      await first.close();
      await second.close();
      await receiver.close();
    }
  }, 150_000);

  it('keeps a lease for the instance that holds it, whatever another instance’s clock says: leases are judged by the database’s clock', async () => {
    const databaseUrl = await postgres.database();
    const receiver = await WebhookReceiver.start();
    receiver.answer(() => 'hang');
    // The first instance claims at once; the others claim only when the test says so.
    const holder = await startTestApp({ DATABASE_URL: databaseUrl, WEBHOOK_POLL_INTERVAL_MS: '20', WEBHOOK_TIMEOUT_MS: '15000' });
    const idle = { DATABASE_URL: databaseUrl, WEBHOOK_POLL_INTERVAL_MS: '60000', WEBHOOK_TIMEOUT_MS: '15000' };
    const thirtySecondsAhead = () => Date.now() + 30_000;
    const onDatabaseClock = await startTestApp(idle, { overrides: { clock: thirtySecondsAhead, storeClock: 'database' } });
    // What each instance did before: judge leases by its own clock. Its lease view runs 30 s ahead, past the 20 s lease.
    const onOwnClock = await startTestApp(idle, { overrides: { clock: thirtySecondsAhead, storeClock: thirtySecondsAhead } });
    try {
      const ref = await createPayin(holder, receiver.url);
      await simulate(holder, ref, 'successful');
      await receiver.waitFor(ref, 1);

      await onDatabaseClock.app.get(JobRunner).runNow('webhook-delivery');
      await onDatabaseClock.app.get(JobRunner).runNow('webhook-delivery');
      const [held] = (await events(holder, ref)).json.data as Array<Record<string, unknown>>;
      expect(receiver.deliveriesOf(ref)).toHaveLength(1);
      expect(onDatabaseClock.logs.filter((line) => line.msg === 'webhook attempt')).toEqual([]);

      // The control: the same claim, judged by a clock 30 s ahead, takes the event while its first attempt is still in flight.
      await onOwnClock.app.get(JobRunner).runNow('webhook-delivery');
      await receiver.waitFor(ref, 2);
      expect(held).toMatchObject({ status: 'pending' });
    } finally {
      await Promise.all([holder.close(), onDatabaseClock.close(), onOwnClock.close()]);
      await receiver.close();
    }
  }, 30_000);
});

describe('webhook targets in sandbox mode', () => {
  it('refuses a notifyUrl that can never be delivered, at creation, with 400', async () => {
    const api = await startTestApp();
    try {
      for (const [notifyUrl, code, message] of [
        ['https://user:pass@merchant.example.com/hooks', 'unsafe_url', 'notifyUrl must not hold a user name or password'],
        ['http://10.1.2.3/hooks', 'target', '10.1.2.3 is a private address'],
        ['http://[::ffff:192.168.0.1]/hooks', 'target', '::ffff:c0a8:1 is a private address'],
        ['http://169.254.169.254/latest/meta-data', 'target', '169.254.169.254 is a linkLocal address'],
      ]) {
        const response = await signedCall(api.baseUrl, { path: PAYINS, body: JSON.stringify({ amount: 5, currency: 'NGN', customerEmail: 'ada@example.com', reference: reference('ssrf'), notifyUrl }), credential: MERCHANT_A });
        expect(response.status).toBe(400);
        expect(response.json.details).toEqual([{ field: 'notifyUrl', code, message: expect.stringContaining(message as string) }]);
      }
    } finally {
      await api.close();
    }
  });

  it('refuses loopback and http receivers once WEBHOOK_ALLOW_LOCAL_RECEIVERS is false', async () => {
    const api = await startTestApp({ WEBHOOK_ALLOW_LOCAL_RECEIVERS: 'false' });
    try {
      for (const notifyUrl of ['http://127.0.0.1:4242/hooks', 'https://127.0.0.1/hooks', 'https://[::1]/hooks']) {
        const response = await signedCall(api.baseUrl, { path: PAYINS, body: JSON.stringify({ amount: 5, currency: 'NGN', customerEmail: 'ada@example.com', reference: reference('local'), notifyUrl }), credential: MERCHANT_A });
        expect(response.status).toBe(400);
      }
    } finally {
      await api.close();
    }
  });

  it('refuses notifyUrl with 422 for a merchant that has no webhook secret', async () => {
    const { file, merchantA } = freshMerchants();
    const api = await startTestApp({ MERCHANTS_FILE: file });
    try {
      const response = await signedCall(api.baseUrl, {
        path: PAYINS,
        body: JSON.stringify({ amount: 5, currency: 'NGN', customerEmail: 'ada@example.com', reference: reference('nosecret'), notifyUrl: 'http://127.0.0.1:4242/hooks' }),
        credential: merchantA,
      });
      expect(response.status).toBe(422);
      expect(response.json).toMatchObject({ code: 'WEBHOOK_NOT_CONFIGURED', retryable: false });
    } finally {
      await api.close();
    }
  });
});

describe('webhook targets resolved at each attempt, with local receivers off as in production', () => {
  /** DNS as the test scripts it, answer by answer, with a count of lookups per host. */
  const dns = new Map<string, Array<Array<{ address: string; family: number }>>>();
  const lookups = new Map<string, number>();
  let api: TestApp;
  beforeAll(async () => {
    api = await startTestApp(
      { WEBHOOK_ALLOW_LOCAL_RECEIVERS: 'false', WEBHOOK_RETRY_SCHEDULE: '0,0', WEBHOOK_POLL_INTERVAL_MS: '50', WEBHOOK_TIMEOUT_MS: '300' },
      {
        overrides: {
          webhookResolver: async (hostname) => {
            const n = lookups.get(hostname) ?? 0;
            lookups.set(hostname, n + 1);
            // A bug planted in the resolver: it answers nothing at all, not even an empty list.
            if (hostname === 'bug.test') return undefined as never;
            // A resolver that never answers.
            if (hostname === 'slow-dns.test') return new Promise<never>(() => undefined);
            const answers = dns.get(hostname);
            if (!answers) throw new Error(`getaddrinfo ENOTFOUND ${hostname}`);
            return answers[Math.min(n, answers.length - 1)] as Array<{ address: string; family: number }>;
          },
        },
      },
    );
  });
  afterAll(() => api.close());

  async function attemptsFor(host: string): Promise<Array<Record<string, unknown>>> {
    const ref = await createPayin(api, `https://${host}/hooks`);
    await simulate(api, ref, 'successful');
    const [event] = await eventuallyEvents(api, ref, (list) => list[0]?.status === 'failed');
    return event?.attempts as Array<Record<string, unknown>>;
  }

  it('counts resolving the host within the attempt’s deadline: a resolver that never answers fails the attempt in time', async () => {
    const attempts = await attemptsFor('slow-dns.test');
    expect(attempts.map((a) => a.error)).toEqual(['no answer within 300 ms (resolving slow-dns.test)', 'no answer within 300 ms (resolving slow-dns.test)']);
    for (const attempt of attempts) expect(attempt.durationMs).toBeGreaterThanOrEqual(290);
  });

  it('records a bug of the service met while attempting as a failed attempt, logs its stack, and still ends the schedule', async () => {
    const attempts = await attemptsFor('bug.test');
    expect(attempts.map((a) => a.error)).toEqual(['not sent: the service failed to make the attempt', 'not sent: the service failed to make the attempt']);
    const bugs = api.logs.filter((line) => line.msg === 'webhook attempt failed inside the service');
    expect(bugs.length).toBeGreaterThanOrEqual(2);
    expect(bugs[0]).toMatchObject({ level: 50, err: { name: 'TypeError', stack: expect.stringContaining('webhook-target.ts') } });
  });

  it.each([
    ['loopback', '127.0.0.1', 'loopback'],
    ['private', '10.0.0.7', 'private'],
    ['link-local', '169.254.169.254', 'linkLocal'],
    ['CGNAT', '100.64.1.1', 'carrierGradeNat'],
    ['IPv4-mapped private', '::ffff:192.168.1.1', 'private'],
    ['unique-local IPv6', 'fd12::1', 'uniqueLocal'],
  ])('refuses a host name that resolves to a %s address, and never connects', async (_name, address, range) => {
    const host = `${randomUUID().slice(0, 8)}.resolves-private.test`;
    dns.set(host, [[{ address, family: address.includes(':') ? 6 : 4 }]]);
    const attempts = await attemptsFor(host);
    expect(attempts).toHaveLength(2);
    for (const attempt of attempts) expect(attempt).toMatchObject({ statusCode: null, error: expect.stringContaining(`refused: ${host} resolves to`) });
    expect(String(attempts[0]?.error)).toContain(`is a ${range} address`);
  }, 15_000);

  it('refuses a host with any private answer among public ones', async () => {
    const host = `${randomUUID().slice(0, 8)}.mixed.test`;
    dns.set(host, [[{ address: '93.184.215.14', family: 4 }, { address: '10.0.0.1', family: 4 }]]);
    const attempts = await attemptsFor(host);
    expect(attempts[0]?.error).toContain('10.0.0.1 is a private address');
  }, 15_000);

  it('checks again at every attempt, and connects to the address it checked: DNS rebinding finds no gap', async () => {
    const host = `${randomUUID().slice(0, 8)}.rebinding.test`;
    // First a public address (which this test machine cannot reach), then loopback.
    dns.set(host, [[{ address: '93.184.215.14', family: 4 }], [{ address: '127.0.0.1', family: 4 }]]);
    const attempts = await attemptsFor(host);
    expect(attempts).toHaveLength(2);
    expect(attempts[0]?.error).not.toContain('refused');
    expect(attempts[1]?.error).toContain('127.0.0.1 is a loopback address');
    // One lookup per attempt: the connection itself never asked DNS again.
    expect(lookups.get(host)).toBe(2);
  }, 15_000);
});

describeInProduction('webhook targets in production mode', () => {
  let api: TestApp;
  beforeAll(async () => {
    api = await startProductionTestApp();
  });
  afterAll(() => api.close());

  it.each([
    ['loopback', 'https://127.0.0.1/hooks'],
    ['loopback, IPv6', 'https://[::1]/hooks'],
    ['private 10/8', 'https://10.0.0.1/hooks'],
    ['private 172.16/12', 'https://172.16.5.4/hooks'],
    ['private 192.168/16', 'https://192.168.1.1/hooks'],
    ['link-local (cloud metadata)', 'https://169.254.169.254/hooks'],
    ['CGNAT', 'https://100.64.0.1/hooks'],
    ['multicast', 'https://224.0.0.1/hooks'],
    ['unspecified', 'https://0.0.0.0/hooks'],
    ['broadcast', 'https://255.255.255.255/hooks'],
    ['IPv4-mapped IPv6 of a private address', 'https://[::ffff:10.0.0.1]/hooks'],
    ['unique-local IPv6', 'https://[fd00::1]/hooks'],
    ['link-local IPv6', 'https://[fe80::1]/hooks'],
    ['http', 'http://merchant.example.com/hooks'],
    ['with credentials', 'https://user:pass@merchant.example.com/hooks'],
  ])('refuses a %s notifyUrl at creation with 400', async (_name, notifyUrl) => {
    const response = await signedCall(api.baseUrl, { path: PAYINS, body: JSON.stringify({ amount: 5, currency: 'NGN', customerEmail: 'ada@example.com', reference: reference('prod-ssrf'), notifyUrl }), credential: MERCHANT_A });
    expect(response.status).toBe(400);
    expect(response.json.details).toEqual([expect.objectContaining({ field: 'notifyUrl' })]);
  });

  it('refuses to boot with local receivers allowed', async () => {
    await expect(startProductionTestApp({ WEBHOOK_ALLOW_LOCAL_RECEIVERS: 'true' })).rejects.toThrow('WEBHOOK_ALLOW_LOCAL_RECEIVERS must not be true in production mode');
  });
});
