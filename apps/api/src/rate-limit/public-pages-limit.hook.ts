import type { FastifyInstance } from 'fastify';
import { rateLimited } from '../errors/api.exception';
import { sendError } from '../errors/send-error';
import { isCheckoutPath, isPublicPagePath } from '../http/routes';
import type { RateLimitRule, RateLimitStore } from './rate-limit-store.interface';
import type { RefusedAddressLimiter } from './refused-address-limiter';

const WINDOW_MS = 60_000;

export interface PublicPagesLimitDeps {
  store: RateLimitStore;
  refusedAddresses: RefusedAddressLimiter;
  perAddressPerMinute: number;
}

/**
 * Limits the unsigned pages a browser reads (checkout links, the docs and the
 * contract) per client address, as signed routes are limited per key. An
 * address blocked for its refusals is refused checkout links too, since a
 * failed checkout token is a refusal: guessing links stops where guessing
 * signatures does. Probes and metrics are not limited: load balancers and
 * monitors poll them from few addresses.
 */
export function registerPublicPagesLimit(fastify: FastifyInstance, deps: PublicPagesLimitDeps): void {
  const rules: readonly RateLimitRule[] = [{ name: 'public-address', limit: deps.perAddressPerMinute, windowMs: WINDOW_MS }];
  fastify.addHook('onRequest', async (request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    if (!isPublicPagePath(path)) return;
    const blockedMs = isCheckoutPath(path) ? deps.refusedAddresses.blockedForMs(request.ip) : 0;
    if (blockedMs > 0) {
      sendError(rateLimited(reply, { source: 'address', limit: deps.refusedAddresses.limitPerMinute, periodMs: WINDOW_MS, retryAfterSeconds: blockedMs / 1000 }), request, reply);
      return reply;
    }
    const refusal = await deps.store.hit(`public:${request.ip}`, rules);
    if (refusal === undefined) return;
    sendError(rateLimited(reply, { source: 'address', limit: refusal.rule.limit, periodMs: refusal.rule.windowMs, retryAfterSeconds: refusal.retryAfterMs / 1000 }), request, reply);
    return reply;
  });
}
