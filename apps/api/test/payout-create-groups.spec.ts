// Payout creates written in groups (one transaction for the creates of one merchant that queued behind the last)
// answer exactly what the same creates answer written one at a time: each is judged alone, in its turn.
import fc from 'fast-check';
import type { SqlClient } from '../src/db/sql-client';
import { EventOutbox } from '../src/events/event-outbox';
import { checkLedger } from '../src/ledger-invariants';
import { InsufficientBalanceError, Ledger } from '../src/ledger/ledger';
import { PayinCredits } from '../src/ledger/payin-credits';
import { DEFAULT_FEES } from '../src/money/fees';
import { SqlPayinRepository } from '../src/payins/sql-payin.repository';
import { PayoutBatchStore } from '../src/payouts/payout-batch-store';
import { PayoutStore, type CreateOutcome, type NewPayout } from '../src/payouts/payout-store';
import { openPgliteFromTemplate } from './support/pglite-template';

const NOW = new Date('2026-11-24T09:00:00.000Z');
const START = { status: 'QUEUED' as const, approvalTtlMs: 60_000, batchMaxItems: 1000 };

describe('payout creates written in groups', () => {
  let client: SqlClient;
  let transactions = 0;
  beforeAll(async () => {
    const opened = await openPgliteFromTemplate();
    // Counts the transactions, to show that creates were grouped.
    client = { ...opened, transaction: (work) => (transactions++, opened.transaction(work)) };
  });
  afterAll(() => client.close());

  it('answer each create as one at a time would: created, the same reference again, the daily limit, a short balance; balances, events and the ledger agree', async () => {
    const storeClock = () => NOW.getTime();
    const ledger = new Ledger(client, storeClock);
    const outbox = new EventOutbox({ firstAttemptDelayMs: 0, storeClock });
    const payins = new SqlPayinRepository(client, outbox, storeClock, new PayinCredits(ledger, () => DEFAULT_FEES, 0));
    const batches = new PayoutBatchStore(client, ledger, outbox, storeClock, () => []);
    const storeOf = (groupMax: number) => new PayoutStore(client, ledger, outbox, storeClock, batches, undefined, groupMax);
    const eventOf = (payout: { merchantId: string; reference: string; version: number; createdAt: Date }) =>
      outbox.events({ merchantId: payout.merchantId, objectType: 'payout', objectId: payout.reference, type: 'payout.queued', version: payout.version, occurredAt: payout.createdAt, data: {}, targets: [{ notifyUrl: 'https://merchant.example/hooks' }] });
    const fund = async (merchantId: string, amountMinor: bigint) => {
      if (amountMinor === 0n) return;
      const reference = `funds-${merchantId}`;
      await payins.insertIfAbsent({
        merchantId, reference, amountMinor, currency: 'NGN', customerEmail: 'ada@example.com', customerName: null, gateway: null, narration: null, notifyUrl: null, redirectUrl: null,
        requestFingerprint: 'f', createdAt: NOW, expiresAt: new Date(NOW.getTime() + 1_800_000), checkoutSeed: `seed-${merchantId}`, checkoutTokenHash: `hash-${merchantId}`, provider: 'sandbox',
      });
      await payins.transition({ merchantId, reference }, { to: 'SUCCESSFUL' }, NOW, () => []);
    };
    const payoutOf = (merchantId: string, create: { reference: number; amountMinor: bigint }): NewPayout => ({
      merchantId, reference: `p-${create.reference}`, amountMinor: create.amountMinor, feeMinor: DEFAULT_FEES.payoutMinor, currency: 'NGN', bankCode: '058', accountNumber: '0123456785',
      accountName: 'ADAEZE NWOSU', nameMatch: 'not_checked', narration: 'x', enquiryId: 'enq_AAAAAAAAAAAAAAAAAAAAAA', notifyUrl: null, requestFingerprint: `f-${create.amountMinor}`, createdBy: 'pk_groups', batchReference: null,
    });
    const answerOf = (created: Promise<CreateOutcome>) =>
      created.then(
        (outcome) => ('refused' in outcome ? outcome : { created: outcome.created, reference: outcome.payout.reference, amountMinor: outcome.payout.amountMinor, status: outcome.payout.status }),
        (error: unknown) => {
          if (error instanceof InsufficientBalanceError) return { shortMinor: error.shortMinor };
          throw error;
        },
      );
    const eventsOf = async (merchantId: string) => (await client.query<{ n: string }>('SELECT count(*)::text AS n FROM outbox_events WHERE merchant_id = $1', [merchantId])).rows[0]?.n;
    let run = 0;

    await fc.assert(
      fc.asyncProperty(
        // Few references, so that the same one comes again within a group and across groups.
        fc.array(fc.record({ reference: fc.nat({ max: 6 }), amountMinor: fc.bigInt({ min: 10_000n, max: 2_000_000n }) }), { minLength: 1, maxLength: 30 }),
        fc.bigInt({ min: 0n, max: 12_000_000n }),
        fc.bigInt({ min: 0n, max: 8_000_000n }),
        fc.integer({ min: 2, max: 8 }),
        async (creates, fundsMinor, dailyLimitMinor, groupMax) => {
          const alone = `MCH-ALONE-${run}`;
          const grouped = `MCH-GROUPED-${run++}`;
          await fund(alone, fundsMinor);
          await fund(grouped, fundsMinor);

          const oneAtATime = storeOf(1);
          const answersAlone = [];
          for (const create of creates) answersAlone.push(await answerOf(oneAtATime.create(payoutOf(alone, create), START, dailyLimitMinor, NOW, eventOf)));

          const before = transactions;
          const inGroups = storeOf(groupMax);
          const answersGrouped = await Promise.all(creates.map((create) => answerOf(inGroups.create(payoutOf(grouped, create), START, dailyLimitMinor, NOW, eventOf))));

          expect(answersGrouped).toEqual(answersAlone);
          // The first create is written at once and the rest queue behind it: groups of up to groupMax.
          expect(transactions - before).toBe(creates.length === 1 ? 1 : 1 + Math.ceil((creates.length - 1) / groupMax));
          const { currency, ...balanceAlone } = await ledger.balanceOf(alone, 'NGN');
          expect(await ledger.balanceOf(grouped, 'NGN')).toEqual({ currency, ...balanceAlone });
          expect(await eventsOf(grouped)).toBe(await eventsOf(alone));
          expect(await checkLedger(client)).toEqual([]);
        },
      ),
      { numRuns: 40 },
    );
  }, 120_000);
});
