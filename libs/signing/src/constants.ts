/** A request is accepted when |server time − X-Timestamp| is at most this. */
export const TIMESTAMP_TOLERANCE_SECONDS = 300;

/** How long a nonce stays claimed; a reuse inside this window is a replay. */
export const NONCE_TTL_SECONDS = 600;

/** SHA-256 of the empty canonical body, signed by every request without a body. */
export const EMPTY_BODY_SHA256_HEX = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';

/** The signing headers, in the canonical spelling used by `sign`. */
export const SIGNING_HEADERS = {
  apiKey: 'X-API-KEY',
  nonce: 'X-Nonce',
  timestamp: 'X-Timestamp',
  signature: 'X-Signature',
  merchantId: 'X-Merchant-ID',
  tenantId: 'X-Tenant-ID',
} as const;
