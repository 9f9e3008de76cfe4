import { envValues, type Env } from './env-values';
import { isGuessableSecret, MIN_SECRET_LENGTH, SECRET_STRENGTH_RULE } from './secret-strength';
import type { ServiceMode } from './service-mode';

export interface CheckoutSettings {
  /** The origin customers reach the service at, for checkout links; unset in sandbox: the address it listens on. */
  publicBaseUrl: string | undefined;
  /** Keys the checkout tokens (see CheckoutTokens). Changing it keeps the links handed out (found by their hash), but a payin read again gets a link that opens nothing, and a form shown before is refused once (docs/runbooks.md). */
  checkoutTokenSecret: string;
  /** Largest checkout form body accepted, in bytes. */
  checkoutFormLimitBytes: number;
}

/** The sandbox default of CHECKOUT_TOKEN_SECRET: public, so production refuses it. */
export const SANDBOX_CHECKOUT_TOKEN_SECRET = 'sandbox-checkout-token-secret-public-not-secret';

/** The checkout links customers pay at: where they point, and the secret that keys them, both of which production must set. */
export function readCheckout(env: Env, mode: ServiceMode, problems: string[]): CheckoutSettings {
  const { int, url } = envValues(env, problems);
  if (mode === 'production') {
    if (!env.PUBLIC_BASE_URL?.startsWith('https://')) {
      problems.push(
        env.PUBLIC_BASE_URL
          ? `PUBLIC_BASE_URL must be an https origin in production mode, got "${env.PUBLIC_BASE_URL}": customers reach the checkout links built on it`
          : 'PUBLIC_BASE_URL is required in production mode, as the https origin customers reach the service at: checkout links are built on it',
      );
    }
    if (!env.CHECKOUT_TOKEN_SECRET || env.CHECKOUT_TOKEN_SECRET === SANDBOX_CHECKOUT_TOKEN_SECRET || env.CHECKOUT_TOKEN_SECRET.length < MIN_SECRET_LENGTH) {
      problems.push(`CHECKOUT_TOKEN_SECRET is required in production mode, at least ${MIN_SECRET_LENGTH} random characters and not the sandbox default: it keys the checkout links`);
    } else if (isGuessableSecret(env.CHECKOUT_TOKEN_SECRET)) {
      problems.push(`CHECKOUT_TOKEN_SECRET is too predictable for production mode (repeated, or too few different characters): it keys the checkout links; use ${SECRET_STRENGTH_RULE}`);
    }
  }
  return {
    publicBaseUrl: publicBaseUrl(url('PUBLIC_BASE_URL', ['http:', 'https:']), problems),
    checkoutTokenSecret: env.CHECKOUT_TOKEN_SECRET || SANDBOX_CHECKOUT_TOKEN_SECRET,
    checkoutFormLimitBytes: int('CHECKOUT_FORM_LIMIT_BYTES', 4096, 512, 65_536),
  };
}

/** An origin only: checkout links append their own path, so a path, query or fragment here would be dropped or doubled. */
function publicBaseUrl(raw: string | undefined, problems: string[]): string | undefined {
  if (raw === undefined) return undefined;
  try {
    const parsed = new URL(raw);
    if (raw.replace(/\/+$/, '').toLowerCase() !== parsed.origin) problems.push(`PUBLIC_BASE_URL must be an origin only, such as https://pay.example.com, got "${raw}"`);
    return parsed.origin;
  } catch {
    return undefined;
  }
}
