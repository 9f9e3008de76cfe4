// Fair webhook delivery over real HTTP, on the real app: one merchant's
// receiver that hangs cannot hold the slots another merchant's events need,
// and a receiver that keeps failing gets its own backoff (its circuit). The
// delivery job runs only when a test runs it (the poll is a minute), so what
// one claim takes is what is asserted, however fast the machine is.
import { randomUUID } from 'node:crypto';
import { signedCall } from './support/api-client';
import { MERCHANT_A, MERCHANT_B, type TestCredential } from './support/credentials';
import { TestClock } from './support/test-clock';
import { startTestApp, type TestApp } from './support/test-app';
import { WebhookReceiver, type ReceiverAnswer } from './support/webhook-receiver';
import { SqlClient } from '../src/db/sql-client';
import { JobRunner } from '../src/jobs/job-runner';
import { Pool } from 'pg';
import { DATABASE_URL, createPrivateDatabase, describeWithStore } from './support/stores';
import { CLAIM_LOCK } from '../src/webhooks/sql-webhook-event.repository';

const PAYINS = '/payment/api/payins';
const ONLY_WHEN_RUN = { WEBHOOK_POLL_INTERVAL_MS: '60000', RATE_LIMIT_PER_KEY_PER_SECOND: '1000', RATE_LIMIT_PER_KEY_BURST: '1000' };

async function paidPayin(api: TestApp, notifyUrl: string, credential: TestCredential): Promise<string> {
  const reference = `fair-${randomUUID().slice(0, 8)}`;
  const created = await signedCall(api.baseUrl, { path: PAYINS, body: JSON.stringify({ amount: 100, currency: 'NGN', customerEmail: 'ada@example.com', reference, notifyUrl }), credential });
  if (created.status !== 201) throw new Error(`create answered ${created.status}: ${JSON.stringify(created.json)}`);
  const paid = await signedCall(api.baseUrl, { path: `${PAYINS}/${reference}/simulate`, body: JSON.stringify({ outcome: 'successful' }), credential });
  if (paid.status !== 200) throw new Error(`simulate answered ${paid.status}`);
  return reference;
}

async function until(condition: () => boolean, what: string): Promise<void> {
  for (const deadline = Date.now() + 20_000; !condition(); await new Promise((r) => setTimeout(r, 20))) {
    if (Date.now() > deadline) throw new Error(`still waiting for ${what}`);
  }
}

