import type { PayoutRole } from './payout-approval';

declare module 'fastify' {
  interface FastifyRequest {
    /** The merchant of the verified API key; set by the signature check. */
    merchant?: Merchant;
  }
}

/** A merchant's identity, as a request carries it: never a secret. */
export interface Merchant {
  merchantId: string;
  tenantId: string;
  name: string;
}

/** An API key and secret pair. A merchant may hold several, to rotate a secret without downtime. */
export interface Credential {
  apiKey: string;
  secretKey: string;
  /** A revoked key is refused as unknown (AUTH_UNKNOWN_API_KEY). Default: active. */
  status?: 'active' | 'revoked';
  /** What the key may do with payouts (merchants/payout-approval.ts). Default: payouts:create, everything but approving. */
  roles?: readonly PayoutRole[];
  /** After this instant the key is refused as unknown: the old key of a roll, kept for an overlap. Default: never. */
  expiresAt?: Date;
}

/** Whether a merchant's keys are admitted: a suspended merchant's are refused everywhere, and its checkout takes no payment. */
export type MerchantStatus = 'active' | 'suspended';

/** A merchant's webhook endpoint: where the events of the types it names go, signed with its own secrets. */
export interface WebhookEndpoint {
  id: string;
  url: string;
  /** Event types, or `*` for every event a merchant receives without opting in. */
  enabledEvents: readonly string[];
  description: string | null;
  enabled: boolean;
  /** Each signs every delivery while it lasts: two during a roll. */
  secrets: readonly WebhookSigningSecret[];
  createdAt: Date;
  updatedAt: Date;
}

export interface WebhookSigningSecret {
  secret: string;
  fingerprint: string;
  createdAt: Date;
  /** After this instant it no longer signs; undefined: until it is rolled. */
  expiresAt?: Date;
}
