import type { FailureReason, Payin, PayinAttempt, PayinChannel, PayinStatus } from '@paysign/contracts';
import type { PayinEventOf } from './payin-events';
import type { PayinTransition } from './payin-states';

/** Injection token of the PayinRepository. */
export const PayinRepository = Symbol('PayinRepository');

/** A payin as stored: amounts in minor units, plus the fingerprint of the create request. */
export interface NewPayin {
  merchantId: string;
  reference: string;
  amountMinor: bigint;
  currency: Payin['currency'];
  customerEmail: string;
  customerName: string | null;
  /** The channel the merchant asked for; null: any the provider offers. */
  gateway: PayinChannel | null;
  /** The provider of record, fixed at create: the gateway that takes the payin, and the only one ever asked about it. Null only on a row the release before this one wrote, until the next boot records it. */
  provider: string | null;
  narration: string | null;
  notifyUrl: string | null;
  redirectUrl: string | null;
  /** SHA-256 of the normalised create request; equal fingerprints are the same request. */
  requestFingerprint: string;
  createdAt: Date;
  expiresAt: Date;
  /** What the checkout token is derived from; the token itself is never stored (see CheckoutTokens). */
  checkoutSeed: string;
  /** SHA-256 of the checkout token, the key the checkout page finds the payin by. */
  checkoutTokenHash: string;
}

export interface StoredPayin extends Omit<NewPayin, 'checkoutSeed' | 'checkoutTokenHash'> {
  status: PayinStatus;
  paidAt: Date | null;
  failedAt: Date | null;
  failureReason: FailureReason | null;
  /** Null only for payins created before checkout existed. */
  checkoutSeed: string | null;
  /** The merchant's fee, set when the payin succeeds and its credit is posted; null before. */
  feeMinor: bigint | null;
  /** 1 when created, one more with each change; the version its events carry. */
  version: number;
  /** Set once the payin is started at a hosted gateway: its reference there, and the page the customer pays on. */
  providerReference: string | null;
  providerPaymentUrl: string | null;
  /** The provider reported another amount or currency, or a payment once the payin was final: an operator must look. */
  needsAttention: boolean;
  /** What its SUCCESSFUL refunds returned, and what its refunds in flight hold: together never more than its amount (refunds/refund-store.ts keeps them). */
  refundedMinor: bigint;
  refundingMinor: bigint;
  /** Each try at paying at checkout, oldest first. */
  attempts: StoredPayinAttempt[];
}

/** One try at paying: a card submitted, a transfer or USSD payment confirmed. */
export interface StoredPayinAttempt {
  channel: PayinChannel;
  outcome: PayinAttempt['outcome'];
  /** Null when it succeeded. */
  declineReason: PayinAttempt['declineReason'];
  attemptedAt: Date;
}

export type NewPayinAttempt = StoredPayinAttempt;

/** A payin's start at a hosted gateway. */
export interface ProviderStart {
  /** The provider it was started at: recorded here on a row that had none yet. */
  provider: string;
  providerReference: string;
  paymentPageUrl: string;
  firstCheckAt: Date;
}

export interface TransitionOptions {
  /** The provider confirmed the outcome: recorded even at or past expiry, while the payin is still PENDING. */
  confirmedByProvider?: boolean;
}

export interface PayinKey {
  merchantId: string;
  reference: string;
}

export interface PayinListQuery {
  merchantId: string;
  status?: PayinStatus;
  /** Inclusive. */
  createdFrom?: Date;
  /** Exclusive. */
  createdTo?: Date;
  /** Only payins after this position in the listing order (newest first). */
  after?: { createdAt: Date; reference: string };
  limit: number;
  /** Only payins created for this channel. */
  gateway?: PayinChannel;
  /** Payins any of these match (the dashboard's one search box): the reference, the customer's email case-insensitively, the amount. */
  matching?: PayinMatch;
}

/** What a search for one payin or customer matches, each exactly; at least one is given. */
export interface PayinMatch {
  reference?: string;
  /** Matched case-insensitively. */
  email?: string;
  amountMinor?: bigint;
}

export interface PayinRepository {
  /**
   * Stores the payin unless (merchantId, reference) exists, atomically.
   * Resolves with the new payin, or with the existing one and `created: false`.
   * Rejects when the store fails: then nothing may be reported as created.
   */
  insertIfAbsent(payin: NewPayin): Promise<{ created: boolean; payin: StoredPayin }>;
  find(key: PayinKey): Promise<StoredPayin | undefined>;
  findByCheckoutTokenHash(tokenHash: string): Promise<StoredPayin | undefined>;
  /**
   * Moves a PENDING payin to a final state as one compare-and-set: of two
   * concurrent attempts exactly one resolves with the payin; the other, like
   * any attempt on a final payin, resolves undefined. Only ABANDONED may be
   * entered at or after `expiresAt`. `eventOf` gives the webhook event of the
   * payin that moved, written in the same transaction (the outbox).
   */
  transition(key: PayinKey, transition: PayinTransition, now: Date, eventOf: PayinEventOf, options?: TransitionOptions): Promise<StoredPayin | undefined>;
  /**
   * Records an attempt at paying a PENDING payin still open at its
   * `attemptedAt`, numbered after the earlier ones, and in the same
   * transaction the move it makes (transitionOfAttempt): paid, failed at the
   * `maxAttempts`-th decline or one that ends it, or still open with its
   * version one on. `eventOf` gives the event of the payin as changed.
   * Concurrent attempts are taken one at a time, in order. Resolves
   * undefined, recording nothing, when the payin is final or expired.
   */
  recordAttempt(key: PayinKey, attempt: NewPayinAttempt, maxAttempts: number, eventOf: PayinEventOf): Promise<StoredPayin | undefined>;
  /**
   * Records the payin's start at a hosted gateway, unless it was started
   * already or is no longer PENDING: of two concurrent starts one is kept;
   * the other's provider payment is never shown to anyone, so it cannot be paid.
   */
  recordProviderStart(key: PayinKey, start: ProviderStart): Promise<StoredPayin | undefined>;
  findByProviderReference(provider: string, providerReference: string): Promise<StoredPayin | undefined>;
  /** Takes up to `limit` PENDING payins whose provider check is due, by the store's clock, moving each's next check `leaseMs` on: instances take disjoint ones. */
  claimProviderChecks(limit: number, leaseMs: number): Promise<StoredPayin[]>;
  /** Sets the next provider check of a payin still PENDING whose checks were not stopped, and raises `needsAttention` when asked; never lowers it. */
  scheduleProviderCheck(key: PayinKey, nextCheckAt: Date, needsAttention: boolean): Promise<StoredPayin | undefined>;
  /** Raises `needsAttention` and stops the payin's provider checks; resolves the payin only when this call raised it, so that it is reported once. */
  flagForAttention(key: PayinKey): Promise<StoredPayin | undefined>;
  /**
   * Abandons up to `limit` PENDING payins whose `expiresAt` has passed by the
   * store's clock, of one merchant or of all; safe to run on several
   * instances at once, since each payin moves once. Resolves with the keys it moved.
   */
  expireDue(options: { limit: number; merchantId?: string }, eventOf: PayinEventOf): Promise<PayinKey[]>;
  /**
   * The merchant's payins in listing order: newest first, then by reference,
   * descending. The status filter is on the state at `now`: a PENDING payin
   * past its expiry is listed as ABANDONED, and not as PENDING.
   */
  list(query: PayinListQuery, now: Date): Promise<StoredPayin[]>;
  ping(): Promise<void>;
  close(): Promise<void>;
}
