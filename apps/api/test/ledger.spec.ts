// The ledger on both stores: the embedded PGlite and PostgreSQL.
import type { SqlClient } from '../src/db/sql-client';
import { migrate } from '../src/db/migrations';
import { checkLedger } from '../src/ledger-invariants';
import { InsufficientBalanceError, Ledger, UnbalancedJournalError, type Journal } from '../src/ledger/ledger';
import { LEDGER } from '../src/ledger/ledger.migrations';
import { SCHEMA } from '../src/schema';
import { openPgliteFromTemplate } from './support/pglite-template';
import { DATABASE_URL, describeWithStore, openPrivateSchema } from './support/stores';

/** The store's clock, which the tests move: settlement is due by it. */
let storeNow = new Date('2026-11-24T09:00:00.000Z').getTime();
const storeClock = () => storeNow;
const AT = new Date('2026-11-24T09:00:00.000Z');
const SETTLEMENT_DELAY_MS = 86_400_000;

const credit = (merchantId: string, reference: string, amountMinor: bigint, feeMinor = 0n) => ({ merchantId, reference, currency: 'NGN', amountMinor, feeMinor });

/** Money that leaves `available`: what a payout's hold will be. Here a journal of the test's own, to show the guard on any debit. */
const debit = (merchantId: string, reference: string, amountMinor: bigint): Journal => ({
  type: 'settlement',
  merchantId,
  currency: 'NGN',
  objectType: 'payin',
  objectId: reference,
  lines: [
    { account: { merchantId, currency: 'NGN', kind: 'available' }, type: 'settlement', amountMinor: -amountMinor },
    { account: { merchantId: null, currency: 'NGN', kind: 'provider_settlement' }, type: 'settlement', amountMinor },
  ],
});

