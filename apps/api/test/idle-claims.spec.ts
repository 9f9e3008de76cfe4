// The background claims on an idle store (db/idle-claim-gate.ts): one cheap
// statement a poll, no transaction, and work still claimed as soon as it waits.
// One suite, both stores: the embedded PGlite and PostgreSQL.
import type { SqlClient, SqlQueryable } from '../src/db/sql-client';
import { EventOutbox } from '../src/events/event-outbox';
import { Ledger } from '../src/ledger/ledger';
import { PayoutSendStore } from '../src/payouts/payout-send-store';
import { RefundStore } from '../src/refunds/refund-store';
import { SCHEMA } from '../src/schema';
import { SqlWebhookEventRepository } from '../src/webhooks/sql-webhook-event.repository';
import { DATABASE_URL, describeWithStore, openPrivateSchema } from './support/stores';
import { openPgliteFromTemplate } from './support/pglite-template';

const storeClock = () => Date.parse('2026-11-27T10:00:00.000Z');
const outbox = new EventOutbox({ firstAttemptDelayMs: 0, storeClock });
const FAIRNESS = { perMerchant: 10, perReceiver: 10, circuitFailures: 10 };

/** The client, with the statements and transactions run through it counted. */
function counted(client: SqlClient) {
  const counts = { statements: 0, transactions: 0 };
  const countedQueryable = (queryable: SqlQueryable): SqlQueryable => ({
    query: (sql, params, options) => {
      counts.statements += 1;
      return queryable.query(sql, params, options);
    },
  });
  const wrapped: SqlClient = {
    ...countedQueryable(client),
    transaction: (work) => {
      counts.transactions += 1;
      return client.transaction((tx) => work(countedQueryable(tx)));
    },
    close: () => client.close(),
  };
  return { client: wrapped, counts, reset: () => Object.assign(counts, { statements: 0, transactions: 0 }) };
}

function idleClaimsSuite(open: () => Promise<{ client: SqlClient; dispose: () => Promise<void> }>) {
  let store: Awaited<ReturnType<typeof open>>;
  beforeAll(async () => {
    store = await open();
  });
  afterAll(() => store.dispose());

  it('claims webhook events with one statement and no transaction while none is pending, and takes one as soon as it is', async () => {
    const { client, counts, reset } = counted(store.client);
    const events = new SqlWebhookEventRepository(client, storeClock, 3);
    for (let poll = 0; poll < 3; poll++) expect(await events.claimDue(30_000, 10, FAIRNESS)).toEqual([]);
    expect(counts).toEqual({ statements: 3, transactions: 0 });

    const [event] = outbox.events({ merchantId: 'M-1', objectType: 'payin', objectId: 'p-1', type: 'payin.succeeded', version: 1, occurredAt: new Date(storeClock()), data: {}, targets: [{ notifyUrl: 'https://merchant.example/hooks' }] });
    await outbox.writeMany(store.client, [event!]);
    reset();
    expect((await events.claimDue(30_000, 10, FAIRNESS)).map((claimed) => claimed.id)).toEqual([event!.id]);
    expect(counts.transactions).toBe(1);

    // After a claim that took something, the next runs in full (its event is leased now, so it takes nothing); the one after asks first, finds the leased event pending, and runs in full too.
    reset();
    expect(await events.claimDue(30_000, 10, FAIRNESS)).toEqual([]);
    expect(await events.claimDue(30_000, 10, FAIRNESS)).toEqual([]);
    expect(counts.transactions).toBe(2);
  });

  it('claims queued payouts and pending refunds with one statement each and no transaction while none waits', async () => {
    const { client, counts } = counted(store.client);
    const payouts = new PayoutSendStore(client, storeClock);
    const refunds = new RefundStore(client, new Ledger(client, storeClock), outbox, storeClock);
    for (let poll = 0; poll < 3; poll++) {
      expect(await payouts.claimQueued(10, new Date(storeClock()), 5000, { provider: 'sandbox', newReference: () => 'never' })).toEqual([]);
      expect(await refunds.claimPending(10, new Date(storeClock()), 5000, { providers: ['sandbox'], newReference: () => 'never' }, () => [])).toEqual([]);
    }
    expect(counts).toEqual({ statements: 6, transactions: 0 });
  });
}

describe('idle claims on PGlite', () => {
  idleClaimsSuite(async () => {
    const client = await openPgliteFromTemplate();
    return { client, dispose: () => client.close() };
  });
});

describeWithStore('PostgreSQL', DATABASE_URL, 'idle claims on PostgreSQL', () => {
  idleClaimsSuite(() => openPrivateSchema('idle_claims_test', SCHEMA));
});
