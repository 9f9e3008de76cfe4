// One suite, both stores: the embedded PGlite and PostgreSQL.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Pool } from 'pg';
import pino from 'pino';
import type { NewPayin, PayinRepository, StoredPayin } from '../src/payins/payin-repository.interface';
import type { SqlClient } from '../src/db/sql-client';
import { SqlWebhookEventRepository, type ClaimedWebhookEvent } from '../src/webhooks/sql-webhook-event.repository';
import { EventOutbox } from '../src/events/event-outbox';
import type { NewOutboxEvent } from '../src/events/outbox-event';
import { SCHEMA } from '../src/schema';
import { openPostgres } from '../src/db/sql-clients';
import { SqlPayinRepository } from '../src/payins/sql-payin.repository';
import { Ledger } from '../src/ledger/ledger';
import { checkLedger } from '../src/ledger-invariants';
import { PayinCredits } from '../src/ledger/payin-credits';
import { DEFAULT_FEES } from '../src/money/fees';
import { DATABASE_URL, describeWithStore, openPrivateSchema } from './support/stores';
import { signedCall } from './support/api-client';
import { MERCHANT_A } from './support/credentials';
import { openPgliteFromTemplate } from './support/pglite-template';
import { startTestApp } from './support/test-app';

const payin = (reference: string, changes: Partial<NewPayin> = {}): NewPayin => ({
  merchantId: 'MCH-A',
  reference,
  amountMinor: 100050n,
  currency: 'NGN',
  customerEmail: 'ada@example.com',
  customerName: 'Ada Obi',
  gateway: null,
  provider: 'sandbox',
  narration: null,
  notifyUrl: null,
  redirectUrl: null,
  requestFingerprint: 'f1',
  createdAt: new Date('2026-11-22T10:00:00.000Z'),
  expiresAt: new Date('2026-11-22T10:30:00.000Z'),
  checkoutSeed: `seed-${reference}`,
  checkoutTokenHash: `hash-${changes.merchantId ?? 'MCH-A'}-${reference}-${Math.random()}`,
  ...changes,
});
/** The store's clock, which the tests move: expiry and leases are judged by it. */
let storeNow = 0;
const storeClock = () => storeNow;
const outbox = new EventOutbox({ firstAttemptDelayMs: 0, storeClock });
/** The retry schedule's steps, as WEBHOOK_RETRY_SCHEDULE=0,1,2 gives. */
const SCHEDULED_ATTEMPTS = 3;
/** These tests are about the payins; the outbox has its own. */
const NO_EVENT = () => [];
const BEFORE_EXPIRY = new Date('2026-11-22T10:10:00.000Z');
const AFTER_EXPIRY = new Date('2026-11-22T10:45:00.000Z');