describe('fair webhook delivery', () => {
  it("delivers another merchant's event at the first claim while one merchant's hanging receiver has 50 events queued", async () => {
    const hanging = await WebhookReceiver.start();
    hanging.answer(() => 'hang');
    const healthy = await WebhookReceiver.start();
    const api = await startTestApp({ ...ONLY_WHEN_RUN, WEBHOOK_TIMEOUT_MS: '60000' });
    const jobs = api.app.get(JobRunner);
    try {
      for (let i = 0; i < 50; i++) await paidPayin(api, hanging.url, MERCHANT_B);
      await jobs.runNow('webhook-delivery');
      await jobs.runNow('webhook-delivery');
      await until(() => hanging.received.length === api.config.webhooks.perMerchantConcurrency, "merchant B's share of attempts");

      const reference = await paidPayin(api, healthy.url, MERCHANT_A);
      const paidAt = Date.now();
      await jobs.runNow('webhook-delivery');
      await healthy.waitFor(reference, 1);
      // With the default poll of 1 s, the first claim after the event is due comes within a second of it.
      console.log(`merchant A's webhook arrived ${Date.now() - paidAt} ms after the claim that took it, beside 50 of merchant B's events to a hanging receiver`);
      // Merchant B never held more than its share, though 46 of its events were due and slots were free.
      expect(hanging.received).toHaveLength(api.config.webhooks.perMerchantConcurrency);
      expect(api.config.webhooks.perMerchantConcurrency).toBeLessThan(api.config.webhooks.concurrency);
    } finally {
      await api.close();
      await hanging.close();
      await healthy.close();
    }
  }, 60_000);

  it('leases an idle receiver a batch in one claim, and sends it a share at a time, the next as soon as one is answered', async () => {
    const receiver = await WebhookReceiver.start();
    const answers: Array<(answer: ReceiverAnswer) => void> = [];
    receiver.answer(() => new Promise<ReceiverAnswer>((resolve) => answers.push(resolve)));
    const api = await startTestApp(ONLY_WHEN_RUN);
    const jobs = api.app.get(JobRunner);
    const database = api.app.get<SqlClient>(SqlClient);
    const leases = async () => (await database.query<{ n: string; rounds: string }>('SELECT count(*) AS n, count(DISTINCT locked_until) AS rounds FROM outbox_events WHERE locked_until IS NOT NULL')).rows[0];
    const share = Math.min(api.config.webhooks.perMerchantConcurrency, api.config.webhooks.perReceiverConcurrency);
    const events = 3 * share;
    try {
      expect(api.config.webhooks.receiverBatch).toBeGreaterThanOrEqual(events);
      for (let i = 0; i < events; i++) await paidPayin(api, receiver.url, MERCHANT_A);
      await jobs.runNow('webhook-delivery');
      // One claim took them all, each share leased a round longer than the one before.
      expect(await leases()).toEqual({ n: String(events), rounds: '3' });
      for (let answered = 0; answered < events; answered++) {
        await until(() => receiver.received.length === Math.min(events, answered + share), `attempt ${answered + share} to arrive`);
        // A share in flight, never more: the next goes only once one is answered.
        expect(receiver.received.length - answered).toBe(Math.min(share, events - answered));
        answers[answered]?.({ status: 200, body: 'ok' });
      }
      await until(() => new Set(receiver.received.map((d) => d.headers['webhook-id'])).size === events, 'every event delivered');
      expect(receiver.received).toHaveLength(events);
    } finally {
      await api.close();
      await receiver.close();
    }
  }, 60_000);

  it('stops attempting a receiver that keeps failing until its circuit has been open its time, then tries one event before the rest', async () => {
    const receiver = await WebhookReceiver.start();
    receiver.answer(() => ({ status: 503 }));
    const clock = new TestClock();
    const api = await startTestApp(
      { ...ONLY_WHEN_RUN, WEBHOOK_RETRY_SCHEDULE: '0,1,1,1,1', WEBHOOK_CIRCUIT_FAILURES: '3', WEBHOOK_CIRCUIT_OPEN_SECONDS: '600' },
      { overrides: { clock: clock.now } },
    );
    const jobs = api.app.get(JobRunner);
    const database = api.app.get<SqlClient>(SqlClient);
    const leased = async () => Number((await database.query<{ n: string }>('SELECT count(*) AS n FROM outbox_events WHERE locked_until IS NOT NULL')).rows[0]?.n);
    const attemptsRecorded = async (reference: string) => {
      const listed = await signedCall(api.baseUrl, { path: `${PAYINS}/${reference}/events`, credential: MERCHANT_A, timestamp: Math.floor(clock.now() / 1000) });
      return ((listed.json.data as Array<{ attempts: unknown[] }>)[0]?.attempts ?? []).length;
    };
    try {
      const references = [await paidPayin(api, receiver.url, MERCHANT_A), await paidPayin(api, receiver.url, MERCHANT_A), await paidPayin(api, receiver.url, MERCHANT_A)];
      await jobs.runNow('webhook-delivery');
      await until(() => receiver.received.length === 3, 'three failed attempts');
      // Each failure is counted against the receiver once its attempt is recorded.
      for (const reference of references) while ((await attemptsRecorded(reference)) < 1);

      // Three failures in a row: open for 600 s, though each event's retry was due after 1 s.
      clock.advance(300_000);
      await jobs.runNow('webhook-delivery');
      expect(await leased()).toBe(0);
      // Held back by the receiver's circuit, the events are queued but delivery is not behind.
      const scraped = await (await fetch(`${api.baseUrl}/payment/metrics`)).text();
      expect([/^paysign_webhook_queue_depth (\S+)$/m.exec(scraped)?.[1], /^paysign_webhook_queue_lag_seconds (\S+)$/m.exec(scraped)?.[1]]).toEqual(['3', '0']);

      // Open its time: one attempt goes through, held in flight by the receiver, and no claim adds another meanwhile.
      clock.advance(301_000);
      let answerProbe!: (answer: ReceiverAnswer) => void;
      receiver.answer(() => new Promise<ReceiverAnswer>((resolve) => (answerProbe = resolve)));
      await jobs.runNow('webhook-delivery');
      expect(await leased()).toBe(1);
      await jobs.runNow('webhook-delivery');
      expect(await leased()).toBe(1);
      await until(() => receiver.received.length === 4, 'the one attempt of the half-open circuit');
      const probed = receiver.received[3]?.headers['webhook-id'];

      // Answered: closed again, and the other two go at once (the probe's end makes room for a claim).
      receiver.answer(() => ({ status: 200 }));
      answerProbe({ status: 200 });
      await until(() => receiver.received.length === 6, 'the rest once the circuit closed');
      expect(new Set(receiver.received.slice(4).map((d) => d.headers['webhook-id'])).has(probed)).toBe(false);
    } finally {
      await api.close();
      await receiver.close();
    }
  }, 60_000);
});

