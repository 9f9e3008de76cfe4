import type { ProviderRecord } from '../providers/ports/provider-records.port';
import { identityOf, matchDay, type OurRecord } from './reconciliation-match';

const DAY = { from: new Date('2026-03-01T00:00:00Z'), to: new Date('2026-03-02T00:00:00Z') };
const AT = new Date('2026-03-01T10:00:00Z');

const ours = (given: Partial<OurRecord> = {}): OurRecord => ({
  objectType: 'payout',
  merchantId: 'MCH-A',
  reference: 'order-1',
  providerReference: 'PSX-1',
  amountMinor: 1000n,
  currency: 'NGN',
  status: 'SUCCESSFUL',
  failureReason: null,
  needsAttention: false,
  createdAt: AT,
  ...given,
});
const theirs = (given: Partial<ProviderRecord> = {}): ProviderRecord => ({
  objectType: 'payout',
  providerReference: 'PSX-1',
  theirReference: 'psx-1',
  amountMinor: 1000n,
  currency: 'NGN',
  outcome: 'paid',
  status: 'success',
  createdAt: AT,
  ...given,
});

describe('matchDay', () => {
  const cases: Array<[string, { ours: OurRecord[]; theirs: ProviderRecord[]; elsewhere?: OurRecord[] }, { kinds: string[]; matched?: number; inFlight?: number; ignored?: number }]> = [
    ['a pair that agrees', { ours: [ours()], theirs: [theirs()] }, { kinds: [], matched: 1 }],
    ['a successful record of theirs we never heard of', { ours: [], theirs: [theirs({ objectType: 'payin', providerReference: null, theirReference: 'elsewhere' })] }, { kinds: ['missing_ours'] }],
    ['an abandoned record of theirs that is none of ours', { ours: [], theirs: [theirs({ objectType: 'payin', outcome: 'not_paid', status: 'abandoned' })] }, { kinds: [], ignored: 1 }],
    ['a paid payout of ours the provider does not list', { ours: [ours()], theirs: [] }, { kinds: ['missing_theirs'] }],
    ['a failed payout of ours the provider never took', { ours: [ours({ status: 'FAILED' })], theirs: [] }, { kinds: [], matched: 1 }],
    ['a transfer reversed there and successful here', { ours: [ours()], theirs: [theirs({ outcome: 'reversed', status: 'reversed' })] }, { kinds: ['status_differs'] }],
    ['a transfer reversed there that never reached the beneficiary, failed here', { ours: [ours({ status: 'FAILED' })], theirs: [theirs({ outcome: 'reversed', status: 'reversed' })] }, { kinds: [], matched: 1 }],
    ['another amount', { ours: [ours()], theirs: [theirs({ amountMinor: 1100n })] }, { kinds: ['amount_differs'] }],
    ['another currency', { ours: [ours()], theirs: [theirs({ currency: 'USD' })] }, { kinds: ['currency_differs'] }],
    ['ours in flight, theirs paid: not yet a discrepancy', { ours: [ours({ status: 'PROCESSING' })], theirs: [theirs()] }, { kinds: [], inFlight: 1 }],
    ['ours in flight and flagged, theirs paid', { ours: [ours({ status: 'PROCESSING', needsAttention: true })], theirs: [theirs()] }, { kinds: ['status_differs'] }],
    ['ours in flight, not listed there yet', { ours: [ours({ status: 'PROCESSING' })], theirs: [] }, { kinds: [], inFlight: 1 }],
    ['theirs of the day, ours created the day before', { ours: [], theirs: [theirs()], elsewhere: [ours({ createdAt: new Date('2026-02-28T23:59:59Z') })] }, { kinds: [], matched: 1 }],
    ['theirs of the next day, none of ours that day: left to its own run', { ours: [], theirs: [theirs({ createdAt: new Date('2026-03-02T00:10:00Z') })] }, { kinds: [] }],
  ];

  it.each(cases)('%s', (_name, given, want) => {
    const elsewhere = new Map((given.elsewhere ?? []).map((record) => [`${record.objectType}:${record.providerReference}`, record]));
    const { counts, discrepancies } = matchDay({ day: DAY, ours: given.ours, theirs: given.theirs, oursElsewhere: elsewhere });
    expect(discrepancies.map((d) => d.kind)).toEqual(want.kinds);
    const all = Object.values(counts).reduce((sum, c) => ({ matched: sum.matched + c.matched, inFlight: sum.inFlight + c.inFlight, ignored: sum.ignored + c.ignored }), { matched: 0, inFlight: 0, ignored: 0 });
    expect(all).toEqual({ matched: want.matched ?? 0, inFlight: want.inFlight ?? 0, ignored: want.ignored ?? 0 });
  });

  it('names a discrepancy the same on every run, by its kind, object and reference', () => {
    const [found] = matchDay({ day: DAY, ours: [ours()], theirs: [theirs({ amountMinor: 1n })], oursElsewhere: new Map() }).discrepancies;
    expect(identityOf(found as NonNullable<typeof found>)).toBe('payout:amount_differs:PSX-1');
    expect(identityOf({ kind: 'missing_ours', objectType: 'payin', providerReference: null, theirReference: 'abc' })).toBe('payin:missing_ours:theirs:abc');
  });
});
