import type { FastifyRequest } from 'fastify';
import { HTML_ERROR_PAGE, type HtmlErrorPage } from '../errors/html-error-page';
import { PUBLIC_ROUTE } from '../http/public.decorator';
import { RouteFlags } from '../http/route-flags';
import { checkoutCsp, renderMessagePage } from './checkout-page';

/** Fastify route config key of the checkout pages: unsigned, HTML, and the only routes that take a form body. */
export const CHECKOUT_ROUTE = 'paysignCheckout';

/** The customer's browser gets a page for any error: the same message, no request internals. */
const checkoutErrorPage: HtmlErrorPage = ({ status, message, requestId }) => ({
  html:
    status >= 500
      ? renderMessagePage('Something went wrong', `This payment could not be loaded just now; nothing was charged. Try again in a moment. (Request ${requestId})`)
      : renderMessagePage('This request could not be processed', `${message} (Request ${requestId})`),
  headers: { 'content-security-policy': checkoutCsp(), 'referrer-policy': 'no-referrer' },
});

/** Marks a checkout page route: public (the token is the capability) and answered in HTML, errors included. */
export const CheckoutRoute = () => RouteFlags({ [PUBLIC_ROUTE]: true, [CHECKOUT_ROUTE]: true, [HTML_ERROR_PAGE]: checkoutErrorPage });

export function isCheckoutRoute(request: FastifyRequest): boolean {
  return request.routeOptions.config?.[CHECKOUT_ROUTE as never] === true;
}