describeWithStore('PostgreSQL', DATABASE_URL, 'webhook batches that end early', () => {
  /** The app on a database of the test's own, read through a pool of its own, so that it can be read after the service has stopped. */
  async function appOnOwnDatabase() {
    const database = await createPrivateDatabase('paysign_batch_release');
    const pool = new Pool({ connectionString: database.url });
    // The database is dropped WITH (FORCE) at the end: a connection the pool is still closing is ended by the server, which is no failure.
    pool.on('error', () => undefined);
    const api = await startTestApp({ ...ONLY_WHEN_RUN, DATABASE_URL: database.url });
    let closed = false;
    return {
      api,
      pool,
      jobs: api.app.get(JobRunner),
      share: Math.min(api.config.webhooks.perMerchantConcurrency, api.config.webhooks.perReceiverConcurrency),
      leasedAttempts: async () => (await pool.query<{ attempt_count: number }>('SELECT attempt_count FROM outbox_events WHERE locked_until IS NOT NULL ORDER BY id')).rows.map((r) => r.attempt_count),
      givenBack: async () => Number((await pool.query<{ n: string }>("SELECT count(*) AS n FROM outbox_events WHERE status = 'pending' AND attempt_count = 0 AND locked_until IS NULL")).rows[0]?.n),
      close: async () => {
        if (!closed) await api.close();
        closed = true;
      },
      dispose: async function (this: { close(): Promise<void> }) {
        await this.close();
        await pool.end();
        await database.drop();
      },
    };
  }

  /** A receiver that holds every delivery until the test answers it. */
  async function holdingReceiver() {
    const receiver = await WebhookReceiver.start();
    const answers: Array<(answer: ReceiverAnswer) => void> = [];
    receiver.answer(() => new Promise<ReceiverAnswer>((resolve) => answers.push(resolve)));
    return { receiver, answers };
  }

  /** Three shares of merchant A's events to a holding receiver, and one claim run: a batch under way, its first share not yet answered. */
  async function batchUnderWay() {
    const { receiver, answers } = await holdingReceiver();
    const service = await appOnOwnDatabase();
    const dispose = async () => {
      await service.dispose();
      await receiver.close();
    };
    try {
      for (let i = 0; i < 3 * service.share; i++) await paidPayin(service.api, receiver.url, MERCHANT_A);
      await service.jobs.runNow('webhook-delivery');
    } catch (error) {
      await dispose();
      throw error;
    }
    return { answers, service, share: service.share, dispose };
  }

  it('ends a batch at an answer that is not a delivery, giving back what it never sent with its attempt unspent', async () => {
    const { answers, service, share, dispose } = await batchUnderWay();
    try {
      await until(() => answers.length === share, "the batch's first share");
      // 503s: the lanes finish what they hold and take nothing more. The rest is given back at once, its attempt
      // unspent, and the next claim, woken as the batch ends, sends a share of it as first attempts: the receiver has
      // failures counted now (fewer than open its circuit), so a share alone, not a batch. Left leased, the rest would
      // wait out its leases (over 20 s), and come back as second attempts.
      for (let i = 0; i < share; i++) answers[i]?.({ status: 503 });
      await until(() => answers.length === 2 * share, 'a share of what the batch gave back');
      expect(await service.leasedAttempts()).toEqual(Array(share).fill(1));
    } finally {
      await dispose();
    }
  }, 60_000);

  it('gives back at shutdown what a batch has not sent', async () => {
    const { answers, service, share, dispose } = await batchUnderWay();
    try {
      // One claim took all of them, as a batch: a share in flight, the rest waiting its turn.
      expect(await service.leasedAttempts()).toEqual(Array(3 * share).fill(1));
      await until(() => answers.length === share, "the batch's first share");
      // Shutdown: the attempts in flight are cut (their leases run out), and the rest is given back before the service stops.
      await service.close();
      expect(await service.givenBack()).toBe(2 * share);
    } finally {
      await dispose();
    }
  }, 60_000);

  it('gives back what a claim under way at shutdown takes, and sends none of it', async () => {
    const { receiver } = await holdingReceiver();
    const service = await appOnOwnDatabase();
    const { share } = service;
    // The claims' advisory lock, held by the test: the service's claim waits on it until the test lets it go.
    const holder = await service.pool.connect();
    try {
      // One share: sent as single deliveries, not a batch, which gives back what it has not sent on its own.
      for (let i = 0; i < share; i++) await paidPayin(service.api, receiver.url, MERCHANT_A);
      await holder.query('BEGIN');
      await holder.query('SELECT pg_advisory_xact_lock($1)', [CLAIM_LOCK]);
      let claimEnded = false;
      const claim = service.jobs.runNow('webhook-delivery').catch(() => undefined).finally(() => (claimEnded = true));
      const waitingClaims = async () =>
        Number((await service.pool.query<{ n: string }>("SELECT count(*) AS n FROM pg_locks l JOIN pg_database d ON d.oid = l.database WHERE d.datname = current_database() AND l.locktype = 'advisory' AND l.objid = $1 AND NOT l.granted", [CLAIM_LOCK])).rows[0]?.n);
      for (const deadline = Date.now() + 20_000; (await waitingClaims()) === 0; await new Promise((r) => setTimeout(r, 20))) {
        if (Date.now() > deadline) throw new Error('the claim never waited on the lock');
      }
      const closing = service.close();
      await until(() => service.api.logs.some((line) => String(line.msg).startsWith('webhook delivery stopping')), 'shutdown to reach webhook delivery');
      await holder.query('COMMIT');
      await closing;
      // Shutdown waited for the claim, so that what it took was given back while the database was still open.
      expect(claimEnded).toBe(true);
      await claim;
      expect(receiver.received).toHaveLength(0);
      expect(await service.givenBack()).toBe(share);
    } finally {
      holder.release();
      await service.dispose();
      await receiver.close();
    }
  }, 60_000);
});
