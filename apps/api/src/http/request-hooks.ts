import { HEADER_GRAMMAR } from '@paysign/signing';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiException } from '../errors/api.exception';
import { sendError } from '../errors/send-error';
import type { ServiceMetrics } from '../metrics/service-metrics';
import { NO_ABLATIONS, type Ablations } from './ablations';
import { PUBLIC_ROUTE } from './public.decorator';
import { isCheckoutPath, isProviderWebhookPath, loggablePath, ROUTES } from './routes';

/** Probes answered OK are logged at debug: at info they would drown the request lines. */
const PROBE_ROUTES = new Set(ROUTES.probes);

export interface RequestHooksDeps {
  metrics: ServiceMetrics;
  /** Whether an API key is one of ours, so public and safe to log. */
  isKnownApiKey(apiKey: string): boolean;
  /** Counts a request refused before verification against its client address. */
  recordRefusal(address: string): Promise<void>;
  shutdownGraceMs: number;
  /** bench:server --ablate only: components switched off. */
  ablate?: Ablations;
}

/** The request id on every answer; one log line, metrics and refusal counting per request; connection draining on close. */
export function registerRequestHooks(fastify: FastifyInstance, deps: RequestHooksDeps): void {
  const ablate = deps.ablate ?? NO_ABLATIONS;
  const context = !ablate.has('context');
  const strict = !ablate.has('strict');
  // Hooks on every request are written with callbacks, not as async functions: an async hook costs a promise and a turn of the microtask queue per request, even when it does nothing.
  fastify.addHook('onRequest', (request, reply, done) => {
    if (context) void reply.header('X-Request-Id', request.id);
    // HTTP/1.1 requires Host. Node's own refusal of a request without one is a bare 400 (http-server-options.ts turns it off), so it is refused here, with the error body.
    // A request target never holds a fragment; the router would drop it, and serve /a#/b as /a, another operation than the one named.
    if (strict && ((request.raw.httpVersion === '1.1' && request.headers.host === undefined) || request.raw.url?.includes('#'))) {
      void reply.header('connection', 'close');
      // Answered here; without done(), Fastify goes no further.
      sendError(new ApiException('MALFORMED_REQUEST', {}), request, reply);
      return;
    }
    done();
  });

  // Responses that finish after shutdown began close their connection, so that a
  // keep-alive client cannot hold the server open once its request is answered.
  let closing = false;
  fastify.addHook('preClose', async () => {
    closing = true;
    // Idle connections close at once; one still busy (a request whose body never finishes) is cut after the grace period, so shutdown always ends.
    setTimeout(() => fastify.server.closeAllConnections(), deps.shutdownGraceMs).unref();
  });
  const closeOnShutdown = !ablate.has('idle-hooks');
  fastify.addHook('onSend', (request, reply, payload, done) => {
    if (closeOnShutdown && closing) void reply.header('connection', 'close');
    if (!refusedBeforeVerification(request, reply.statusCode)) {
      done(null, payload);
      return;
    }
    // Counted before the answer leaves: a client that sends its next request as soon as it reads this one's finds it counted.
    void deps
      .recordRefusal(request.ip)
      .catch((error: Error) => request.log.warn({ err: error.message }, 'could not count a refused request against its address'))
      .then(() => done(null, payload));
  });

  const metrics = !ablate.has('metrics');
  const log = !ablate.has('log');
  const logLine = (request: FastifyRequest, reply: FastifyReply, route: string, outcome: string): void => {
    const status = reply.statusCode;
    const line = {
      requestId: request.id,
      method: request.method,
      path: loggablePath(request.url.split('?')[0] ?? ''),
      status,
      merchantId: request.merchant?.merchantId,
      apiKey: publicApiKey(request, deps.isKnownApiKey),
      clientAddress: request.ip,
      outcome,
      durationMs: Math.round(reply.elapsedTime),
    };
    if (PROBE_ROUTES.has(route) && status < 400) request.log.debug(line, 'request completed');
    else request.log.info(line, 'request completed');
  };
  fastify.addHook('onResponse', (request, reply, done) => {
    const outcome = request.outcome ?? (reply.statusCode < 400 ? 'OK' : `HTTP_${reply.statusCode}`);
    const route = request.routeOptions.url ?? 'unmatched';
    const status = reply.statusCode;
    if (metrics) {
      deps.metrics.requests.inc({ method: request.method, route, status, outcome });
      deps.metrics.requestDuration.with({ method: request.method, route }).observe(reply.elapsedTime / 1000);
      if (status === 401) deps.metrics.signatureFailures.inc({ code: outcome });
      if (status === 429) deps.metrics.rateLimited.inc({ source: request.rateLimitedBy ?? 'API key' });
    }
    if (log) logLine(request, reply, route, outcome);
    done();
  });
}

/**
 * Whether an answer refused a request whose signature never verified, and so
 * counts against its client address: any 4xx but the 429 of the limit
 * itself, on a signed route (bad headers, keys, signatures, but also bodies
 * refused before verification: not JSON, too large, too many fields), on a
 * provider's webhook route (a signature that is not the provider's), or no
 * route at all; and on a checkout link, a token that names no payin, so that
 * guessing links costs as much as guessing signatures. A replayed nonce or an
 * invalid field of a verified request is the merchant's, and does not count.
 */
function refusedBeforeVerification(request: FastifyRequest, status: number): boolean {
  if (status < 400 || status >= 500 || status === 429 || request.signedApiKey !== undefined) return false;
  // A provider's webhook that is refused (a wrong signature, a body it never sends) was not sent by the provider.
  if (request.is404 || !request.routeOptions.config?.[PUBLIC_ROUTE as never] || isProviderWebhookPath(request.url)) return true;
  return status === 404 && isCheckoutPath(request.url);
}

/**
 * The API key the request named, when it is a key of ours: public, so safe to
 * log. Anything else is logged as `(unknown)`, since a client that mixed up its
 * credentials may have sent its secret in X-API-KEY.
 */
function publicApiKey(request: FastifyRequest, isKnownApiKey: (apiKey: string) => boolean): string | undefined {
  if (request.signedApiKey !== undefined) return request.signedApiKey;
  const named = request.headers['x-api-key'];
  if (named === undefined) return undefined;
  return typeof named === 'string' && HEADER_GRAMMAR.apiKey.pattern.test(named) && isKnownApiKey(named) ? named : '(unknown)';
}
