import { createHash, createHmac, randomBytes } from 'node:crypto';
import { SCHEMAS } from '@paysign/contracts';

const TOKEN_PATTERN = new RegExp(SCHEMAS.CheckoutToken.pattern);

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
  constructor(private readonly secret: string) {}

  /** A new payin's seed, token and token hash. */
  issue(): { seed: string; token: string; tokenHash: string } {
    const seed = randomBytes(16).toString('base64url');
    const token = this.tokenOf(seed);
    return { seed, token, tokenHash: hashCheckoutToken(token) };
  }

  tokenOf(seed: string): string {
    return createHmac('sha256', this.secret).update(`paysign-checkout-v1:${seed}`).digest('base64url');
  }

  /**
   * The form half of a page's CSRF pair: the cookie's random value, bound to
   * this checkout by an HMAC. A site that can set cookies for a parent domain
   * (cookie tossing) can plant a cookie, but cannot make the matching field.
   */
  csrfFieldFor(cookieValue: string, tokenHash: string): string {
    return createHmac('sha256', this.secret).update(`paysign-checkout-csrf-v1:${tokenHash}:${cookieValue}`).digest('base64url');
  }
}

/** What the store indexes; a lookup by hash reveals nothing about other tokens. */
export function hashCheckoutToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export function isCheckoutTokenShaped(token: string): boolean {
  return TOKEN_PATTERN.test(token);
}