function repositorySuite(open: () => Promise<{ client: SqlClient; dispose: () => Promise<void> }>) {
  let repository: PayinRepository;
  let events: SqlWebhookEventRepository;
  let client: SqlClient;
  let ledger: Ledger;
  let dispose: () => Promise<void>;
  beforeAll(async () => {
    const opened = await open();
    client = opened.client;
    ledger = new Ledger(opened.client, storeClock);
    // Settled in the payin's own transaction, as sandbox does by default.
    repository = new SqlPayinRepository(opened.client, outbox, storeClock, new PayinCredits(ledger, () => DEFAULT_FEES, 0));
    events = new SqlWebhookEventRepository(opened.client, storeClock, SCHEDULED_ATTEMPTS);
    dispose = opened.dispose;
  });
  afterAll(() => dispose());
  const expireAt = (now: Date, options: { limit: number; merchantId?: string }, eventOf: Parameters<PayinRepository['expireDue']>[1]) => {
    storeNow = now.getTime();
    return repository.expireDue(options, eventOf);
  };
  /** Shares wide enough that only the tests about fairness meet them. */
  const UNFAIR = { perMerchant: 1000, perReceiver: 1000, circuitFailures: 1000 };
  const claimAt = (now: Date, leaseUntil: Date, limit: number, fairness = UNFAIR) => {
    storeNow = now.getTime();
    return events.claimDue(leaseUntil.getTime() - now.getTime(), limit, fairness);
  };

  it('stores a new payin and reads it back', async () => {
    const { created, payin: stored } = await repository.insertIfAbsent(payin('r-1'));
    expect(created).toBe(true);
    const { checkoutTokenHash: _hash, ...fields } = payin('r-1');
    expect(stored).toMatchObject({ ...fields, status: 'PENDING', paidAt: null, failedAt: null, failureReason: null });
    expect(await repository.find({ merchantId: 'MCH-A', reference: 'r-1' })).toEqual(stored);
  });

  it('answers a create with every field as it reads back, the optional ones set', async () => {
    const full = payin('r-full', { gateway: 'card', narration: 'Order 77', notifyUrl: 'https://merchant.example/hooks', redirectUrl: 'https://merchant.example/done', amountMinor: 9007199254740993n });
    const { created, payin: stored } = await repository.insertIfAbsent(full);
    expect(created).toBe(true);
    expect(stored).toMatchObject({ version: 1, needsAttention: false, feeMinor: null, refundedMinor: 0n, refundingMinor: 0n, attempts: [], providerReference: null });
    expect(await repository.find({ merchantId: 'MCH-A', reference: 'r-full' })).toEqual(stored);
  });

  it('returns the existing payin for an existing reference, unchanged', async () => {
    const first = await repository.insertIfAbsent(payin('r-2'));
    const second = await repository.insertIfAbsent(payin('r-2', { amountMinor: 1n, requestFingerprint: 'f2' }));
    expect(second).toEqual({ created: false, payin: first.payin });
  });

  it('keeps references per merchant', async () => {
    await repository.insertIfAbsent(payin('r-3'));
    expect((await repository.insertIfAbsent(payin('r-3', { merchantId: 'MCH-B' }))).created).toBe(true);
    expect(await repository.find({ merchantId: 'MCH-C', reference: 'r-3' })).toBeUndefined();
  });

  it('keeps amounts beyond 2^53 minor units exact', async () => {
    const big = 2n ** 60n;
    await repository.insertIfAbsent(payin('r-4', { amountMinor: big }));
    expect((await repository.find({ merchantId: 'MCH-A', reference: 'r-4' }))?.amountMinor).toBe(big);
  });

  it('creates exactly one row when inserts race', async () => {
    const results = await Promise.all(Array.from({ length: 8 }, () => repository.insertIfAbsent(payin('r-5'))));
    expect(results.filter((r) => r.created)).toHaveLength(1);
  });

  it('finds a payin by the hash of its checkout token', async () => {
    await repository.insertIfAbsent(payin('r-6', { checkoutTokenHash: 'token-hash-r-6' }));
    expect((await repository.findByCheckoutTokenHash('token-hash-r-6'))?.reference).toBe('r-6');
    expect(await repository.findByCheckoutTokenHash('token-hash-none')).toBeUndefined();
  });

  describe('transitions', () => {
    const key = (reference: string) => ({ merchantId: 'MCH-A', reference });

    it.each([
      ['SUCCESSFUL', { to: 'SUCCESSFUL' }, { paidAt: BEFORE_EXPIRY, failedAt: null, failureReason: null }],
      ['FAILED', { to: 'FAILED', reason: 'insufficient_funds' }, { paidAt: null, failedAt: BEFORE_EXPIRY, failureReason: 'insufficient_funds' }],
      ['CANCELLED', { to: 'CANCELLED', by: 'customer' }, { paidAt: null, failedAt: BEFORE_EXPIRY, failureReason: 'customer_cancelled' }],
      ['ABANDONED', { to: 'ABANDONED' }, { paidAt: null, failedAt: BEFORE_EXPIRY, failureReason: 'checkout_expired' }],
    ] as const)('moves PENDING to %s and records when and why', async (status, transition, recorded) => {
      await repository.insertIfAbsent(payin(`t-${status}`));
      const moved = await repository.transition(key(`t-${status}`), transition, BEFORE_EXPIRY, NO_EVENT);
      expect(moved).toMatchObject({ status, ...recorded });
      expect(await repository.find(key(`t-${status}`))).toEqual(moved);
    });

    it('never moves a final payin again', async () => {
      await repository.insertIfAbsent(payin('t-final'));
      await repository.transition(key('t-final'), { to: 'SUCCESSFUL' }, BEFORE_EXPIRY, NO_EVENT);
      for (const transition of [{ to: 'FAILED', reason: 'card_declined' }, { to: 'CANCELLED', by: 'customer' }, { to: 'ABANDONED' }, { to: 'SUCCESSFUL' }] as const) {
        expect(await repository.transition(key('t-final'), transition, BEFORE_EXPIRY, NO_EVENT)).toBeUndefined();
      }
      expect((await repository.find(key('t-final')))?.status).toBe('SUCCESSFUL');
    });

    it('moves a payin exactly once when transitions race', async () => {
      await repository.insertIfAbsent(payin('t-race'));
      const attempts = [{ to: 'SUCCESSFUL' }, { to: 'CANCELLED', by: 'customer' }, { to: 'FAILED', reason: 'card_declined' }, { to: 'SUCCESSFUL' }, { to: 'ABANDONED' }, { to: 'SUCCESSFUL' }] as const;
      const results = await Promise.all(attempts.map((transition) => repository.transition(key('t-race'), transition, BEFORE_EXPIRY, NO_EVENT)));
      const winners = results.filter((result) => result !== undefined);
      expect(winners).toHaveLength(1);
      expect((await repository.find(key('t-race')))?.status).toBe(winners[0]?.status);
    });

    it("credits a successful payin's amount less its fee to the merchant, in the transaction that moves it, and nothing for any other outcome", async () => {
      const of = (reference: string) => ({ merchantId: 'MCH-LEDGER', reference });
      for (const reference of ['l-paid', 'l-declined', 'l-cancelled']) await repository.insertIfAbsent(payin(reference, { merchantId: 'MCH-LEDGER' }));
      const paid = await repository.transition(of('l-paid'), { to: 'SUCCESSFUL' }, BEFORE_EXPIRY, NO_EVENT);
      await repository.transition(of('l-declined'), { to: 'FAILED', reason: 'card_declined' }, BEFORE_EXPIRY, NO_EVENT);
      await repository.transition(of('l-cancelled'), { to: 'CANCELLED', by: 'customer' }, BEFORE_EXPIRY, NO_EVENT);
      // 1.5 % of ₦1,000.50, rounded half up to the kobo.
      expect(paid?.feeMinor).toBe(1_501n);
      expect((await repository.find(of('l-paid')))?.feeMinor).toBe(1_501n);
      expect((await repository.find(of('l-declined')))?.feeMinor).toBeNull();
      expect(await ledger.balanceOf('MCH-LEDGER', 'NGN')).toEqual({ currency: 'NGN', availableMinor: 98_549n, pendingMinor: 0n, heldMinor: 0n });
      expect((await ledger.entriesOf({ merchantId: 'MCH-LEDGER', currency: 'NGN', limit: 10 })).map((entry) => [entry.type, entry.balance, entry.amountMinor, entry.reference])).toEqual([
        ['settlement', 'available', 98_549n, 'l-paid'],
        ['settlement', 'pending', -98_549n, 'l-paid'],
        ['payin_fee', 'pending', -1_501n, 'l-paid'],
        ['payin_credit', 'pending', 100_050n, 'l-paid'],
      ]);
      expect(await checkLedger(client)).toEqual([]);
    });

    it('refuses payment at or after expiresAt, but abandons, recording the expiry as the time', async () => {
      await repository.insertIfAbsent(payin('t-late'));
      expect(await repository.transition(key('t-late'), { to: 'SUCCESSFUL' }, AFTER_EXPIRY, NO_EVENT)).toBeUndefined();
      expect(await repository.transition(key('t-late'), { to: 'ABANDONED' }, AFTER_EXPIRY, NO_EVENT)).toMatchObject({ status: 'ABANDONED', failedAt: new Date('2026-11-22T10:30:00.000Z') });
    });
  });

  describe('attempts', () => {
    const key = (reference: string) => ({ merchantId: 'MCH-ATTEMPTS', reference });
    const declined = { channel: 'card', outcome: 'declined', declineReason: 'card_declined', attemptedAt: BEFORE_EXPIRY } as const;
    const paying = { channel: 'bank_transfer', outcome: 'succeeded', declineReason: null, attemptedAt: BEFORE_EXPIRY } as const;

    it('keeps a payin open after a decline, one version on, and pays it with the credit on a paying attempt', async () => {
      await repository.insertIfAbsent(payin('a-paid', { merchantId: 'MCH-ATTEMPTS' }));
      const open = await repository.recordAttempt(key('a-paid'), declined, 3, NO_EVENT);
      expect(open).toMatchObject({ status: 'PENDING', version: 2, attempts: [declined] });
      const paid = await repository.recordAttempt(key('a-paid'), paying, 3, NO_EVENT);
      expect(paid).toMatchObject({ status: 'SUCCESSFUL', version: 3, paidAt: BEFORE_EXPIRY, feeMinor: 1_501n, attempts: [declined, paying] });
      expect(await repository.find(key('a-paid'))).toEqual(paid);
      expect(await ledger.balanceOf('MCH-ATTEMPTS', 'NGN')).toMatchObject({ availableMinor: 98_549n });
      expect(await repository.recordAttempt(key('a-paid'), paying, 3, NO_EVENT)).toBeUndefined();
      expect((await repository.find(key('a-paid')))?.attempts).toHaveLength(2);
    });

    it('records nothing at or after expiresAt', async () => {
      await repository.insertIfAbsent(payin('a-late', { merchantId: 'MCH-ATTEMPTS' }));
      expect(await repository.recordAttempt(key('a-late'), { ...paying, attemptedAt: AFTER_EXPIRY }, 3, NO_EVENT)).toBeUndefined();
      expect(await repository.find(key('a-late'))).toMatchObject({ status: 'PENDING', version: 1, attempts: [] });
    });

    it('numbers concurrent attempts from 1 with no gap, fails the payin at the last allowed, and records none after it', async () => {
      await repository.insertIfAbsent(payin('a-race', { merchantId: 'MCH-ATTEMPTS' }));
      const results = await Promise.all(Array.from({ length: 5 }, () => repository.recordAttempt(key('a-race'), declined, 3, NO_EVENT)));
      expect(results.filter((result) => result !== undefined).map((result) => result?.version).sort()).toEqual([2, 3, 4]);
      const { rows } = await client.query<{ attempt: number }>('SELECT attempt FROM payin_attempts WHERE merchant_id = $1 AND reference = $2 ORDER BY attempt', ['MCH-ATTEMPTS', 'a-race']);
      expect(rows.map((row) => Number(row.attempt))).toEqual([1, 2, 3]);
      expect(await repository.find(key('a-race'))).toMatchObject({ status: 'FAILED', failureReason: 'too_many_attempts', version: 4 });
    });
  });

  describe('the webhook outbox', () => {
    const key = (reference: string) => ({ merchantId: 'MCH-A', reference });
    const eventOf = (payin: StoredPayin): NewOutboxEvent[] =>
      outbox.events({
        merchantId: payin.merchantId,
        objectType: 'payin',
        objectId: payin.reference,
        type: 'payin.successful',
        version: payin.version,
        occurredAt: BEFORE_EXPIRY,
        data: { status: payin.status },
        targets: [{ notifyUrl: 'https://merchant.example.com/hooks' }],
      });
    const listOfPayin = (merchantId: string, reference: string) => events.listOfObject(merchantId, 'payin', reference);

    it('writes the event of a transition in its transaction', async () => {
      await repository.insertIfAbsent(payin('o-1'));
      await repository.transition(key('o-1'), { to: 'SUCCESSFUL' }, BEFORE_EXPIRY, eventOf);
      const [event] = await listOfPayin('MCH-A', 'o-1');
      expect(event).toMatchObject({ objectType: 'payin', objectId: 'o-1', version: 2, status: 'pending', attemptCount: 0 });
      expect(JSON.parse(event?.payload ?? '')).toEqual({ type: 'payin.successful', version: 2, timestamp: BEFORE_EXPIRY.toISOString(), data: { status: 'SUCCESSFUL' } });
    });

    it('rolls the transition back when its event cannot be written: neither exists without the other', async () => {
      await repository.insertIfAbsent(payin('o-2'));
      const duplicateId = (await listOfPayin('MCH-A', 'o-1'))[0]?.id as string;
      await expect(repository.transition(key('o-2'), { to: 'SUCCESSFUL' }, BEFORE_EXPIRY, (moved) => eventOf(moved).map((event) => ({ ...event, id: duplicateId })))).rejects.toThrow();
      expect((await repository.find(key('o-2')))?.status).toBe('PENDING');
      expect(await listOfPayin('MCH-A', 'o-2')).toEqual([]);
      const credits = await client.query("SELECT id FROM ledger_journals WHERE merchant_id = 'MCH-A' AND object_id = 'o-2'");
      expect(credits.rows).toEqual([]);
    });

    it('writes the events of expired payins in the sweep that abandons them', async () => {
      const base = new Date('2033-01-01T00:00:00.000Z').getTime();
      for (const reference of ['o-3', 'o-4']) await repository.insertIfAbsent(payin(reference, { merchantId: 'MCH-O', createdAt: new Date(base), expiresAt: new Date(base + 1000) }));
      await expireAt(new Date(base + 2000), { limit: 10, merchantId: 'MCH-O' }, eventOf);
      expect(await listOfPayin('MCH-O', 'o-3')).toHaveLength(1);
      expect(await listOfPayin('MCH-O', 'o-4')).toHaveLength(1);
    });

    it('lets one claimer take a due event until its lease runs out, then another', async () => {
      await repository.insertIfAbsent(payin('o-5'));
      storeNow = BEFORE_EXPIRY.getTime();
      await repository.transition(key('o-5'), { to: 'SUCCESSFUL' }, BEFORE_EXPIRY, eventOf);
      const now = new Date(BEFORE_EXPIRY.getTime() + 1000);
      const lease = new Date(now.getTime() + 60_000);
      const claims = await Promise.all([1, 2, 3].map(() => claimAt(now, lease, 100)));
      const claimedO5 = claims.flat().filter((event) => event.objectId === 'o-5');
      expect(claimedO5).toHaveLength(1);
      expect(claimedO5[0]?.attemptCount).toBe(1);
      expect((await claimAt(new Date(now.getTime() + 30_000), lease, 100)).filter((e) => e.objectId === 'o-5')).toEqual([]);
      const retaken = (await claimAt(new Date(lease.getTime() + 1), new Date(lease.getTime() + 60_000), 100)).filter((e) => e.objectId === 'o-5');
      expect(retaken.map((e) => e.attemptCount)).toEqual([2]);
    });

    it('never claims an event past the attempts it is allowed, even when no attempt could be recorded', async () => {
      await repository.insertIfAbsent(payin('o-6'));
      storeNow = BEFORE_EXPIRY.getTime();
      await repository.transition(key('o-6'), { to: 'SUCCESSFUL' }, BEFORE_EXPIRY, eventOf);
      // Each claim's lease runs out unrecorded, as when the store refuses every record.
      const claimedAt: number[] = [];
      for (let minute = 1; minute <= 6; minute++) {
        const now = new Date(BEFORE_EXPIRY.getTime() + minute * 60_000);
        const mine = (await claimAt(now, new Date(now.getTime() + 1000), 100)).filter((e) => e.objectId === 'o-6');
        if (mine.length > 0) claimedAt.push(minute);
      }
      expect(claimedAt).toEqual([1, 2, 3]);
      const [event] = await listOfPayin('MCH-A', 'o-6');
      expect(event).toMatchObject({ status: 'failed', attemptCount: SCHEDULED_ATTEMPTS });

      // A redelivery allows exactly one more.
      expect(await events.redeliver('MCH-A', event?.id as string)).toBe(true);
      const later = new Date(BEFORE_EXPIRY.getTime() + 10 * 60_000);
      expect((await claimAt(later, new Date(later.getTime() + 1000), 100)).filter((e) => e.objectId === 'o-6').map((e) => e.attemptCount)).toEqual([4]);
      const after = new Date(later.getTime() + 60_000);
      expect((await claimAt(after, new Date(after.getTime() + 1000), 100)).filter((e) => e.objectId === 'o-6')).toEqual([]);
    });

    it('fails at the retention job an event a shorter retry schedule left with no attempt, which no claim takes', async () => {
      await repository.insertIfAbsent(payin('o-7'));
      storeNow = BEFORE_EXPIRY.getTime();
      await repository.transition(key('o-7'), { to: 'SUCCESSFUL' }, BEFORE_EXPIRY, eventOf);
      const [written] = await listOfPayin('MCH-A', 'o-7');
      // Attempted as often as the schedule now allows, under a longer one, and not leased.
      await client.query('UPDATE outbox_events SET attempt_count = $2 WHERE id = $1', [written?.id, SCHEDULED_ATTEMPTS]);
      const now = new Date(BEFORE_EXPIRY.getTime() + 60_000);
      expect((await claimAt(now, new Date(now.getTime() + 1000), 100)).filter((e) => e.objectId === 'o-7')).toEqual([]);
      expect((await listOfPayin('MCH-A', 'o-7'))[0]?.status).toBe('pending');
      await events.failSpent();
      expect((await listOfPayin('MCH-A', 'o-7'))[0]).toMatchObject({ status: 'failed', attemptCount: SCHEDULED_ATTEMPTS });
    });
  });

  describe('fair delivery', () => {
    // Each test has its own merchants, receivers and years, and starts with no other event pending, so that nothing else shares its slots or turns.
    beforeEach(() => client.query("UPDATE outbox_events SET status = 'failed' WHERE status = 'pending'"));
    const writeDue = async (at: Date, merchantId: string, objectId: string, notifyUrl: string) => {
      storeNow = at.getTime();
      const [event] = outbox.events({ merchantId, objectType: 'payin', objectId, type: 'payin.successful', version: 2, occurredAt: at, data: {}, targets: [{ notifyUrl }] });
      await outbox.writeMany(client, event ? [event] : []);
      return event as NewOutboxEvent;
    };
    const ofMerchants = <E extends { merchantId: string }>(claimed: E[], ...merchants: string[]): E[] => claimed.filter((e) => merchants.includes(e.merchantId));
    const CIRCUIT = { failures: 3, openSeconds: 60, maxOpenSeconds: 600 };
    /** Records attempts of `event` that its receiver answered or not, in one write, under attempt numbers no claim made: only the circuit moves. */
    let unclaimedAttempt = 1000;
    const recordAnswers = (event: { id: string; notifyUrl: string }, ...answers: boolean[]) =>
      events.recordAttempts(
        answers.map((answered) => ({
          eventId: event.id, attempt: unclaimedAttempt++, startedAt: new Date(storeNow), durationMs: 5, statusCode: answered ? 200 : 503,
          error: null, responseBody: null, status: 'pending' as const, retryInMs: 0, receiver: { notifyUrl: event.notifyUrl, answered },
        })),
        CIRCUIT,
      );
    const circuitOf = async (receiver: string) => {
      const { rows } = await client.query<{ failures: number; open_until: Date | string | null }>('SELECT failures, open_until FROM webhook_receivers WHERE receiver = $1', [receiver]);
      return rows[0] && { failures: Number(rows[0].failures), openUntil: rows[0].open_until === null ? null : new Date(rows[0].open_until).toISOString() };
    };

    it('gives each merchant at most its share of attempts in flight, and takes merchants in turn', async () => {
      const at = new Date('2041-01-01T00:00:00.000Z');
      for (let i = 0; i < 10; i++) await writeDue(new Date(at.getTime() + i), 'MCH-SLOW', `s-${i}`, 'https://slow.example.com/hooks');
      await writeDue(new Date(at.getTime() + 100), 'MCH-QUICK', 'q-1', 'https://quick.example.com/hooks');
      const now = new Date(at.getTime() + 1000);
      const lease = new Date(now.getTime() + 60_000);
      const fairness = { perMerchant: 3, perReceiver: 100, circuitFailures: 100 };
      // Room for two: the quick merchant's one event is taken in the first turn, beside the slow one's oldest.
      expect(ofMerchants(await claimAt(now, lease, 2, fairness), 'MCH-SLOW', 'MCH-QUICK').map((e) => e.objectId).sort()).toEqual(['q-1', 's-0']);
      expect(ofMerchants(await claimAt(now, lease, 100, fairness), 'MCH-SLOW', 'MCH-QUICK').map((e) => e.objectId).sort()).toEqual(['s-1', 's-2']);
      // Three in flight: the slow merchant gets no more until a lease ends.
      expect(ofMerchants(await claimAt(now, lease, 100, fairness), 'MCH-SLOW')).toEqual([]);
      await writeDue(new Date(now.getTime() + 1), 'MCH-QUICK', 'q-2', 'https://quick.example.com/hooks');
      expect(ofMerchants(await claimAt(new Date(now.getTime() + 2), lease, 100, fairness), 'MCH-SLOW', 'MCH-QUICK').map((e) => e.objectId)).toEqual(['q-2']);
    });

    it("gives each receiver at most its share of attempts in flight, whichever merchants' events they are", async () => {
      const at = new Date('2042-01-01T00:00:00.000Z');
      for (let i = 0; i < 3; i++) {
        await writeDue(at, 'MCH-SHARE-1', `r1-${i}`, 'https://shared.example.com:8443/one');
        await writeDue(at, 'MCH-SHARE-2', `r2-${i}`, 'https://shared.example.com:8443/two');
      }
      const now = new Date(at.getTime() + 1000);
      const claimed = ofMerchants(await claimAt(now, new Date(now.getTime() + 60_000), 100, { perMerchant: 100, perReceiver: 4, circuitFailures: 100 }), 'MCH-SHARE-1', 'MCH-SHARE-2');
      expect(claimed).toHaveLength(4);
      expect(ofMerchants(claimed, 'MCH-SHARE-1')).toHaveLength(2);
    });

    describe('batches to idle receivers', () => {
      const SHARES = { perMerchant: 4, perReceiver: 4, circuitFailures: CIRCUIT.failures };
      const BATCH = { ...SHARES, receiverBatch: { events: 10, roundMs: 20_000 } };
      const leasesOf = (claimed: ClaimedWebhookEvent[]) => claimed.map((e) => e.lockedUntil?.toISOString()).sort();

      it("leases an idle merchant's events to an idle receiver in one claim, each share a round longer, and nothing more to either while it runs", async () => {
        const at = new Date('2044-01-01T00:00:00.000Z');
        for (let i = 0; i < 12; i++) await writeDue(new Date(at.getTime() + i), 'MCH-BATCHED', `bt-${i}`, 'https://batched.example.com/hooks');
        // Another merchant's event to the same receiver: it waits for the batch, which fills the receiver's share.
        await writeDue(new Date(at.getTime() + 100), 'MCH-BATCHED-OTHER', 'bo-0', 'https://batched.example.com/other');
        const now = new Date(at.getTime() + 1000);
        const claimed = ofMerchants(await claimAt(now, new Date(now.getTime() + 60_000), 100, BATCH), 'MCH-BATCHED', 'MCH-BATCHED-OTHER');
        expect(claimed.map((e) => e.objectId).sort()).toEqual(Array.from({ length: 10 }, (_, i) => `bt-${i}`).sort());
        expect(claimed.every((e) => e.batched)).toBe(true);
        const round = (n: number) => new Date(now.getTime() + 60_000 + n * 20_000).toISOString();
        expect(leasesOf(claimed)).toEqual([...Array(4).fill(round(0)), ...Array(4).fill(round(1)), ...Array(2).fill(round(2))]);
        // The oldest go first: the first round is the four oldest.
        expect(claimed.filter((e) => e.lockedUntil?.toISOString() === round(0)).map((e) => e.objectId).sort()).toEqual(['bt-0', 'bt-1', 'bt-2', 'bt-3']);
        // Ten in flight for the merchant and for the receiver: the next claim takes neither's, another merchant's events to it included.
        expect(ofMerchants(await claimAt(new Date(now.getTime() + 2), new Date(now.getTime() + 60_000), 100, BATCH), 'MCH-BATCHED', 'MCH-BATCHED-OTHER')).toEqual([]);
      });

      it('leaves an event on its last allowed attempt out of a batch past its first round', async () => {
        const at = new Date('2044-05-01T00:00:00.000Z');
        const written = [];
        for (let i = 0; i < 8; i++) written.push(await writeDue(new Date(at.getTime() + i), 'MCH-LAST', `last-${i}`, 'https://last.example.com/hooks'));
        // Redelivered before any attempt: each of the four newest is allowed one attempt only.
        storeNow = at.getTime() + 100;
        for (const event of written.slice(4)) expect(await events.redeliver('MCH-LAST', event.id)).toBe(true);
        const now = new Date(at.getTime() + 1000);
        const claimed = ofMerchants(await claimAt(now, new Date(now.getTime() + 60_000), 100, BATCH), 'MCH-LAST');
        expect(claimed.map((e) => e.objectId).sort()).toEqual(['last-0', 'last-1', 'last-2', 'last-3']);
      });

      it('takes back what a batch never sent: due again at once, under the attempt it had, and only while still leased under it', async () => {
        const at = new Date('2044-06-01T00:00:00.000Z');
        for (let i = 0; i < 6; i++) await writeDue(new Date(at.getTime() + i), 'MCH-RELEASED', `rel-${i}`, 'https://released.example.com/hooks');
        const now = new Date(at.getTime() + 1000);
        const claimed = ofMerchants(await claimAt(now, new Date(now.getTime() + 60_000), 100, BATCH), 'MCH-RELEASED').sort((a, b) => a.objectId.localeCompare(b.objectId));
        expect(claimed).toHaveLength(6);
        storeNow = now.getTime();
        // A stale attempt number moves nothing.
        await events.releaseUnsent(claimed.slice(2).map((e) => ({ id: e.id, attemptCount: e.attemptCount + 1 })));
        expect(ofMerchants(await claimAt(new Date(now.getTime() + 1), new Date(now.getTime() + 60_000), 100, BATCH), 'MCH-RELEASED')).toEqual([]);
        await events.releaseUnsent(claimed.slice(2));
        const listed = await Promise.all(claimed.map((e) => events.find('MCH-RELEASED', e.id)));
        expect(listed.map((e) => [e?.attemptCount, e?.lockedUntil])).toEqual([[1, expect.any(Date)], [1, expect.any(Date)], [0, null], [0, null], [0, null], [0, null]]);
        // Taken again as a first attempt, by the next claim, beside the two still in flight.
        const again = ofMerchants(await claimAt(new Date(now.getTime() + 2), new Date(now.getTime() + 60_000), 100, BATCH), 'MCH-RELEASED');
        expect(again.map((e) => [e.objectId, e.attemptCount]).sort()).toEqual([['rel-2', 1], ['rel-3', 1]]);
      });

      it('gives the share alone, as without batches, to a receiver with a failure counted and to a merchant with an attempt in flight', async () => {
        const at = new Date('2044-02-01T00:00:00.000Z');
        const failed = await writeDue(at, 'MCH-FLAKY', 'fl-0', 'https://flaky.example.com/hooks');
        for (let i = 1; i < 8; i++) await writeDue(new Date(at.getTime() + i), 'MCH-FLAKY', `fl-${i}`, 'https://flaky.example.com/hooks');
        storeNow = at.getTime();
        await recordAnswers(failed, false);
        const now = new Date(at.getTime() + 1000);
        const flaky = ofMerchants(await claimAt(now, new Date(now.getTime() + 60_000), 100, BATCH), 'MCH-FLAKY');
        expect(flaky).toHaveLength(4);
        expect(flaky.some((e) => e.batched)).toBe(false);

        for (let i = 0; i < 8; i++) await writeDue(new Date(now.getTime() + i), 'MCH-BUSY', `bu-${i}`, i === 0 ? 'https://busy-one.example.com/hooks' : 'https://busy-two.example.com/hooks');
        const first = ofMerchants(await claimAt(new Date(now.getTime() + 100), new Date(now.getTime() + 60_000), 1, SHARES), 'MCH-BUSY');
        expect(first.map((e) => e.objectId)).toEqual(['bu-0']);
        // One attempt in flight: its other receiver, idle, gets the merchant's remaining share, no batch.
        const rest = ofMerchants(await claimAt(new Date(now.getTime() + 200), new Date(now.getTime() + 60_000), 100, BATCH), 'MCH-BUSY');
        expect(rest).toHaveLength(3);
        expect(rest.some((e) => e.batched)).toBe(false);
      });

      it("takes every merchant's first share before any batch's second round, and holds a batched merchant's other receivers for after it", async () => {
        const at = new Date('2044-03-01T00:00:00.000Z');
        for (let i = 0; i < 10; i++) await writeDue(new Date(at.getTime() + i), 'MCH-BIG', `big-${i}`, 'https://big.example.com/hooks');
        await writeDue(new Date(at.getTime() + 20), 'MCH-BIG', 'big-elsewhere', 'https://big-elsewhere.example.com/hooks');
        for (let i = 0; i < 4; i++) await writeDue(new Date(at.getTime() + 30 + i), 'MCH-SMALL', `small-${i}`, 'https://small.example.com/hooks');
        const now = new Date(at.getTime() + 1000);
        // Room for eight: each merchant's first share, and none of the batch's second round.
        const claimed = ofMerchants(await claimAt(now, new Date(now.getTime() + 60_000), 8, BATCH), 'MCH-BIG', 'MCH-SMALL');
        expect(claimed.map((e) => e.objectId).sort()).toEqual(['big-0', 'big-1', 'big-2', 'big-3', 'small-0', 'small-1', 'small-2', 'small-3'].sort());
        expect(new Set(leasesOf(claimed))).toEqual(new Set([new Date(now.getTime() + 60_000).toISOString()]));
        expect(ofMerchants(claimed, 'MCH-BIG').every((e) => e.batched)).toBe(true);

        // The merchant's second oldest goes elsewhere: it waits, since the batch alone fills the merchant's share.
        for (let i = 0; i < 8; i++) await writeDue(new Date(now.getTime() + i), 'MCH-PAIR', `pair-${i}`, i === 1 ? 'https://pair-elsewhere.example.com/hooks' : 'https://pair.example.com/hooks');
        const pair = ofMerchants(await claimAt(new Date(now.getTime() + 100), new Date(now.getTime() + 60_000), 100, BATCH), 'MCH-PAIR');
        expect(pair.map((e) => e.objectId).sort()).toEqual(['pair-0', 'pair-2', 'pair-3', 'pair-4', 'pair-5', 'pair-6', 'pair-7']);
      });
    });

    it('opens a receiver\'s circuit after failures in a row, then lets one attempt through at a time until one is answered', async () => {
      const at = new Date('2043-01-01T00:00:00.000Z');
      const failing = await writeDue(at, 'MCH-CIRCUIT', 'c-0', 'https://down.example.com/hooks');
      for (let i = 1; i <= 4; i++) await writeDue(at, 'MCH-CIRCUIT', `c-${i}`, 'https://down.example.com/hooks');
      const fairness = { perMerchant: 100, perReceiver: 100, circuitFailures: CIRCUIT.failures };
      storeNow = at.getTime();
      for (let i = 0; i < CIRCUIT.failures; i++) await recordAnswers(failing, false);
      const claimOwn = async (now: Date) => ofMerchants(await claimAt(now, new Date(now.getTime() + 1000), 100, fairness), 'MCH-CIRCUIT');
      expect(await claimOwn(new Date(at.getTime() + 59_000))).toEqual([]);
      // Open for 60 s; then one at a time.
      const halfOpen = new Date(at.getTime() + 61_000);
      const [probe, ...rest] = await claimOwn(halfOpen);
      expect(probe).toBeDefined();
      expect(rest).toEqual([]);
      // It fails too: open again, for twice as long.
      storeNow = halfOpen.getTime();
      await recordAnswers(failing, false);
      expect(await claimOwn(new Date(halfOpen.getTime() + 119_000))).toEqual([]);
      const again = new Date(halfOpen.getTime() + 121_000);
      expect(await claimOwn(again)).toHaveLength(1);
      // Answered: closed, and every due event goes (the probes too: their leases ended unrecorded).
      storeNow = again.getTime();
      await recordAnswers(failing, true);
      expect(await claimOwn(new Date(again.getTime() + 2000))).toHaveLength(5);
    });

    it("leaves a receiver's circuit as its attempts would one at a time when they are written together, in the order they ended", async () => {
      const at = new Date('2043-06-01T00:00:00.000Z');
      storeNow = at.getTime();
      const one = await writeDue(at, 'MCH-BATCH', 'b-1', 'https://batch-one.example.com/hooks');
      const two = await writeDue(at, 'MCH-BATCH', 'b-2', 'https://batch-two.example.com:8443/hooks');
      await recordAnswers(one, false);
      // Added to the failure before: three in a row, open for 60 s.
      await recordAnswers(one, false, false);
      expect(await circuitOf('https://batch-one.example.com')).toEqual({ failures: 3, openUntil: new Date(at.getTime() + 60_000).toISOString() });
      // An answer in the middle starts the count over: one failure after it, closed.
      await recordAnswers(one, false, true, false);
      expect(await circuitOf('https://batch-one.example.com')).toEqual({ failures: 1, openUntil: null });
      // Four after an answer: open for twice the period; the other receiver, answered last, has no row.
      await recordAnswers(one, true, false, false, false, false);
      expect(await circuitOf('https://batch-one.example.com')).toEqual({ failures: 4, openUntil: new Date(at.getTime() + 120_000).toISOString() });
      await recordAnswers(two, false, false, true);
      expect(await circuitOf('https://batch-two.example.com:8443')).toBeUndefined();
    });

    it('records many attempts in one write, moving each event that no later attempt has claimed', async () => {
      const at = new Date('2043-09-01T00:00:00.000Z');
      const written = [];
      for (let i = 0; i < 3; i++) written.push(await writeDue(at, 'MCH-MANY', `m-${i}`, 'https://many.example.com/hooks'));
      const now = new Date(at.getTime() + 1000);
      const claimed = ofMerchants(await claimAt(now, new Date(now.getTime() + 60_000), 100), 'MCH-MANY');
      expect(claimed).toHaveLength(3);
      const [delivered, retried, outlived] = claimed.sort((a, b) => a.objectId.localeCompare(b.objectId)) as [ClaimedWebhookEvent, ClaimedWebhookEvent, ClaimedWebhookEvent];
      const base = { startedAt: now, durationMs: 5, error: null, responseBody: 'it said "no", then \\ {"a":[1,2]}' };
      storeNow = now.getTime();
      await events.recordAttempts(
        [
          { ...base, eventId: delivered.id, attempt: delivered.attemptCount, statusCode: 200, status: 'delivered', retryInMs: null },
          { ...base, eventId: retried.id, attempt: retried.attemptCount, statusCode: 500, status: 'pending', retryInMs: 5000 },
          // An attempt whose lease a later one took over: kept in the log, and the event is not moved.
          { ...base, eventId: outlived.id, attempt: outlived.attemptCount - 1, statusCode: 200, status: 'delivered', retryInMs: null },
        ],
        CIRCUIT,
      );
      expect(await events.find('MCH-MANY', delivered.id)).toMatchObject({ status: 'delivered', lockedUntil: null, attempts: [{ statusCode: 200, nextAttemptAt: null, responseBody: base.responseBody }] });
      const retry = new Date(now.getTime() + 5000).toISOString();
      expect(await events.find('MCH-MANY', retried.id)).toMatchObject({ status: 'pending', lockedUntil: null, attempts: [{ statusCode: 500, nextAttemptAt: retry }] });
      expect((await events.find('MCH-MANY', retried.id))?.nextAttemptAt.toISOString()).toBe(retry);
      expect(await events.find('MCH-MANY', outlived.id)).toMatchObject({ status: 'pending', attempts: [{ attempt: outlived.attemptCount - 1 }] });
      expect((await events.find('MCH-MANY', outlived.id))?.lockedUntil).not.toBeNull();
    });

    it('deletes ended events and their attempts once past retention, in batches, and keeps pending ones whatever their age', async () => {
      const at = new Date('2044-01-01T00:00:00.000Z');
      const old = [];
      for (let i = 0; i < 3; i++) old.push(await writeDue(at, 'MCH-RETAIN', `old-${i}`, 'https://retain.example.com/hooks'));
      const pending = await writeDue(at, 'MCH-RETAIN', 'old-pending', 'https://retain.example.com/hooks');
      const now = new Date(at.getTime() + 1000);
      const claimed = ofMerchants(await claimAt(now, new Date(now.getTime() + 1000), 100), 'MCH-RETAIN').filter((e) => e.objectId !== 'old-pending');
      for (const event of claimed) {
        await events.recordAttempts([{ eventId: event.id, attempt: event.attemptCount, startedAt: now, durationMs: 5, statusCode: 200, error: null, responseBody: 'ok', status: 'delivered', retryInMs: null }], CIRCUIT);
      }
      const recent = await writeDue(new Date(at.getTime() + 29 * 86_400_000), 'MCH-RETAIN', 'recent', 'https://retain.example.com/hooks');
      await events.recordAttempts([{ eventId: recent.id, attempt: 0, startedAt: now, durationMs: 5, statusCode: 200, error: null, responseBody: 'ok', status: 'delivered', retryInMs: null }], CIRCUIT);

      storeNow = at.getTime() + 30 * 86_400_000 + 1000;
      // Ended events of the other tests, from earlier years, go too.
      expect(await events.deleteEnded(30, 2)).toBe(2);
      while ((await events.deleteEnded(30, 2)) > 0);
      for (const event of old) expect(await events.find('MCH-RETAIN', event.id)).toBeUndefined();
      expect(await events.find('MCH-RETAIN', pending.id)).toMatchObject({ status: 'pending' });
      expect(await events.find('MCH-RETAIN', recent.id)).toMatchObject({ status: 'delivered' });
      const { rows } = await client.query<{ n: number | string }>('SELECT count(*) AS n FROM webhook_attempts WHERE event_id = ANY($1)', [old.map((e) => e.id)]);
      expect(Number(rows[0]?.n)).toBe(0);
    });
  });

  describe('expiry', () => {
    it('abandons only the PENDING payins past expiresAt, of one merchant when asked', async () => {
      const base = new Date('2030-01-01T00:00:00.000Z').getTime();
      const at = (minutes: number) => new Date(base + minutes * 60_000);
      await repository.insertIfAbsent(payin('e-due', { merchantId: 'MCH-E', createdAt: at(0), expiresAt: at(30) }));
      await repository.insertIfAbsent(payin('e-not-yet', { merchantId: 'MCH-E', createdAt: at(0), expiresAt: at(60) }));
      await repository.insertIfAbsent(payin('e-paid', { merchantId: 'MCH-E', createdAt: at(0), expiresAt: at(30) }));
      await repository.insertIfAbsent(payin('e-other', { merchantId: 'MCH-F', createdAt: at(0), expiresAt: at(30) }));
      await repository.transition({ merchantId: 'MCH-E', reference: 'e-paid' }, { to: 'SUCCESSFUL' }, at(10), NO_EVENT);

      expect(await expireAt(at(45), { limit: 100, merchantId: 'MCH-E' }, NO_EVENT)).toEqual([{ merchantId: 'MCH-E', reference: 'e-due' }]);
      expect(await repository.find({ merchantId: 'MCH-E', reference: 'e-due' })).toMatchObject({ status: 'ABANDONED', failedAt: at(30), failureReason: 'checkout_expired' });
      expect((await repository.find({ merchantId: 'MCH-E', reference: 'e-not-yet' }))?.status).toBe('PENDING');
      expect((await repository.find({ merchantId: 'MCH-E', reference: 'e-paid' }))?.status).toBe('SUCCESSFUL');
      expect((await repository.find({ merchantId: 'MCH-F', reference: 'e-other' }))?.status).toBe('PENDING');
    });

    it('splits the due payins between sweepers running at once, each moved once', async () => {
      const base = new Date('2031-01-01T00:00:00.000Z').getTime();
      const references = Array.from({ length: 40 }, (_, i) => `s-${i}`);
      for (const reference of references) await repository.insertIfAbsent(payin(reference, { merchantId: 'MCH-S', createdAt: new Date(base), expiresAt: new Date(base + 1000) }));
      const sweeps = await Promise.all(Array.from({ length: 4 }, () => expireAt(new Date(base + 5000), { limit: 7, merchantId: 'MCH-S' }, NO_EVENT)));
      let rest: Array<{ reference: string }> = [];
      for (let batch = await expireAt(new Date(base + 5000), { limit: 7, merchantId: 'MCH-S' }, NO_EVENT); batch.length > 0; batch = await expireAt(new Date(base + 5000), { limit: 7, merchantId: 'MCH-S' }, NO_EVENT)) {
        rest = rest.concat(batch);
      }
      const moved = [...sweeps.flat(), ...rest].map((k) => k.reference).sort();
      expect(moved).toEqual([...references].sort());
    });
  });

  describe('listing', () => {
    const base = new Date('2032-01-01T00:00:00.000Z').getTime();
    const merchantId = 'MCH-L';
    beforeAll(async () => {
      // Two payins share each creation millisecond, so the reference breaks ties.
      for (let i = 0; i < 10; i++) {
        await repository.insertIfAbsent(payin(`l-${i}`, { merchantId, createdAt: new Date(base + Math.floor(i / 2) * 1000), expiresAt: new Date(base + 3_600_000) }));
      }
      await repository.transition({ merchantId, reference: 'l-3' }, { to: 'SUCCESSFUL' }, new Date(base + 10_000), NO_EVENT);
      await repository.insertIfAbsent(payin('l-other', { merchantId: 'MCH-M', createdAt: new Date(base) }));
    });

    it('lists newest first, then by reference descending, one merchant only', async () => {
      const all = await repository.list({ merchantId, limit: 100 }, new Date(base));
      expect(all.map((p) => p.reference)).toEqual(['l-9', 'l-8', 'l-7', 'l-6', 'l-5', 'l-4', 'l-3', 'l-2', 'l-1', 'l-0']);
    });

    it('continues after a position, across equal creation times', async () => {
      const page = await repository.list({ merchantId, limit: 3, after: { createdAt: new Date(base + 3000), reference: 'l-7' } }, new Date(base));
      expect(page.map((p) => p.reference)).toEqual(['l-6', 'l-5', 'l-4']);
    });

    it('filters by status and by creation time, from inclusive and to exclusive', async () => {
      expect((await repository.list({ merchantId, limit: 100, status: 'SUCCESSFUL' }, new Date(base))).map((p) => p.reference)).toEqual(['l-3']);
      const window = await repository.list({ merchantId, limit: 100, createdFrom: new Date(base + 1000), createdTo: new Date(base + 3000) }, new Date(base));
      expect(window.map((p) => p.reference)).toEqual(['l-5', 'l-4', 'l-3', 'l-2']);
    });
  });

  it('answers ping', async () => {
    await expect(repository.ping()).resolves.toBeUndefined();
  });
}

