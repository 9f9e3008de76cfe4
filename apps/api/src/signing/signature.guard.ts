import { Inject, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { verify, type VerifyFailure } from '@paysign/signing';
import type { FastifyRequest } from 'fastify';
import type { AppConfig } from '../config/app-config';
import { AppConfigToken, Clock } from '../config/clock';
import { ApiException, storeUnavailable } from '../errors/api.exception';
import { MerchantRegistry } from '../merchants/merchant-registry';
import { NonceStore, nonceKey } from '../nonce/nonce-store.interface';
import { headerBagFromRaw } from './header-bag';
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
    if (!claimed) {
      throw new ApiException('AUTH_NONCE_REPLAYED', `X-Nonce ${nonce} was already used with this API key. Sign every request, including retries, with a new nonce.`);
    }

    const merchant = this.merchants.merchantFor(apiKey);
    if (!merchant || merchant.merchantId !== merchantId || merchant.tenantId !== tenantId) {
      throw new ApiException('AUTH_MERCHANT_MISMATCH', 'X-Merchant-ID and X-Tenant-ID must be those of the merchant that owns X-API-KEY. Check them in your merchant dashboard.');
    }
    request.merchant = merchant;
    request.verifiedBody = body ?? Buffer.alloc(0);
    return true;
  }

  private failure(result: VerifyFailure): ApiException {
    switch (result.code) {
      case 'AUTH_TIMESTAMP_SKEW':
        return new ApiException(result.code, result.message, { serverTime: result.serverTime });
      case 'AUTH_SIGNATURE_MISMATCH':
        return new ApiException(result.code, result.message, this.config.mode === 'sandbox' ? { debug: result.debug } : {});
      default:
        return new ApiException(result.code, result.message);
    }
  }
}
