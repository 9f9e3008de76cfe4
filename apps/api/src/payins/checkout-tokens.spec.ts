import { createHash, createHmac } from 'node:crypto';
import { CheckoutTokens, hashCheckoutToken, isCheckoutTokenShaped } from './checkout-tokens';

const SECRET = 'checkout-token-secret-for-this-spec-only-0123456789';
const tokenOfSeed = (seed: string): string => createHmac('sha256', SECRET).update(`paysign-checkout-v1:${seed}`).digest('base64url');

describe('checkout tokens', () => {
  it('issues a token that is the HMAC of its seed, and stores only its SHA-256', () => {
    const { seed, token, tokenHash } = new CheckoutTokens(SECRET).issue();
    expect(token).toBe(tokenOfSeed(seed));
    expect(isCheckoutTokenShaped(token)).toBe(true);
    expect(tokenHash).toBe(createHash('sha256').update(token).digest('hex'));
    expect(hashCheckoutToken(token)).toBe(tokenHash);
  });

  it('gives the same token for a seed on every instance, whether it issued the seed, issued it long ago, or never did', () => {
    const issuing = new CheckoutTokens(SECRET);
    const seeds = Array.from({ length: 1500 }, () => issuing.issue().seed);
    const another = new CheckoutTokens(SECRET);
    for (const seed of [seeds[0] as string, seeds[700] as string, seeds[1499] as string]) {
      expect(issuing.tokenOf(seed)).toBe(tokenOfSeed(seed));
      expect(another.tokenOf(seed)).toBe(tokenOfSeed(seed));
    }
  });

  it('gives another token under another secret', () => {
    const { seed, token } = new CheckoutTokens(SECRET).issue();
    expect(new CheckoutTokens(`${SECRET}-rotated`).tokenOf(seed)).not.toBe(token);
  });

  it('binds a CSRF field to the cookie and the checkout', () => {
    const tokens = new CheckoutTokens(SECRET);
    const field = tokens.csrfFieldFor('cookie-value', 'a'.repeat(64));
    expect(field).toBe(createHmac('sha256', SECRET).update(`paysign-checkout-csrf-v1:${'a'.repeat(64)}:cookie-value`).digest('base64url'));
    expect(tokens.csrfFieldFor('other-cookie', 'a'.repeat(64))).not.toBe(field);
  });
});
