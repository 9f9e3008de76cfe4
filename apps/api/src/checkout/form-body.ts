import type { FastifyInstance } from 'fastify';
import { CHECKOUT_ROUTE, isCheckoutRoute } from './checkout-route';

/**
 * Accepts `application/x-www-form-urlencoded` on the checkout routes only,
 * kept raw: the controller reads it strictly. Every other route still takes
 * JSON alone, and answers a form with 415.
 */
export function registerCheckoutFormBody(fastify: FastifyInstance, limitBytes: number): void {
  // The checkout routes' own limit, CHECKOUT_FORM_LIMIT_BYTES, as the route's: the 413 page then names the limit the form was held to.
  fastify.addHook('onRoute', (route) => {
    if ((route.config as Record<string, unknown> | undefined)?.[CHECKOUT_ROUTE] === true) route.bodyLimit = limitBytes;
  });
  fastify.addContentTypeParser(/^application\/x-www-form-urlencoded(\s*;.*)?$/i, { parseAs: 'string', bodyLimit: limitBytes }, (request, body, done) => {
    if (!isCheckoutRoute(request)) {
      done(Object.assign(new Error('Unsupported Media Type'), { statusCode: 415 }), undefined);
      return;
    }
    done(null, body);
  });
}
