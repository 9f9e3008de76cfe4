import { setTimeout as delay } from 'node:timers/promises';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { rateLimited } from '../errors/api.exception';
import { sendError } from '../errors/send-error';
import { isCheckoutPath, isDocsAssetPath, isPublicPagePath } from '../http/routes';
import type { AddressLimiter } from './address-limiter';

const MINUTE_MS = 60_000;

export interface PublicPagesLimitDeps {
  /** Refusals before verification per address; a failed checkout token is one. */
  refusedAddresses: AddressLimiter;
  /** Requests to the unsigned pages per address. */
  publicPageAddresses: AddressLimiter;
  /** Requests for the docs' assets per address: heavy, and cached by a browser after the first. */
  docsAssetAddresses: AddressLimiter;
  /** How long an address that was already blocked waits for its 429. */
  blockedAnswerDelayMs: number;
}

/**
 * Limits the unsigned pages a browser reads (checkout links, the docs and the
 * contract) per client address, as signed routes are limited per key. An
 * address blocked for its refusals is refused checkout links too, since a
 * failed checkout token is a refusal: guessing links stops where guessing
 * signatures does. Probes and metrics are not limited: load balancers and
 * monitors poll them from few addresses.
 *
 * An address that was already blocked before this request waits
 * `blockedAnswerDelayMs` for its 429, on a timer. Answering at once let 16
 * connections draw 2,500 refusals a second from the service's core, each a
 * new connection and a pass through the pipeline; delayed, a flood is
 * answered at most once a second per connection it holds open.
 */
export function registerPublicPagesLimit(fastify: FastifyInstance, deps: PublicPagesLimitDeps): void {
  // With a callback: on any other path it does nothing, and an async hook would cost a promise per request there.
  fastify.addHook('onRequest', (request, reply, done) => {
    const path = request.url.split('?')[0] ?? '';
    if (!isPublicPagePath(path)) return done();
    limitPublicPage(request, reply, path).then((answered) => {
      if (!answered) done();
    }, done);
  });

  /** Counts the request against its address; true when it was refused here, with its 429. */
  async function limitPublicPage(request: FastifyRequest, reply: FastifyReply, path: string): Promise<boolean> {
    const limiters = [...(isCheckoutPath(path) ? [deps.refusedAddresses] : []), deps.publicPageAddresses, ...(isDocsAssetPath(path) ? [deps.docsAssetAddresses] : [])];
    const blocked = await firstBlocking(limiters, request.ip, deps.refusedAddresses);
    if (blocked === undefined) return false;
    const { limiter, alreadyBlocked } = blocked;
    if (alreadyBlocked && deps.blockedAnswerDelayMs > 0) await delay(deps.blockedAnswerDelayMs);
    // Counted after the wait, and never under a second: the block may have run out while the answer waited.
    const blockedMs = Math.max(limiter.blockedForMs(request.ip), 1000);
    // The connection closes with the refusal: a flood must connect again for each request it sends while blocked.
    void reply.header('connection', 'close');
    sendError(rateLimited(reply, { source: 'address', limit: limiter.limitPerMinute, periodMs: MINUTE_MS, retryAfterSeconds: blockedMs / 1000 }), request, reply);
    return true;
  }
}

/**
 * The first limiter that refuses the address, and whether it had already. Each counts
 * the request in turn, unless one before it refused; the refusals limiter
 * only says whether the address is blocked, since a request is not a refusal.
 */
async function firstBlocking(limiters: AddressLimiter[], address: string, refusals: AddressLimiter): Promise<{ limiter: AddressLimiter; alreadyBlocked: boolean } | undefined> {
  for (const limiter of limiters) {
    if (limiter.blockedForMs(address) > 0) return { limiter, alreadyBlocked: true };
    if (limiter !== refusals && (await limiter.hit(address)) > 0) return { limiter, alreadyBlocked: false };
  }
  return undefined;
}
