import { Injectable, SetMetadata, type ExecutionContext } from '@nestjs/common';
import { ThrottlerGuard, type ThrottlerLimitDetail, type ThrottlerOptions } from '@nestjs/throttler';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RateLimits } from '../config/app-config';
import { rateLimited } from '../errors/api.exception';

const ENQUIRY_LIMIT = 'paysign:enquiryRateLimit';

/** Marks the operation that also counts against the stricter per-key enquiry limit. */
export const EnquiryRateLimit = () => SetMetadata(ENQUIRY_LIMIT, true);

/**
 * The per-key limits, as @nestjs/throttler's named throttlers: a burst
 * allowance per second, a sustained rate counted over 10 s, and account
 * enquiries per minute, which reveal account holders' names.
 */
export function rateLimitThrottlers(limits: RateLimits): ThrottlerOptions[] {
  return [
    { name: 'key-burst', limit: limits.perKeyBurst, ttl: 1000 },
    { name: 'key-sustained', limit: limits.perKeyPerSecond * 10, ttl: 10_000 },
    { name: 'enquiry', limit: limits.enquiryPerKeyPerMinute, ttl: 60_000, skipIf: (context) => Reflect.getMetadata(ENQUIRY_LIMIT, context.getHandler()) !== true },
  ];
}

/**
 * Counts a verified request against its API key's limits. The signature guard
 * calls it between verifying the signature and claiming the nonce, so a
 * refused request claims no nonce, and only a verified key is ever counted.
 */
@Injectable()
export class RateLimitGuard extends ThrottlerGuard {
  protected override async getTracker(request: Record<string, unknown>): Promise<string> {
    const apiKey = (request as unknown as FastifyRequest).signedApiKey;
    if (apiKey === undefined) throw new Error('RateLimitGuard runs only after the signature verified');
    return apiKey;
  }

  protected override generateKey(_context: ExecutionContext, tracker: string, throttlerName: string): string {
    return `${throttlerName}:${tracker}`;
  }

  protected override async throwThrottlingException(context: ExecutionContext, limit: ThrottlerLimitDetail): Promise<void> {
    throw rateLimited(context.switchToHttp().getResponse<FastifyReply>(), { source: 'API key', limit: limit.limit, periodMs: limit.ttl, retryAfterSeconds: limit.timeToBlockExpire });
  }
}
