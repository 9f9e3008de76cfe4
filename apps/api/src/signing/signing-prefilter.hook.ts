import { checkSigningHeaders, headerBagFromRaw } from '@paysign/signing';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppConfig } from '../config/app-config';
import type { Clock } from '../config/clock';
import { rateLimited } from '../errors/api.exception';
import { sendError } from '../errors/send-error';
import type { MerchantRegistry } from '../merchants/merchant-registry';
import type { AddressLimiter } from '../rate-limit/address-limiter';
import { PUBLIC_ROUTE } from '../http/public.decorator';
import { verifyFailureException } from './verify-failure';

export interface SigningPrefilterDeps {
  config: Pick<AppConfig, 'mode' | 'timestampToleranceSeconds'>;
  clock: Clock;
  merchants: MerchantRegistry;
  refusedAddresses: AddressLimiter;
}

/**
 * Refuses a signed route's request as soon as its head has arrived, before a
 * byte of the body is read: an address over its refusal limit, then the
 * checks of libs/signing that need no body (headers, API key, timestamp).
 * The headers that pass are kept on the request (the secret is not), and the
 * signature check, the one place that verifies the signature and claims the
 * nonce, goes on from there.
 */
export function registerSigningPrefilter(fastify: FastifyInstance, deps: SigningPrefilterDeps): void {
  const secretFor = (apiKey: string) => deps.merchants.secretFor(apiKey);
  // With a callback, not async: nothing here waits, and an async hook costs a promise per request.
  fastify.addHook('onRequest', (request, reply, done) => {
    if (request.is404 || request.routeOptions.config?.[PUBLIC_ROUTE as never]) return done();
    const blockedMs = deps.refusedAddresses.blockedForMs(request.ip);
    if (blockedMs > 0) {
      const limit = { source: 'address' as const, limit: deps.refusedAddresses.limitPerMinute, periodMs: 60_000, retryAfterSeconds: blockedMs / 1000 };
      refuse(request, reply, rateLimited(reply, limit));
      return;
    }
    const checked = checkSigningHeaders({
      headers: headerBagFromRaw(request.raw.rawHeaders),
      now: Math.floor(deps.clock() / 1000),
      secretFor,
      toleranceSeconds: deps.config.timestampToleranceSeconds,
    });
    if (!checked.ok) {
      refuse(request, reply, verifyFailureException(checked, deps.config.mode));
      return;
    }
    request.checkedSigningHeaders = checked.headers;
    done();
  });
}

/** Answers at once (the hook then does not call done(), so Fastify goes no further); a body still on its way is not read, and the connection closes instead. */
function refuse(request: FastifyRequest, reply: FastifyReply, error: Error): void {
  const bodyPending = request.headers['content-length'] !== undefined ? request.headers['content-length'] !== '0' : request.headers['transfer-encoding'] !== undefined;
  if (bodyPending) void reply.header('connection', 'close');
  sendError(error, request, reply);
}
