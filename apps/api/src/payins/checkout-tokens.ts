import { createHmac, createSecretKey, randomBytes, type KeyObject } from 'node:crypto';
import { SCHEMAS } from '@paysign/contracts';
import { sha256Hex } from '@paysign/signing';

const TOKEN_PATTERN = new RegExp(SCHEMAS.CheckoutToken.pattern);
/** The newest tokens issued, kept by seed: more than the creates one instance has in flight at once. */
const ISSUED_TOKENS_KEPT = 1024;

/**
 * Checkout tokens: the capability in a payin's checkoutUrl. A token is the
 * HMAC of a random per-payin seed under CHECKOUT_TOKEN_SECRET, so that
 *
 * - the store holds only the seed and the token's SHA-256: a copy of the
 *   database alone opens no checkout page;
 * - the same link can still be returned on every read and idempotent replay,
 *   as merchants expect of a hosted payment page's link.
 *
 * 256 bits of HMAC output from a 128-bit seed: unguessable either way.
 */
export class CheckoutTokens {
  private readonly key: KeyObject;
  /**
   * A created payin's answer shows its checkoutUrl, and a hosted gateway's
   * start its return URL: both read the token issue() has just made, which
   * would otherwise be made again by an HMAC each (a create's HMACs, three
   * of them before, took 3.7 % of its CPU profile in
   * `bench:server -- --money --profile`).
   */
  private readonly issued = new Map<string, string>();

  constructor(secret: string) {
    this.key = createSecretKey(Buffer.from(secret, 'utf8'));
  }

  /** A new payin's seed, token and token hash. */
  issue(): { seed: string; token: string; tokenHash: string } {
    const seed = randomBytes(16).toString('base64url');
    const token = this.hmac(`paysign-checkout-v1:${seed}`);
    this.issued.set(seed, token);
    if (this.issued.size > ISSUED_TOKENS_KEPT) this.issued.delete(this.issued.keys().next().value as string);
    return { seed, token, tokenHash: hashCheckoutToken(token) };
  }

  tokenOf(seed: string): string {
    return this.issued.get(seed) ?? this.hmac(`paysign-checkout-v1:${seed}`);
  }

  /**
   * The form half of a page's CSRF pair: the cookie's random value, bound to
   * this checkout by an HMAC. A site that can set cookies for a parent domain
   * (cookie tossing) can plant a cookie, but cannot make the matching field.
   */
  csrfFieldFor(cookieValue: string, tokenHash: string): string {
    return this.hmac(`paysign-checkout-csrf-v1:${tokenHash}:${cookieValue}`);
  }

  private hmac(text: string): string {
    return createHmac('sha256', this.key).update(text).digest('base64url');
  }
}

/** What the store indexes; a lookup by hash reveals nothing about other tokens. */
export function hashCheckoutToken(token: string): string {
  return sha256Hex(token);
}

export function isCheckoutTokenShaped(token: string): boolean {
  return TOKEN_PATTERN.test(token);
}
