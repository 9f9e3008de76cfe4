import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RateLimits } from '../config/app-config';
import { rateLimited } from '../errors/api.exception';
import { RouteFlags, routeFlag } from '../http/route-flags';
import type { RateLimitRule, RateLimitStore } from './rate-limit-store.interface';

/** Fastify route config key of the operation that also counts against the enquiry limit. */
const ENQUIRY_LIMIT_ROUTE = 'paysignEnquiryLimit';

/** Marks the operation that also counts against the stricter per-key enquiry limit. */
export const EnquiryRateLimit = () => RouteFlags({ [ENQUIRY_LIMIT_ROUTE]: true });

/**
 * The per-key limits: a burst allowance per second, a sustained rate counted
 * over 10 s, and, for account enquiries, which reveal account holders' names,
 * a number per minute.
 */
export function keyRateLimitRules(limits: RateLimits): { everyRequest: RateLimitRule[]; enquiry: RateLimitRule } {
  return {
    everyRequest: [
      { name: 'key-burst', limit: limits.perKeyBurst, windowMs: 1000 },
      { name: 'key-sustained', limit: limits.perKeyPerSecond * 10, windowMs: 10_000 },
    ],
    enquiry: { name: 'enquiry', limit: limits.enquiryPerKeyPerMinute, windowMs: 60_000 },
  };
}

/**
 * Counts a verified request against its API key's limits, all of them in one
 * store call. The signature check calls it between verifying the signature
 * and claiming the nonce, so a refused request claims no nonce, and only a
 * verified key is ever counted.
 */
export class KeyRateLimiter {
  private readonly everyRequest: readonly RateLimitRule[];
  private readonly withEnquiry: readonly RateLimitRule[];

  constructor(
    private readonly store: RateLimitStore,
    limits: RateLimits,
  ) {
    const rules = keyRateLimitRules(limits);
    this.everyRequest = rules.everyRequest;
    this.withEnquiry = [...rules.everyRequest, rules.enquiry];
  }

  /** Throws the 429 answer, with its Retry-After, when one of the key's limits refuses the request. */
  async count(apiKey: string, request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const rules = routeFlag(request, ENQUIRY_LIMIT_ROUTE) === true ? this.withEnquiry : this.everyRequest;
    const refusal = await this.store.hit(apiKey, rules);
    if (refusal === undefined) return;
    throw rateLimited(reply, { source: 'API key', limit: refusal.rule.limit, periodMs: refusal.rule.windowMs, retryAfterSeconds: refusal.retryAfterMs / 1000 });
  }
}
