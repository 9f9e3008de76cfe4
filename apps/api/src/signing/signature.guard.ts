import { Inject, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { headerBagFromRaw, nonceHoldMs, verify } from '@paysign/signing';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppConfig } from '../config/app-config';
import { AppConfigToken } from '../config/app-config.token';
import { Clock } from '../config/clock';
import { ApiException, rateLimited, storeUnavailable } from '../errors/api.exception';
import { MerchantRegistry } from '../merchants/merchant-registry';
import { NonceShareExceededError, NonceStore, NonceStoreFullError } from '../nonce/nonce-store.interface';
import { KeyRateLimiter } from '../rate-limit/key-rate-limiter';
import { IS_PUBLIC } from '../http/public.decorator';
import { verifyFailureException } from './verify-failure';

/** What a request without a body verified: zero bytes, shared, since nothing can be written to it. */
const NO_BODY = Buffer.alloc(0);

/**
 * Verifies every signed request, in the protocol's order: headers, API key,
 * timestamp, body, signature (all in libs/signing); then the key's rate
 * limits, the nonce claim and the merchant binding here. The first three
 * checks ran in the signing pre-filter as the head arrived; when it kept
 * their result on the request, they are not run again.
 */
@Injectable()
export class SignatureGuard implements CanActivate {
  /** Whether a route handler is public, read from its metadata once. */
  private readonly publicHandlers = new WeakMap<object, boolean>();
  private readonly secretFor = (apiKey: string) => this.merchants.secretFor(apiKey);

  constructor(
    private readonly reflector: Reflector,
    private readonly merchants: MerchantRegistry,
    private readonly rateLimits: KeyRateLimiter,
    @Inject(NonceStore) private readonly nonces: NonceStore,
    @Inject(Clock) private readonly clock: Clock,
    @Inject(AppConfigToken) private readonly config: AppConfig,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const handler = context.getHandler();
    if (this.isPublic(handler, context)) return true;
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    if (request.body !== undefined && !Buffer.isBuffer(request.body)) {
      // Fail closed: a body that is not the raw bytes as received cannot be verified.
      throw new Error('the request body was parsed before signature verification');
    }
    const body = request.body;
    const nowMs = this.clock();

    const signed = { method: request.method, path: request.raw.url ?? request.url, body, maxBodyFields: this.config.maxBodyFields };
    const checkedHeaders = request.checkedSigningHeaders;
    // Looked up again rather than kept on the request: a request object never holds a secret. Gone since the head arrived: checked afresh.
    const secretKey = checkedHeaders && this.merchants.secretFor(checkedHeaders.apiKey);
    const result = checkedHeaders && secretKey !== undefined
      ? verify({ ...signed, checkedHeaders: { ok: true, headers: checkedHeaders, secretKey } })
      : verify({
          ...signed,
          headers: headerBagFromRaw(request.raw.rawHeaders),
          now: Math.floor(nowMs / 1000),
          secretFor: this.secretFor,
          toleranceSeconds: this.config.timestampToleranceSeconds,
        });
    if (!result.ok) throw verifyFailureException(result, this.config.mode);

    const { apiKey, nonce, timestamp, merchantId, tenantId } = result.headers;
    request.signedApiKey = apiKey;
    await this.countAgainstRateLimits(apiKey, handler, context);
    await this.claimNonce(context, apiKey, nonce, nonceHoldMs({ timestamp: Number(timestamp), nowMs, toleranceSeconds: this.config.timestampToleranceSeconds, nonceTtlSeconds: this.config.nonceTtlSeconds }));

    const merchant = this.merchants.merchantFor(apiKey);
    if (!merchant || merchant.merchantId !== merchantId || merchant.tenantId !== tenantId) throw new ApiException('AUTH_MERCHANT_MISMATCH', {});
    request.merchant = merchant;
    request.verifiedBody = body ?? NO_BODY;
    return true;
  }

  private isPublic(handler: object, context: ExecutionContext): boolean {
    let isPublic = this.publicHandlers.get(handler);
    if (isPublic === undefined) {
      isPublic = this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [context.getHandler(), context.getClass()]) === true;
      this.publicHandlers.set(handler, isPublic);
    }
    return isPublic;
  }

  private async countAgainstRateLimits(apiKey: string, handler: object, context: ExecutionContext): Promise<void> {
    await this.rateLimits.count(apiKey, handler, context.switchToHttp().getResponse<FastifyReply>());
  }

  private async claimNonce(context: ExecutionContext, apiKey: string, nonce: string, holdMs: number): Promise<void> {
    let claimed: boolean;
    try {
      claimed = await this.nonces.claim(apiKey, nonce, holdMs);
    } catch (error) {
      if (error instanceof NonceShareExceededError) {
        const reply = context.switchToHttp().getResponse<FastifyReply>();
        throw rateLimited(reply, { source: 'API key', limit: this.config.nonceStoreMaxPerKey, periodMs: this.config.nonceTtlSeconds * 1000, retryAfterSeconds: 1 });
      }
      // A full in-memory store cannot hold one more nonce: to the client, that is the store being unavailable.
      if (error instanceof NonceStoreFullError) throw storeUnavailable('nonce store');
      throw error;
    }
    if (!claimed) throw new ApiException('AUTH_NONCE_REPLAYED', { nonce });
  }
}