function ledgerSuite(open: () => Promise<{ client: SqlClient; dispose: () => Promise<void> }>) {
  let client: SqlClient;
  let ledger: Ledger;
  let dispose: () => Promise<void>;
  beforeAll(async () => {
    storeNow = AT.getTime();
    ({ client, dispose } = await open());
    ledger = new Ledger(client, storeClock);
  });
  afterAll(() => dispose());

  it('refuses a journal that does not sum to zero, or moves nothing, and writes none of it', async () => {
    const unbalanced = { ...debit('MCH-U', 'u-1', 100n), lines: [{ account: { merchantId: 'MCH-U', currency: 'NGN', kind: 'available' as const }, type: 'settlement' as const, amountMinor: 100n }] };
    await expect(client.transaction((tx) => ledger.post(tx, unbalanced, AT))).rejects.toThrow(UnbalancedJournalError);
    await expect(client.transaction((tx) => ledger.post(tx, { ...debit('MCH-U', 'u-2', 0n) }, AT))).rejects.toThrow(UnbalancedJournalError);
    expect((await client.query("SELECT id FROM ledger_journals WHERE merchant_id = 'MCH-U'")).rows).toEqual([]);
  });

  it('posts many journals in one call: each once, one posted before and one given twice not again, the balances moved by the sum', async () => {
    await client.transaction((tx) => ledger.creditPayin(tx, credit('MCH-M', 'm-funds', 10_000n), AT, 0));
    await client.transaction((tx) => ledger.post(tx, debit('MCH-M', 'm-1', 1_000n), AT));
    const posted = await client.transaction((tx) => ledger.postMany(tx, [debit('MCH-M', 'm-1', 1_000n), debit('MCH-M', 'm-2', 2_000n), debit('MCH-M', 'm-3', 3_000n), debit('MCH-M', 'm-2', 2_000n)], AT));
    expect(posted).toEqual([false, true, true, false]);
    expect(await ledger.balanceOf('MCH-M', 'NGN')).toEqual({ currency: 'NGN', availableMinor: 4_000n, pendingMinor: 0n, heldMinor: 0n });
    const entries = await client.query<{ object_id: string; n: string }>("SELECT object_id, count(*)::text AS n FROM ledger_entries WHERE merchant_id = 'MCH-M' AND type = 'settlement' AND object_id LIKE 'm-_' GROUP BY object_id ORDER BY object_id");
    expect(entries.rows).toEqual([{ object_id: 'm-1', n: '1' }, { object_id: 'm-2', n: '1' }, { object_id: 'm-3', n: '1' }]);
    expect(await checkLedger(client)).toEqual([]);
    // Short on the sum: nothing of the call is posted.
    await expect(client.transaction((tx) => ledger.postMany(tx, [debit('MCH-M', 'm-4', 3_000n), debit('MCH-M', 'm-5', 3_000n)], AT))).rejects.toThrow(InsufficientBalanceError);
    expect(await ledger.balanceOf('MCH-M', 'NGN')).toMatchObject({ availableMinor: 4_000n });
  });

  it("credits a payin to pending, less its fee, and settles it to available once its delay has passed by the store's clock", async () => {
    await client.transaction((tx) => ledger.creditPayin(tx, credit('MCH-S', 's-1', 100_050n, 1_501n), AT, SETTLEMENT_DELAY_MS));
    expect(await ledger.balanceOf('MCH-S', 'NGN')).toEqual({ currency: 'NGN', availableMinor: 0n, pendingMinor: 98_549n, heldMinor: 0n });
    expect(await checkLedger(client)).toEqual([]);
    storeNow = AT.getTime() + SETTLEMENT_DELAY_MS - 1;
    expect(await ledger.settleDue(100, AT)).toBe(0);
    storeNow = AT.getTime() + SETTLEMENT_DELAY_MS;
    expect(await ledger.settleDue(100, AT)).toBeGreaterThanOrEqual(1);
    expect(await ledger.balanceOf('MCH-S', 'NGN')).toEqual({ currency: 'NGN', availableMinor: 98_549n, pendingMinor: 0n, heldMinor: 0n });
    expect(await checkLedger(client)).toEqual([]);
  });

  it('posts a journal once per object: crediting the same payin twice credits it once', async () => {
    await client.transaction((tx) => ledger.creditPayin(tx, credit('MCH-O', 'o-1', 5_000n), AT, 0));
    await client.transaction((tx) => ledger.creditPayin(tx, credit('MCH-O', 'o-1', 5_000n), AT, 0));
    expect(await ledger.balanceOf('MCH-O', 'NGN')).toMatchObject({ availableMinor: 5_000n, pendingMinor: 0n });
    expect(await checkLedger(client)).toEqual([]);
  });

  it('settles each due credit once when instances settle together', async () => {
    const base = storeNow;
    for (let i = 0; i < 30; i++) await client.transaction((tx) => ledger.creditPayin(tx, credit('MCH-N', `n-${i}`, 1_000n), AT, SETTLEMENT_DELAY_MS));
    storeNow = base + SETTLEMENT_DELAY_MS;
    const settled = await Promise.all([1, 2, 3].map(() => ledger.settleDue(7, AT)));
    let total = settled.reduce((sum, n) => sum + n, 0);
    for (let more = await ledger.settleDue(100, AT); more > 0; more = await ledger.settleDue(100, AT)) total += more;
    expect(total).toBe(30);
    expect(await ledger.balanceOf('MCH-N', 'NGN')).toMatchObject({ availableMinor: 30_000n, pendingMinor: 0n });
    expect(await checkLedger(client)).toEqual([]);
  });

  it('never takes a merchant balance below zero, however many debits race: of 20 debits of a fifth each, exactly 5 commit', async () => {
    await client.transaction((tx) => ledger.creditPayin(tx, credit('MCH-R', 'r-funds', 10_000n), AT, 0));
    const outcomes = await Promise.allSettled(Array.from({ length: 20 }, (_, i) => client.transaction((tx) => ledger.post(tx, debit('MCH-R', `r-${i}`, 2_000n), AT))));
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(5);
    const refusals = outcomes.filter((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
    expect(refusals).toHaveLength(15);
    for (const refusal of refusals) expect(refusal.reason).toBeInstanceOf(InsufficientBalanceError);
    expect(await ledger.balanceOf('MCH-R', 'NGN')).toMatchObject({ availableMinor: 0n });
    expect(await checkLedger(client)).toEqual([]);
  });

  it('keeps entries immutable: an update or a delete is refused by the database itself', async () => {
    await expect(client.query("UPDATE ledger_entries SET amount_minor = 1 WHERE merchant_id = 'MCH-O'")).rejects.toThrow(/immutable/);
    await expect(client.query("DELETE FROM ledger_entries WHERE merchant_id = 'MCH-O'")).rejects.toThrow(/immutable/);
  });

  it('lists entries newest first, a page at a time', async () => {
    const first = await ledger.entriesOf({ merchantId: 'MCH-N', currency: 'NGN', limit: 4 });
    const next = await ledger.entriesOf({ merchantId: 'MCH-N', currency: 'NGN', limit: 100, afterId: BigInt(first[3]?.id ?? 0) });
    const all = [...first, ...next];
    expect(all).toHaveLength(30 * 3);
    expect(all.map((entry) => BigInt(entry.id))).toEqual([...all.map((entry) => BigInt(entry.id))].sort((a, b) => (a > b ? -1 : 1)));
    expect(await ledger.entriesOf({ merchantId: 'MCH-NOBODY', currency: 'NGN', limit: 10 })).toEqual([]);
  });

  it('is checked by its invariants: an entry written around the ledger is found, with its journal and account', async () => {
    const { rows } = await client.query<{ id: string }>("SELECT id::text AS id FROM ledger_journals WHERE merchant_id = 'MCH-O' AND type = 'payin_credit'");
    await client.query(
      `INSERT INTO ledger_entries (journal_id, account_id, merchant_id, kind, currency, type, amount_minor, object_type, object_id, created_at)
       VALUES ($1, 'merchant:MCH-O:NGN:pending', 'MCH-O', 'pending', 'NGN', 'payin_credit', 1, 'payin', 'o-1', now())`,
      [rows[0]?.id],
    );
    const problems = await checkLedger(client);
    expect(problems.map((problem) => problem.invariant)).toEqual(['each journal sums to zero', 'each merchant balance equals the sum of its entries']);
    expect(problems[0]?.rows).toEqual([expect.objectContaining({ object_id: 'o-1', sum_minor: '1' })]);
    expect(problems[1]?.rows).toEqual([expect.objectContaining({ account: 'merchant:MCH-O:NGN:pending', balance_minor: '0', entries_minor: '1' })]);
  });
}

describe('the ledger on PGlite', () => {
  ledgerSuite(async () => {
    const client = await openPgliteFromTemplate();
    return { client, dispose: () => client.close() };
  });
});

describeWithStore('PostgreSQL', DATABASE_URL, 'the ledger on PostgreSQL', () => {
  ledgerSuite(() => openPrivateSchema('ledger', SCHEMA));

  it('credits in full the payins that succeeded before the ledger existed, and settles them at the next run', async () => {
    // Migrated as a service before the ledger left it, then opened by one with it, which migrates the rest.
    const { client: before, dispose } = await openPrivateSchema('ledger_backfill', SCHEMA.filter((migration) => migration.id < LEDGER.id));
    try {
      for (const [reference, status, amount] of [['b-paid', 'SUCCESSFUL', 150_050], ['b-failed', 'FAILED', 99], ['b-paid-2', 'SUCCESSFUL', 50]] as const) {
        await before.query(
          `INSERT INTO payins (merchant_id, reference, status, amount_minor, currency, customer_email, request_fingerprint, created_at, expires_at, paid_at)
           VALUES ('MCH-B', $1, $2, $3, 'NGN', 'ada@example.com', 'f', now(), now() + interval '30 minutes', CASE WHEN $2 = 'SUCCESSFUL' THEN now() END)`,
          [reference, status, amount],
        );
      }
      await migrate(before, SCHEMA);
      const after = before;
      const ledger = new Ledger(after, 'database');
      expect(await ledger.balanceOf('MCH-B', 'NGN')).toMatchObject({ availableMinor: 0n, pendingMinor: 150_100n });
      expect((await after.query<{ fee_minor: string | null }>("SELECT fee_minor::text AS fee_minor FROM payins WHERE merchant_id = 'MCH-B' ORDER BY reference")).rows.map((row) => row.fee_minor)).toEqual([null, '0', '0']);
      expect(await checkLedger(after)).toEqual([]);
      expect(await ledger.settleDue(100, new Date())).toBe(2);
      expect(await ledger.balanceOf('MCH-B', 'NGN')).toMatchObject({ availableMinor: 150_100n, pendingMinor: 0n });
      expect(await checkLedger(after)).toEqual([]);
    } finally {
      await dispose();
    }
  });
});
