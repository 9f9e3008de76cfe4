import type { BlockList } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiException, rateLimited } from '../errors/api.exception';
import { sendError } from '../errors/send-error';
import { isProviderWebhookPath } from '../http/routes';
import type { AddressLimiter } from './address-limiter';

const MINUTE_MS = 60_000;

export interface ProviderWebhooksGuardDeps {
  /** When set, the only addresses webhooks are taken from: the provider's documented sources. */
  allowList: BlockList | undefined;
  /** Refusals per address: a wrong signature is one (request-hooks.ts counts it), so a forger is soon blocked here. */
  refusedAddresses: AddressLimiter;
  /** Webhook requests per address; an address on the allow-list is not counted. */
  webhookAddresses: AddressLimiter;
  /** The largest body taken, by its Content-Length. */
  bodyLimitBytes: number;
  /** How long an address that was already blocked waits for its 429, as on the public pages. */
  blockedAnswerDelayMs: number;
}

/**
 * Guards the providers' webhook route before its body is read: the route
 * needs no signature of ours, and checking a provider's signature means
 * hashing the whole body, so a flood of forged bodies would otherwise cost
 * a hash each. An address outside the allow-list (where the operator sets
 * one) is refused with 403; an address blocked for its refusals, or past
 * its requests per minute, with 429 (an allow-listed address is neither);
 * a body larger than any event with 413, at once when its Content-Length
 * says so, else as it is read. Each refusal closes the connection.
 */
export function registerProviderWebhooksGuard(fastify: FastifyInstance, deps: ProviderWebhooksGuardDeps): void {
  // The route's own body limit, which a body sent in chunks, with no Content-Length, meets as it is read.
  fastify.addHook('onRoute', (route) => {
    if (isProviderWebhookPath(route.url)) route.bodyLimit = deps.bodyLimitBytes;
  });
  // With a callback: on any other path it does nothing, and an async hook would cost a promise per request there.
  fastify.addHook('onRequest', (request, reply, done) => {
    if (!isProviderWebhookPath(request.url.split('?')[0] ?? '')) return done();
    guardWebhook(request, reply).then((answered) => {
      if (answered === undefined) done();
    }, done);
  });

  /** The refusal answered, or undefined when the request goes on. */
  async function guardWebhook(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> {
    const allowed = deps.allowList?.check(request.ip, request.ip.includes(':') ? 'ipv6' : 'ipv4');
    if (allowed === false) return refuse(request, reply, new ApiException('PROVIDER_ADDRESS_NOT_ALLOWED', { address: request.ip }));
    // An allow-listed address is the provider's own: events it relays for another account fail their signature, and must not get the provider's genuine ones refused.
    const blockedMs = allowed === true ? 0 : deps.refusedAddresses.blockedForMs(request.ip);
    if (blockedMs > 0) {
      if (deps.blockedAnswerDelayMs > 0) await delay(deps.blockedAnswerDelayMs);
      return refuse(request, reply, rateLimited(reply, { source: 'address', limit: deps.refusedAddresses.limitPerMinute, periodMs: MINUTE_MS, retryAfterSeconds: Math.max(deps.refusedAddresses.blockedForMs(request.ip), 1000) / 1000 }));
    }
    if (allowed !== true && (await deps.webhookAddresses.hit(request.ip)) > 0) {
      return refuse(request, reply, rateLimited(reply, { source: 'address', limit: deps.webhookAddresses.limitPerMinute, periodMs: MINUTE_MS, retryAfterSeconds: Math.max(deps.webhookAddresses.blockedForMs(request.ip), 1000) / 1000 }));
    }
    const announced = Number(request.headers['content-length']);
    if (Number.isFinite(announced) && announced > deps.bodyLimitBytes) return refuse(request, reply, new ApiException('BODY_TOO_LARGE', { limitBytes: deps.bodyLimitBytes }));
    return undefined;
  }
}

function refuse(request: FastifyRequest, reply: FastifyReply, error: ApiException): FastifyReply {
  // The connection closes with the refusal: a flood must connect again for each request it sends.
  void reply.header('connection', 'close');
  sendError(error, request, reply);
  return reply;
}
