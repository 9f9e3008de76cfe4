import { headerBagFromRaw, nonceHoldMs, verify } from '@paysign/signing';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppConfig } from '../config/app-config';
import type { Clock } from '../config/clock';
import { ApiException, rateLimited, storeUnavailable } from '../errors/api.exception';
import { sendError } from '../errors/send-error';
import { PUBLIC_ROUTE } from '../http/public.decorator';
import { NO_ABLATIONS, type Ablations } from '../http/ablations';
import { routeFlag } from '../http/route-flags';
import type { MerchantRegistry } from '../merchants/merchant-registry';
import { NonceShareExceededError, type NonceStore, NonceStoreFullError } from '../nonce/nonce-store.interface';
import type { KeyRateLimiter } from '../rate-limit/key-rate-limiter';
import { verifyFailureException } from './verify-failure';

/** What a request without a body verified: zero bytes, shared, since nothing can be written to it. */
const NO_BODY = Buffer.alloc(0);

export interface SignatureCheckDeps {
  config: Pick<AppConfig, 'mode' | 'maxBodyFields' | 'timestampToleranceSeconds' | 'nonceTtlSeconds' | 'nonceStoreMaxPerKey'>;
  clock: Clock;
  merchants: MerchantRegistry;
  rateLimits: KeyRateLimiter;
  nonces: NonceStore;
  /** bench:server --ablate only: components switched off (the rate limits, the nonce claim). */
  ablate?: Ablations;
}

/**
 * Verifies every signed request before its handler runs, as a Fastify
 * `preHandler` hook: once the body has arrived, and on every route but those
 * marked public, Nest's and Fastify's own alike. Nest only routes; no guard
 * chain runs per request. A refused request is answered here, with the
 * documented error body, and never reaches its handler.
 */
export function registerSignatureCheck(fastify: FastifyInstance, deps: SignatureCheckDeps): void {
  const check = new SignatureCheck(deps);
  // With a callback, not async, so that a public route pays no promise; a refusal is answered here, without done(), and Fastify goes no further.
  fastify.addHook('preHandler', (request, reply, done) => {
    if (request.is404 || routeFlag(request, PUBLIC_ROUTE) === true) return done();
    check
      .verifyRequest(request, reply)
      .then(
        () => done(),
        (error: unknown) => sendError(error, request, reply),
      )
      .catch((error: Error) => done(error));
  });
}

/**
 * The protocol's order: headers, API key, timestamp, body, signature (all in
 * libs/signing); then the key's rate limits, the nonce claim and the merchant
 * binding here. The first three checks ran in the signing pre-filter as the
 * head arrived; when it kept their result on the request, they are not run
 * again.
 */
export class SignatureCheck {
  private readonly secretFor = (apiKey: string) => this.deps.merchants.secretFor(apiKey);

  private readonly countsKeys: boolean;
  private readonly claimsNonces: boolean;

  constructor(private readonly deps: SignatureCheckDeps) {
    const ablate = deps.ablate ?? NO_ABLATIONS;
    this.countsKeys = !ablate.has('rate-limit');
    this.claimsNonces = !ablate.has('nonce');
  }

  /** Resolves once the request is verified, its key counted and its nonce claimed, with what the handler needs on the request; throws the refusal otherwise. */
  async verifyRequest(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const { config, merchants } = this.deps;
    if (request.body !== undefined && !Buffer.isBuffer(request.body)) {
      // Fail closed: a body that is not the raw bytes as received cannot be verified.
      throw new Error('the request body was parsed before signature verification');
    }
    const body = request.body;
    const nowMs = this.deps.clock();

    const signed = { method: request.method, path: request.raw.url ?? request.url, body, maxBodyFields: config.maxBodyFields };
    const checkedHeaders = request.checkedSigningHeaders;
    // Merchants this instance could not keep in step with the database: a key revoked since may be among them, so none is trusted.
    if (merchants.isStale()) throw storeUnavailable('payin store');
    // Looked up again rather than kept on the request: a request object never holds a secret. Gone since the head arrived: checked afresh.
    const secretKey = checkedHeaders && merchants.secretFor(checkedHeaders.apiKey);
    const result = checkedHeaders && secretKey !== undefined
      ? verify({ ...signed, checkedHeaders: { ok: true, headers: checkedHeaders, secretKey } })
      : verify({
          ...signed,
          headers: headerBagFromRaw(request.raw.rawHeaders),
          now: Math.floor(nowMs / 1000),
          secretFor: this.secretFor,
          toleranceSeconds: config.timestampToleranceSeconds,
        });
    if (!result.ok) throw verifyFailureException(result, config.mode);

    const { apiKey, nonce, timestamp, merchantId, tenantId } = result.headers;
    request.signedApiKey = apiKey;
    if (this.countsKeys) await this.deps.rateLimits.count(apiKey, request, reply);
    if (this.claimsNonces) await this.claimNonce(reply, apiKey, nonce, nonceHoldMs({ timestamp: Number(timestamp), nowMs, toleranceSeconds: config.timestampToleranceSeconds, nonceTtlSeconds: config.nonceTtlSeconds }));

    const merchant = merchants.merchantFor(apiKey);
    if (!merchant || merchant.merchantId !== merchantId || merchant.tenantId !== tenantId) throw new ApiException('AUTH_MERCHANT_MISMATCH', {});
    request.merchant = merchant;
    request.verifiedBody = body ?? NO_BODY;
  }

  private async claimNonce(reply: FastifyReply, apiKey: string, nonce: string, holdMs: number): Promise<void> {
    let claimed: boolean;
    try {
      claimed = await this.deps.nonces.claim(apiKey, nonce, holdMs);
    } catch (error) {
      if (error instanceof NonceShareExceededError) {
        const { nonceStoreMaxPerKey, nonceTtlSeconds } = this.deps.config;
        throw rateLimited(reply, { source: 'API key', limit: nonceStoreMaxPerKey, periodMs: nonceTtlSeconds * 1000, retryAfterSeconds: 1 });
      }
      // A full in-memory store cannot hold one more nonce: to the client, that is the store being unavailable.
      if (error instanceof NonceStoreFullError) throw storeUnavailable('nonce store');
      throw error;
    }
    if (!claimed) throw new ApiException('AUTH_NONCE_REPLAYED', { nonce });
  }
}
