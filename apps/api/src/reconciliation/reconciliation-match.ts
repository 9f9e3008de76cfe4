import type { ProviderRecord, RecordObjectType, RecordOutcome } from '../providers/ports/provider-records.port';

/** The kinds of discrepancy, each with its fix in docs/reconciliation.md. */
export const DISCREPANCY_KINDS = ['missing_ours', 'missing_theirs', 'amount_differs', 'currency_differs', 'status_differs'] as const;
export type DiscrepancyKind = (typeof DISCREPANCY_KINDS)[number];
export const RECORD_OBJECT_TYPES: readonly RecordObjectType[] = ['payin', 'payout', 'refund'];

/** One of our objects as reconciliation compares it. */
export interface OurRecord {
  objectType: RecordObjectType;
  merchantId: string;
  /** The merchant's reference of the object. */
  reference: string;
  providerReference: string;
  amountMinor: bigint;
  currency: string;
  status: string;
  failureReason: string | null;
  needsAttention: boolean;
  createdAt: Date;
}

/** A mismatch found, before it is recorded. */
export interface FoundDiscrepancy {
  kind: DiscrepancyKind;
  objectType: RecordObjectType;
  merchantId: string | null;
  ourReference: string | null;
  providerReference: string | null;
  theirReference: string | null;
  ours: Record<string, unknown> | null;
  theirs: Record<string, unknown> | null;
}

/** Per object type: pairs that agree, ours still in flight (not compared yet), and their records left aside (not paid, and none of ours). */
export type MatchCounts = Record<RecordObjectType, { matched: number; inFlight: number; ignored: number }>;

/**
 * Our statuses in the words provider records use (RecordOutcome): what
 * reconciliation compares, since each side has statuses of its own.
 */
export const OUR_OUTCOMES: Readonly<Record<RecordObjectType, Readonly<Record<string, RecordOutcome>>>> = {
  payin: { SUCCESSFUL: 'paid', FAILED: 'not_paid', ABANDONED: 'not_paid', CANCELLED: 'not_paid', PENDING: 'in_flight' },
  payout: { SUCCESSFUL: 'paid', REVERSED: 'reversed', FAILED: 'not_paid', CANCELLED: 'not_paid', PENDING_APPROVAL: 'in_flight', BATCHED: 'in_flight', QUEUED: 'in_flight', PROCESSING: 'in_flight' },
  refund: { SUCCESSFUL: 'paid', FAILED: 'not_paid', CANCELLED: 'not_paid', REQUIRES_ACTION: 'requires_action', PENDING: 'in_flight', PROCESSING: 'in_flight' },
};

export const outcomeOf = (record: Pick<OurRecord, 'objectType' | 'status'>): RecordOutcome => OUR_OUTCOMES[record.objectType][record.status] ?? 'in_flight';

/**
 * The in-flight rule: an object of ours not yet final, and not flagged for
 * an operator, is still being settled by its own status checks; it is not a
 * discrepancy yet, whatever the provider says. Once its checks run out it is
 * flagged (needsAttention), and is compared like any other.
 */
export const inFlight = (ours: OurRecord): boolean => outcomeOf(ours) === 'in_flight' && !ours.needsAttention;

/** Whether the two sides say the same of the money. A transfer a provider reports reversed before it reached the beneficiary is a failure here. */
function sameOutcome(objectType: RecordObjectType, ours: RecordOutcome, theirs: RecordOutcome): boolean {
  return ours === theirs || (objectType === 'payout' && ours === 'not_paid' && theirs === 'reversed');
}

export const ourJson = (ours: OurRecord): Record<string, unknown> => ({
  merchantId: ours.merchantId,
  reference: ours.reference,
  providerReference: ours.providerReference,
  status: ours.status,
  amountMinor: ours.amountMinor.toString(),
  currency: ours.currency,
  needsAttention: ours.needsAttention,
  createdAt: ours.createdAt.toISOString(),
});

export const theirJson = (theirs: ProviderRecord): Record<string, unknown> => ({
  theirReference: theirs.theirReference,
  providerReference: theirs.providerReference,
  status: theirs.status,
  outcome: theirs.outcome,
  amountMinor: theirs.amountMinor.toString(),
  currency: theirs.currency,
  createdAt: theirs.createdAt.toISOString(),
});