describe('PayinRepository on PGlite', () => {
  // The SQL on a copy of the migrated template; durability on disk is the next test's.
  repositorySuite(async () => {
    const client = await openPgliteFromTemplate();
    return { client, dispose: () => client.close() };
  });

  // A new database on disk is created twice here (initdb in WebAssembly): seconds each, more on a busy machine.
  const ON_DISK_TIMEOUT_MS = 120_000;

  it('survives a restart of the service, on a new database on disk', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'restart-'));
    const body = '{"amount":25,"currency":"NGN","customerEmail":"ada@example.com","reference":"durable-1"}';
    const first = await startTestApp({ DATA_DIR: dataDir });
    const created = await signedCall(first.baseUrl, { path: '/payment/api/payins', body, credential: MERCHANT_A });
    expect(created.status).toBe(201);
    await first.app.close();
    const second = await startTestApp({ DATA_DIR: dataDir });
    try {
      const read = await signedCall(second.baseUrl, { path: '/payment/api/payins/durable-1', credential: MERCHANT_A });
      // Without PUBLIC_BASE_URL the link is on the address the service listens on, which changed; its token did not.
      expect(read.json).toEqual({ ...(created.json as object), checkoutUrl: String(created.json.checkoutUrl).replace(first.baseUrl, second.baseUrl) });
    } finally {
      await second.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, ON_DISK_TIMEOUT_MS);
});

