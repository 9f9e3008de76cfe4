import type { FastifyInstance } from 'fastify';
import { rateLimited } from '../errors/api.exception';
import { sendError } from '../errors/send-error';
import { isCheckoutPath, isPublicPagePath } from '../http/routes';
import type { AddressLimiter } from './address-limiter';

const MINUTE_MS = 60_000;

export interface PublicPagesLimitDeps {
  /** Refusals before verification per address; a failed checkout token is one. */
  refusedAddresses: AddressLimiter;
  /** Requests to the unsigned pages per address. */
  publicPageAddresses: AddressLimiter;
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
  fastify.addHook('onRequest', async (request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    if (!isPublicPagePath(path)) return;
    const refusedMs = isCheckoutPath(path) ? deps.refusedAddresses.blockedForMs(request.ip) : 0;
    const limiter = refusedMs > 0 ? deps.refusedAddresses : deps.publicPageAddresses;
    const blockedMs = refusedMs || deps.publicPageAddresses.blockedForMs(request.ip) || (await deps.publicPageAddresses.hit(request.ip));
    if (blockedMs === 0) return;
    // The connection closes with the refusal: a flood must connect again for each request it sends while blocked.
    void reply.header('connection', 'close');
    sendError(rateLimited(reply, { source: 'address', limit: limiter.limitPerMinute, periodMs: MINUTE_MS, retryAfterSeconds: blockedMs / 1000 }), request, reply);
    return reply;
  });
}
