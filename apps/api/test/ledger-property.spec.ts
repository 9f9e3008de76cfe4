// Random interleavings of everything that moves money, on the embedded store: after each step the
// ledger's invariants hold, and each balance equals a model of the money kept apart from the ledger.
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import type { SqlClient } from '../src/db/sql-client';
import { EventOutbox } from '../src/events/event-outbox';
import { checkLedger } from '../src/ledger-invariants';
import { InsufficientBalanceError, Ledger } from '../src/ledger/ledger';
import { PayinCredits } from '../src/ledger/payin-credits';
import { DEFAULT_FEES, payinFeeMinor } from '../src/money/fees';
import { SqlPayinRepository } from '../src/payins/sql-payin.repository';
import type { PayoutTransition } from '../src/payouts/payout-states';
import { PayoutBatchStore } from '../src/payouts/payout-batch-store';
import { PayoutStore, type StoredPayout } from '../src/payouts/payout-store';
import { RefundStore, type StoredRefund } from '../src/refunds/refund-store';
import { openPgliteFromTemplate } from './support/pglite-template';

const SETTLEMENT_DELAY_MS = 3_600_000;
const PAYOUT_FEE = DEFAULT_FEES.payoutMinor;
const NO_EVENT = () => [];

type Step =
  | { kind: 'payin'; amountMinor: bigint }
  | { kind: 'settle' }
  | { kind: 'payout'; amountMinor: bigint }
  | { kind: 'succeed' | 'fail' | 'cancel' | 'reverse'; pick: number }
  | { kind: 'refund'; pick: number; amountMinor: bigint }
  | { kind: 'refund_succeed' | 'refund_fail' | 'refund_cancel'; pick: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('payin' as const), amountMinor: fc.bigInt({ min: 100n, max: 5_000_000n }) }),
  fc.constant({ kind: 'settle' as const }),
  fc.record({ kind: fc.constant('payout' as const), amountMinor: fc.bigInt({ min: 10_000n, max: 3_000_000n }) }),
  fc.record({ kind: fc.constantFrom('succeed' as const, 'fail' as const, 'cancel' as const, 'reverse' as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant('refund' as const), pick: fc.nat(), amountMinor: fc.bigInt({ min: 1n, max: 3_000_000n }) }),
  fc.record({ kind: fc.constantFrom('refund_succeed' as const, 'refund_fail' as const, 'refund_cancel' as const), pick: fc.nat() }),
);

/** The merchant's money as the steps should leave it, kept by plain arithmetic, apart from the ledger. */
interface Model {
  available: bigint;
  pending: bigint;
  held: bigint;
  /** Credits not yet settled, by payin: what is left of each to settle, after the refunds drawn from it. */
  unsettled: Map<string, bigint>;
  payouts: Array<{ reference: string; status: StoredPayout['status']; totalMinor: bigint }>;
  payins: Array<{ reference: string; amountMinor: bigint; refundedOrInFlightMinor: bigint }>;
  refunds: Array<{ reference: string; payinReference: string; status: StoredRefund['status']; amountMinor: bigint; fundedFrom: 'pending' | 'available' }>;
}

