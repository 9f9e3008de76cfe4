// The daily limit as the per-minute totals keep it: a payout counts for 24 hours until the end of its minute, stops
// counting when it fails or is cancelled, and payouts created before the totals existed are counted from the first boot.
import { PGlite } from '@electric-sql/pglite';
import type { SqlClient } from '../src/db/sql-client';
import { pgliteClient } from '../src/db/sql-clients';
import { EventOutbox } from '../src/events/event-outbox';
import { Ledger } from '../src/ledger/ledger';
import { PayinCredits } from '../src/ledger/payin-credits';
import { DEFAULT_FEES } from '../src/money/fees';
import { SqlPayinRepository } from '../src/payins/sql-payin.repository';
import { PayoutBatchStore } from '../src/payouts/payout-batch-store';
import { PAYOUT_DAILY_TOTALS } from '../src/payouts/payouts.migrations';
import { PayoutStore, type NewPayout } from '../src/payouts/payout-store';
import { SCHEMA } from '../src/schema';
import { openPgliteFromTemplate } from './support/pglite-template';

const START = { status: 'QUEUED' as const, approvalTtlMs: 60_000, batchMaxItems: 1000 };
const DAY_MS = 86_400_000;
const MERCHANT = 'MCH-DAILY';

function storesOn(client: SqlClient) {
  const storeClock = () => Date.parse('2026-11-24T10:00:00.000Z');
  const ledger = new Ledger(client, storeClock);
  const outbox = new EventOutbox({ firstAttemptDelayMs: 0, storeClock });
  const payins = new SqlPayinRepository(client, outbox, storeClock, new PayinCredits(ledger, () => DEFAULT_FEES, 0));
  const payouts = new PayoutStore(client, ledger, outbox, storeClock, new PayoutBatchStore(client, ledger, outbox, storeClock, () => []));
  const fund = async (amountMinor: bigint) => {
    const at = new Date(storeClock());
    await payins.insertIfAbsent({
      merchantId: MERCHANT, reference: 'funds', amountMinor, currency: 'NGN', customerEmail: 'ada@example.com', customerName: null, gateway: null, narration: null, notifyUrl: null, redirectUrl: null,
      requestFingerprint: 'f', createdAt: at, expiresAt: new Date(at.getTime() + 1_800_000), checkoutSeed: 'seed-daily', checkoutTokenHash: 'hash-daily', provider: 'sandbox',
    });
    await payins.transition({ merchantId: MERCHANT, reference: 'funds' }, { to: 'SUCCESSFUL' }, at, () => []);
  };
  const payout = (reference: string, amountMinor: bigint): NewPayout => ({
    merchantId: MERCHANT, reference, amountMinor, feeMinor: 0n, currency: 'NGN', bankCode: '058', accountNumber: '0123456785', accountName: 'ADAEZE NWOSU', nameMatch: 'not_checked',
    narration: 'x', enquiryId: 'enq_AAAAAAAAAAAAAAAAAAAAAA', notifyUrl: null, requestFingerprint: reference, createdBy: 'pk_daily', batchReference: null,
  });
  /** Whether a create of `amountMinor` at `at` is admitted under a daily limit of `limitMinor`. */
  const admitted = async (reference: string, amountMinor: bigint, limitMinor: bigint, at: string) => {
    const outcome = await payouts.create(payout(reference, amountMinor), START, limitMinor, new Date(at), () => []);
    return 'refused' in outcome ? outcome : 'created';
  };
  return { fund, payouts, admitted };
}

describe('the daily total of payouts', () => {
  it('counts a payout for 24 hours until the end of its minute, and not once it is cancelled', async () => {
    const client = await openPgliteFromTemplate();
    try {
      const { fund, payouts, admitted } = storesOn(client);
      await fund(10_000_000n);
      expect(await admitted('first', 600_000n, 1_000_000n, '2026-11-24T10:00:10.000Z')).toBe('created');
      expect(await admitted('second', 400_000n, 1_000_000n, '2026-11-24T10:00:40.000Z')).toBe('created');
      expect(await admitted('over', 1n, 1_000_000n, '2026-11-24T10:05:00.000Z')).toEqual({ refused: 'daily-limit', usedMinor: 1_000_000n });
      // 24 hours and 50 seconds after the first: both still count, to the end of their minute.
      expect(await admitted('edge', 1n, 1_000_000n, '2026-11-25T10:00:59.999Z')).toEqual({ refused: 'daily-limit', usedMinor: 1_000_000n });
      expect(await admitted('next-minute', 1_000_000n, 1_000_000n, '2026-11-25T10:01:00.000Z')).toBe('created');

      // A cancelled payout's amount is free again at once; the other one created in its minute still counts.
      expect(await admitted('later', 300_000n, 2_000_000n, '2026-11-25T10:02:00.000Z')).toBe('created');
      expect(await admitted('over-again', 700_001n, 2_000_000n, '2026-11-25T10:02:30.000Z')).toEqual({ refused: 'daily-limit', usedMinor: 1_300_000n });
      await payouts.move({ merchantId: MERCHANT, reference: 'later' }, { to: 'CANCELLED', reason: 'cancelled_by_merchant' }, new Date('2026-11-25T10:02:40.000Z'), () => []);
      expect(await admitted('after-cancel', 1_000_000n, 2_000_000n, '2026-11-25T10:02:50.000Z')).toBe('created');
    } finally {
      await client.close();
    }
  });

  it('counts the payouts created before the totals existed, from the migration that adds them', async () => {
    const db = new PGlite();
    const before = await pgliteClient(db, { migrations: SCHEMA.filter((migration) => migration.id < PAYOUT_DAILY_TOTALS.id) });
    await before.query(
      `INSERT INTO payouts (merchant_id, reference, status, amount_minor, fee_minor, currency, bank_code, account_number, account_name, name_match, narration, enquiry_id, request_fingerprint, created_at)
       VALUES ($1, 'kept', 'QUEUED', 250000, 0, 'NGN', '058', '0123456785', 'ADAEZE NWOSU', 'not_checked', 'x', 'enq_x', 'f', '2026-11-24T09:59:00Z'),
              ($1, 'failed', 'FAILED', 900000, 0, 'NGN', '058', '0123456785', 'ADAEZE NWOSU', 'not_checked', 'x', 'enq_x', 'f', '2026-11-24T09:59:00Z')`,
      [MERCHANT],
    );
    const client = await pgliteClient(db, { migrations: SCHEMA });
    try {
      const { fund, admitted } = storesOn(client);
      await fund(10_000_000n);
      expect(await admitted('over', 750_001n, 1_000_000n, '2026-11-24T10:00:00.000Z')).toEqual({ refused: 'daily-limit', usedMinor: 250_000n });
      expect(await admitted('fits', 750_000n, 1_000_000n, '2026-11-24T10:00:00.000Z')).toBe('created');
      expect(await admitted('a-day-on', 1_000_000n, 1_000_000n, new Date(Date.parse('2026-11-24T10:00:00.000Z') + DAY_MS + 60_000).toISOString())).toBe('created');
    } finally {
      await client.close();
    }
  });
});