describeWithStore('PostgreSQL', DATABASE_URL, 'PayinRepository on PostgreSQL', () => {
  repositorySuite(() => openPrivateSchema('payins_test', SCHEMA));

  it('survives its connection dying in the middle of a transaction: the transaction fails, the process does not', async () => {
    const schema = `payins_kill_${process.pid}_${Date.now()}`;
    const admin = new Pool({ connectionString: DATABASE_URL });
    await admin.query(`CREATE SCHEMA ${schema}`);
    const client = await openPostgres(DATABASE_URL, { schema, migrations: SCHEMA });
    try {
      // The backend ends itself, as a failover or an operator's pg_terminate_backend would.
      await expect(client.transaction((tx) => tx.query('SELECT pg_terminate_backend(pg_backend_pid())'))).rejects.toThrow();
      await new Promise((resolve) => setTimeout(resolve, 100));
      // The pool dropped the dead connection and answers on a new one.
      expect((await client.query<{ one: number }>('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
    } finally {
      await client.close();
      await admin.query(`DROP SCHEMA ${schema} CASCADE`);
      await admin.end();
    }
  });

  it('runs migrations once when two instances boot together', async () => {
    const schema = `payins_migrate_${process.pid}_${Date.now()}`;
    const admin = new Pool({ connectionString: DATABASE_URL });
    await admin.query(`CREATE SCHEMA ${schema}`);
    try {
      const clients = await Promise.all([openPostgres(DATABASE_URL, { schema, migrations: SCHEMA }), openPostgres(DATABASE_URL, { schema, migrations: SCHEMA })]);
      const { rows } = await admin.query(`SELECT count(*)::int AS n FROM ${schema}.schema_migrations`);
      expect(rows[0].n).toBe(SCHEMA.length);
      await Promise.all(clients.map((c) => c.close()));
    } finally {
      await admin.query(`DROP SCHEMA ${schema} CASCADE`);
      await admin.end();
    }
  });

  it('opens a database a newer release migrated, as a rollback does: it warns that the schema is ahead and applies nothing', async () => {
    const schema = `payins_ahead_${process.pid}_${Date.now()}`;
    const admin = new Pool({ connectionString: DATABASE_URL });
    await admin.query(`CREATE SCHEMA ${schema}`);
    try {
      await (await openPostgres(DATABASE_URL, { schema, migrations: SCHEMA })).close();
      const lines: Array<Record<string, unknown>> = [];
      const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) });
      const previousRelease = SCHEMA.slice(0, -1);
      const client = await openPostgres(DATABASE_URL, { schema, migrations: previousRelease, logger });
      await client.close();
      expect(lines).toContainEqual(expect.objectContaining({ level: 40, msg: expect.stringContaining('schema is ahead of this release'), newerMigrations: [SCHEMA[SCHEMA.length - 1]?.id] }));
      expect(lines).not.toContainEqual(expect.objectContaining({ msg: 'applying payin store migration' }));
      const { rows } = await admin.query(`SELECT count(*)::int AS n FROM ${schema}.schema_migrations`);
      expect(rows[0].n).toBe(SCHEMA.length);
    } finally {
      await admin.query(`DROP SCHEMA ${schema} CASCADE`);
      await admin.end();
    }
  });

  it('serves payins end to end with DATABASE_URL set', async () => {
    // A database of the test's own, dropped afterwards.
    const database = `paysign_e2e_${process.pid}_${Date.now()}`;
    const admin = new Pool({ connectionString: DATABASE_URL });
    await admin.query(`CREATE DATABASE ${database}`);
    const url = new URL(DATABASE_URL);
    url.pathname = `/${database}`;
    const api = await startTestApp({ DATABASE_URL: url.toString() });
    try {
      const reference = `pg-e2e-${Date.now()}`;
      const created = await signedCall(api.baseUrl, { path: '/payment/api/payins', body: JSON.stringify({ amount: 12.34, currency: 'NGN', customerEmail: 'ada@example.com', reference }), credential: MERCHANT_A });
      expect(created.status).toBe(201);
      expect((await signedCall(api.baseUrl, { path: `/payment/api/payins/${reference}`, credential: MERCHANT_A })).json).toEqual(created.json);
    } finally {
      await api.close();
      await admin.query(`DROP DATABASE ${database} WITH (FORCE)`);
      await admin.end();
    }
  });
});
