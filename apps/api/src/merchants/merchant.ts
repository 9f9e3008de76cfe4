import type { PayoutRole } from './payout-approval';

declare module 'fastify' {
  interface FastifyRequest {
    /** The merchant of the verified API key; set by the signature check. */
    merchant?: Merchant;
  }
}

/** A merchant as loaded from MERCHANTS_FILE. */
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
}