/**
 * Matches one day both ways, by our provider reference. `ours`: our
 * objects created in the day; `theirs`: the provider's records of the day
 * and a margin either side; `oursElsewhere`: our objects, of any day, that
 * the provider's records of the day name but `ours` does not (a payin
 * created a moment before midnight, started at the provider after it). A
 * record of theirs outside the day, matching none of ours, belongs to the
 * run of its own day.
 */
export function matchDay(input: { day: { from: Date; to: Date }; ours: readonly OurRecord[]; theirs: readonly ProviderRecord[]; oursElsewhere: ReadonlyMap<string, OurRecord> }): { counts: MatchCounts; discrepancies: FoundDiscrepancy[] } {
  const counts = Object.fromEntries(RECORD_OBJECT_TYPES.map((type) => [type, { matched: 0, inFlight: 0, ignored: 0 }])) as MatchCounts;
  const discrepancies: FoundDiscrepancy[] = [];
  const key = (objectType: string, providerReference: string) => `${objectType}:${providerReference}`;
  const theirsByRef = new Map<string, ProviderRecord>();
  for (const record of input.theirs) if (record.providerReference !== null) theirsByRef.set(key(record.objectType, record.providerReference), record);
  const seen = new Set<ProviderRecord>();

  const compare = (ours: OurRecord, theirs: ProviderRecord) => {
    seen.add(theirs);
    const found: FoundDiscrepancy[] = [];
    const of = (kind: DiscrepancyKind): FoundDiscrepancy => ({ kind, objectType: ours.objectType, merchantId: ours.merchantId, ourReference: ours.reference, providerReference: ours.providerReference, theirReference: theirs.theirReference, ours: ourJson(ours), theirs: theirJson(theirs) });
    if (ours.amountMinor !== theirs.amountMinor) found.push(of('amount_differs'));
    if (ours.currency !== theirs.currency) found.push(of('currency_differs'));
    if (inFlight(ours)) {
      if (found.length === 0) counts[ours.objectType].inFlight++;
    } else if (!sameOutcome(ours.objectType, outcomeOf(ours), theirs.outcome)) found.push(of('status_differs'));
    if (found.length === 0 && !inFlight(ours)) counts[ours.objectType].matched++;
    discrepancies.push(...found);
  };

  for (const ours of input.ours) {
    const theirs = theirsByRef.get(key(ours.objectType, ours.providerReference));
    if (theirs) {
      compare(ours, theirs);
      continue;
    }
    const outcome = outcomeOf(ours);
    // Never heard of at the provider: fine for one still in flight, or one that moved no money (a send the provider refused).
    if (inFlight(ours)) counts[ours.objectType].inFlight++;
    else if (outcome === 'not_paid') counts[ours.objectType].matched++;
    else discrepancies.push({ kind: 'missing_theirs', objectType: ours.objectType, merchantId: ours.merchantId, ourReference: ours.reference, providerReference: ours.providerReference, theirReference: null, ours: ourJson(ours), theirs: null });
  }

  for (const theirs of input.theirs) {
    if (seen.has(theirs) || theirs.createdAt < input.day.from || theirs.createdAt >= input.day.to) continue;
    const elsewhere = theirs.providerReference === null ? undefined : input.oursElsewhere.get(key(theirs.objectType, theirs.providerReference));
    if (elsewhere) compare(elsewhere, theirs);
    // A record that moved no money and is none of ours (a payment page opened outside the service) is left aside, counted.
    else if (theirs.outcome === 'not_paid') counts[theirs.objectType].ignored++;
    else discrepancies.push({ kind: 'missing_ours', objectType: theirs.objectType, merchantId: null, ourReference: null, providerReference: theirs.providerReference, theirReference: theirs.theirReference, ours: null, theirs: theirJson(theirs) });
  }
  return { counts, discrepancies };
}

/** What makes a discrepancy the same one on every run: its kind, its object, and the reference that names it. */
export function identityOf(discrepancy: Pick<FoundDiscrepancy, 'kind' | 'objectType' | 'providerReference' | 'theirReference'>): string {
  return `${discrepancy.objectType}:${discrepancy.kind}:${discrepancy.providerReference ?? `theirs:${discrepancy.theirReference}`}`;
}
