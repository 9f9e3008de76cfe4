import { Inject, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { headerBagFromRaw, verify, type VerifyFailure } from '@paysign/signing';
import type { FastifyRequest } from 'fastify';
import type { AppConfig } from '../config/app-config';
import { AppConfigToken } from '../config/app-config.token';
import { Clock } from '../config/clock';
import { ApiException, storeUnavailable } from '../errors/api.exception';
import { MerchantRegistry } from '../merchants/merchant-registry';
import { NonceStore, nonceKey } from '../nonce/nonce-store.interface';
import { IS_PUBLIC } from './public.decorator';

/**
 * Verifies every signed request, in the protocol's order: headers, API key,
 * timestamp, body, signature (all in libs/signing), then the nonce claim and
 * the merchant binding here.
 */
@Injectable()
export class SignatureGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly merchants: MerchantRegistry,
    @Inject(NonceStore) private readonly nonces: NonceStore,
    @Inject(Clock) private readonly clock: Clock,
    @Inject(AppConfigToken) private readonly config: AppConfig,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [context.getHandler(), context.getClass()])) return true;
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    if (request.body !== undefined && !Buffer.isBuffer(request.body)) {
      // Fail closed: a body that is not the raw bytes as received cannot be verified.
      throw new Error('the request body was parsed before signature verification');
    }
    const body = request.body;

    const result = verify({
      method: request.method,
      path: request.raw.url ?? request.url,
      headers: headerBagFromRaw(request.raw.rawHeaders),
      body,
      now: Math.floor(this.clock() / 1000),
      secretFor: (apiKey) => this.merchants.secretFor(apiKey),
      toleranceSeconds: this.config.timestampToleranceSeconds,
    });
    if (!result.ok) throw this.failure(result);

    const { apiKey, nonce, merchantId, tenantId } = result.headers;
    let claimed: boolean;
    try {
      claimed = await this.nonces.claim(nonceKey(apiKey, nonce), this.config.nonceTtlSeconds);
    } catch {
      throw storeUnavailable('nonce store');
    }
    if (!claimed) throw new ApiException('AUTH_NONCE_REPLAYED', { nonce });

    const merchant = this.merchants.merchantFor(apiKey);
    if (!merchant || merchant.merchantId !== merchantId || merchant.tenantId !== tenantId) {
      throw new ApiException('AUTH_MERCHANT_MISMATCH', {});
    }
    request.merchant = merchant;
    request.verifiedBody = body ?? Buffer.alloc(0);
    return true;
  }

  /** libs/signing words these messages; the registry gives their status. */
  private failure(result: VerifyFailure): ApiException {
    const detail = { detail: result.message };
    switch (result.code) {
      case 'AUTH_TIMESTAMP_SKEW':
        return new ApiException(result.code, detail, { serverTime: result.serverTime });
      case 'AUTH_SIGNATURE_MISMATCH':
        // The debug values hold no expected signature: see SigningDebugValues in libs/signing.
        return new ApiException(result.code, detail, this.config.mode === 'sandbox' ? { debug: result.debug } : {});
      default:
        return new ApiException(result.code, detail);
    }
  }
}
