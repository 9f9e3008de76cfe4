import type { Payin } from '@paysign/contracts';

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
  gateway: string | null;
  narration: string | null;
  notifyUrl: string | null;
  redirectUrl: string | null;
  /** SHA-256 of the normalised create request; equal fingerprints are the same request. */
  requestFingerprint: string;
}

export interface StoredPayin extends NewPayin {
  status: 'PENDING';
  createdAt: Date;
}

export interface PayinRepository {
  /**
   * Stores the payin unless (merchantId, reference) exists, atomically.
   * Resolves with the new payin, or with the existing one and `created: false`.
   * Rejects when the store fails: then nothing may be reported as created.
   */
  insertIfAbsent(payin: NewPayin): Promise<{ created: boolean; payin: StoredPayin }>;
  find(merchantId: string, reference: string): Promise<StoredPayin | undefined>;
  ping(): Promise<void>;
  close(): Promise<void>;
}
