import { applyDecorators, SetMetadata } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import type { FastifyRequest } from 'fastify';
import { IS_PUBLIC, PUBLIC_ROUTE } from '../http/public.decorator';

/** Fastify route config key of the checkout pages: unsigned, HTML, and the only routes that take a form body. */
export const CHECKOUT_ROUTE = 'paysignCheckout';

/** Marks a checkout page route: public (the token is the capability) and answered in HTML, errors included. */
export const CheckoutRoute = () => applyDecorators(SetMetadata(IS_PUBLIC, true), RouteConfig({ [PUBLIC_ROUTE]: true, [CHECKOUT_ROUTE]: true }));

export function isCheckoutRoute(request: FastifyRequest): boolean {
  return request.routeOptions.config?.[CHECKOUT_ROUTE as never] === true;
}

/** The path with the capability token masked, for logs. */
export function loggablePath(path: string): string {
  return path.replace(/^\/payment\/checkout\/[^/?]+/, '/payment/checkout/{token}');
}
