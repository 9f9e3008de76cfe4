import { ROUTES } from '../http/routes';
import type { CheckoutTokens } from './checkout-tokens';

/** Builds a payin's checkoutUrl from its seed, on the origin customers reach the service at. */
export class CheckoutLinks {
  constructor(
    readonly tokens: CheckoutTokens,
    private readonly publicOrigin: () => string,
  ) {}

  urlOf(checkoutSeed: string): string {
    return `${this.publicOrigin()}${ROUTES.checkout(this.tokens.tokenOf(checkoutSeed))}`;
  }

  /** Where a hosted gateway sends the customer back to: the checkout's return page, which asks the provider before anything moves. */
  returnUrlOf(checkoutSeed: string): string {
    return `${this.publicOrigin()}${ROUTES.checkoutReturn(this.tokens.tokenOf(checkoutSeed))}`;
  }
}
