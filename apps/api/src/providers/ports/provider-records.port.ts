/** The kinds of object a provider keeps records of that we reconcile against ours. */
export type RecordObjectType = 'payin' | 'payout' | 'refund';

/**
 * What a provider's record says of the money, in our words; each adapter
 * documents how its provider's statuses map to these. `in_flight`: not yet
 * decided at the provider. `reversed`: paid, then returned (a transfer).
 * `requires_action`: waiting for something only the merchant or customer can
 * give (a refund's bank account).
 */
export type RecordOutcome = 'paid' | 'not_paid' | 'in_flight' | 'reversed' | 'requires_action';

/** One record of the provider's, as listed. */
export interface ProviderRecord {
  objectType: RecordObjectType;
  /** Our provider reference of the object (a payin's, payout's or refund's `provider_reference`), read from the record; null when it carries none of ours. */
  providerReference: string | null;
  /** The provider's own name of the record: its reference, or its id where it has no reference of its own. */
  theirReference: string;
  amountMinor: bigint;
  currency: string;
  outcome: RecordOutcome;
  /** The provider's own status word, as reported: for the operator, never decided on. */
  status: string;
  createdAt: Date;
}

/** One settlement of the provider's to our bank account, as listed: figures only (docs/reconciliation.md says why nothing is matched to it). */
export interface ProviderSettlement {
  theirReference: string;
  status: string;
  currency: string;
  /** What reached the bank account: processed less fees and deductions. */
  totalMinor: bigint;
  feesMinor: bigint;
  processedMinor: bigint;
  settledOn: string | null;
}

/** How a listing is read: its page size, the most pages it may take, and each call's own deadline. */
export interface ListingOptions {
  signal: AbortSignal;
  pageSize: number;
  /** A listing with more pages than this rejects (it is never cut short and taken for the whole). */
  maxPages: number;
  /** The longest one page's call may take. */
  timeoutMs: number;
}

/**
 * The provider records port: what the provider itself holds of a day, for
 * reconciliation against our own rows. What an adapter must guarantee:
 * - `list` resolves every record created in [from, to) by the provider's
 *   clock (it may add records just outside: the caller filters), having
 *   read its listing to the end; a failed, timed-out or unreadable page, or
 *   a listing longer than `maxPages`, rejects, and never resolves a part of
 *   it, so that a failure is never taken for "nothing there";
 * - a record's `providerReference` is one our adapters minted, or null.
 * A provider with no records of its own (the sandbox) has no adapter for
 * this port, and reconciliation reports it not applicable.
 */
export interface ProviderRecords {
  list(objectType: RecordObjectType, window: { from: Date; to: Date }, options: ListingOptions): Promise<ProviderRecord[]>;
  settlements(window: { from: Date; to: Date }, options: ListingOptions): Promise<ProviderSettlement[]>;
}