describe('the ledger under random interleavings of payins, settlements, payouts, refunds and their outcomes', () => {
  let client: SqlClient;
  let storeNow = Date.parse('2026-11-24T09:00:00.000Z');
  const storeClock = () => storeNow;
  beforeAll(async () => {
    client = await openPgliteFromTemplate();
  });
  afterAll(() => client.close());

  it('keeps every invariant, and balances equal to the model, after every step', async () => {
    const ledger = new Ledger(client, storeClock);
    const payins = new SqlPayinRepository(client, new EventOutbox({ firstAttemptDelayMs: 0, storeClock }), storeClock, new PayinCredits(ledger, () => DEFAULT_FEES, SETTLEMENT_DELAY_MS));
    const outbox = new EventOutbox({ firstAttemptDelayMs: 0, storeClock });
    const payouts = new PayoutStore(client, ledger, outbox, storeClock, new PayoutBatchStore(client, ledger, outbox, storeClock, () => []));
    const refunds = new RefundStore(client, ledger, outbox, storeClock);
    let run = 0;

    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 5, maxLength: 30 }), async (steps) => {
        const merchantId = `MCH-PROP-${run++}`;
        const model: Model = { available: 0n, pending: 0n, held: 0n, unsettled: new Map(), payouts: [], payins: [], refunds: [] };
        for (const [i, current] of steps.entries()) {
          const now = new Date(storeNow);
          const reference = `${current.kind}-${i}`;
          switch (current.kind) {
            case 'payin': {
              await payins.insertIfAbsent({
                merchantId, reference, amountMinor: current.amountMinor, currency: 'NGN', customerEmail: 'ada@example.com', customerName: null, gateway: null, narration: null, notifyUrl: null, redirectUrl: null,
                requestFingerprint: 'f', createdAt: now, expiresAt: new Date(storeNow + 1_800_000), checkoutSeed: `seed-${merchantId}-${i}`, checkoutTokenHash: `hash-${merchantId}-${i}`, provider: 'sandbox',
              });
              await payins.transition({ merchantId, reference }, { to: 'SUCCESSFUL' }, now, NO_EVENT);
              const net = current.amountMinor - payinFeeMinor(current.amountMinor, DEFAULT_FEES);
              model.pending += net;
              model.unsettled.set(reference, net);
              model.payins.push({ reference, amountMinor: current.amountMinor, refundedOrInFlightMinor: 0n });
              break;
            }
            case 'settle':
              storeNow += SETTLEMENT_DELAY_MS;
              while ((await ledger.settleDue(100, new Date(storeNow))) > 0);
              for (const net of model.unsettled.values()) {
                model.pending -= net;
                model.available += net;
              }
              model.unsettled.clear();
              break;
            case 'refund': {
              const payin = model.payins[current.pick % Math.max(1, model.payins.length)];
              if (!payin) break;
              const left = payin.amountMinor - payin.refundedOrInFlightMinor;
              const amountMinor = current.amountMinor < left ? current.amountMinor : left;
              const unsettled = model.unsettled.get(payin.reference);
              const expected = left === 0n ? 'exceeds-payin' : unsettled !== undefined && unsettled > amountMinor ? 'pending' : model.available >= amountMinor ? 'available' : 'insufficient-balance';
              const newRefund = { merchantId, reference, payinReference: payin.reference, amountMinor: left === 0n ? 1n : amountMinor, reason: null, merchantNote: null, customerNote: null, notifyUrl: null, requestFingerprint: 'f', createdBy: 'pk_prop' };
              const outcome = await refunds.create(newRefund, () => ({ provider: 'sandbox', returnsFee: false }), now, NO_EVENT);
              if ('refused' in outcome) {
                expect(outcome.refused).toBe(expected);
                break;
              }
              expect(outcome.refund.fundedFrom).toBe(expected);
              payin.refundedOrInFlightMinor += amountMinor;
              model.held += amountMinor;
              if (outcome.refund.fundedFrom === 'pending') {
                model.pending -= amountMinor;
                model.unsettled.set(payin.reference, (unsettled as bigint) - amountMinor);
              } else model.available -= amountMinor;
              model.refunds.push({ reference, payinReference: payin.reference, status: 'PENDING', amountMinor, fundedFrom: outcome.refund.fundedFrom });
              break;
            }
            case 'refund_succeed':
            case 'refund_fail':
            case 'refund_cancel': {
              const wanted = current.kind === 'refund_cancel' ? ['PENDING'] : ['PENDING', 'PROCESSING'];
              const candidates = model.refunds.filter((refund) => wanted.includes(refund.status));
              const target = candidates[current.pick % Math.max(1, candidates.length)];
              if (!target) break;
              const key = { merchantId, reference: target.reference };
              if (current.kind !== 'refund_cancel' && target.status === 'PENDING') {
                await refunds.move(key, { to: 'PROCESSING', providerReference: `psr_${randomUUID()}` }, now, NO_EVENT);
                target.status = 'PROCESSING';
              }
              const to = current.kind === 'refund_succeed' ? 'SUCCESSFUL' : current.kind === 'refund_fail' ? 'FAILED' : 'CANCELLED';
              expect(await refunds.move(key, to === 'FAILED' ? { to, reason: 'declined_by_provider' } : { to }, now, NO_EVENT)).toMatchObject({ status: to });
              target.status = to;
              model.held -= target.amountMinor;
              if (to !== 'SUCCESSFUL') {
                const payin = model.payins.find((p) => p.reference === target.payinReference) as Model['payins'][number];
                payin.refundedOrInFlightMinor -= target.amountMinor;
                const unsettled = model.unsettled.get(target.payinReference);
                // Back to where it came from: the payin's unsettled credit while it has one, else available.
                if (target.fundedFrom === 'pending' && unsettled !== undefined) {
                  model.unsettled.set(target.payinReference, unsettled + target.amountMinor);
                  model.pending += target.amountMinor;
                } else model.available += target.amountMinor;
              }
              break;
            }
            case 'payout': {
              const total = current.amountMinor + PAYOUT_FEE;
              const payout = { merchantId, reference, amountMinor: current.amountMinor, feeMinor: PAYOUT_FEE, currency: 'NGN' as const, bankCode: '058', accountNumber: '0123456785', accountName: 'ADAEZE NWOSU', nameMatch: 'not_checked' as const, narration: 'x', enquiryId: 'enq_AAAAAAAAAAAAAAAAAAAAAA', notifyUrl: null, requestFingerprint: 'f', createdBy: 'pk_prop', batchReference: null };
              const created = await payouts.create(payout, { status: 'QUEUED', approvalTtlMs: 60_000, batchMaxItems: 1000 }, 10n ** 15n, now, NO_EVENT).catch((error: unknown) => {
                if (error instanceof InsufficientBalanceError) return 'refused' as const;
                throw error;
              });
              expect(created === 'refused').toBe(model.available < total);
              if (created !== 'refused') {
                model.available -= total;
                model.held += total;
                model.payouts.push({ reference, status: 'QUEUED', totalMinor: total });
              }
              break;
            }
            default: {
              const wanted = { succeed: ['QUEUED', 'PROCESSING'], fail: ['QUEUED', 'PROCESSING'], cancel: ['QUEUED'], reverse: ['SUCCESSFUL'] }[current.kind];
              const candidates = model.payouts.filter((payout) => wanted.includes(payout.status));
              const target = candidates[current.pick % Math.max(1, candidates.length)];
              if (!target) break;
              const key = { merchantId, reference: target.reference };
              if (current.kind !== 'cancel' && current.kind !== 'reverse' && target.status === 'QUEUED') {
                await payouts.move(key, { to: 'PROCESSING', provider: 'sandbox', providerReference: `PSX-${randomUUID().replaceAll('-', '')}` }, now, NO_EVENT);
                target.status = 'PROCESSING';
              }
              const transition: PayoutTransition =
                current.kind === 'succeed' ? { to: 'SUCCESSFUL' } : current.kind === 'fail' ? { to: 'FAILED', reason: 'do_not_honor' } : current.kind === 'cancel' ? { to: 'CANCELLED', reason: 'cancelled_by_merchant' } : { to: 'REVERSED', reason: 'reversed_by_beneficiary_bank' };
              expect(await payouts.move(key, transition, now, NO_EVENT)).toMatchObject({ status: transition.to });
              target.status = transition.to;
              if (transition.to === 'SUCCESSFUL') model.held -= target.totalMinor;
              if (transition.to === 'FAILED' || transition.to === 'CANCELLED') {
                model.held -= target.totalMinor;
                model.available += target.totalMinor;
              }
              if (transition.to === 'REVERSED') model.available += target.totalMinor;
            }
          }
          expect(await checkLedger(client)).toEqual([]);
          expect(await ledger.balanceOf(merchantId, 'NGN')).toEqual({ currency: 'NGN', availableMinor: model.available, pendingMinor: model.pending, heldMinor: model.held });
        }
      }),
      { numRuns: 25 },
    );
  }, 120_000);
});
