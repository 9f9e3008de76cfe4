import { Inject, Injectable, SetMetadata } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import type { AppConfig, RateLimits } from '../config/app-config';
import { AppConfigToken } from '../config/app-config.token';
import { rateLimited } from '../errors/api.exception';
import { RateLimitStore, type RateLimitRule } from './rate-limit-store.interface';

const ENQUIRY_LIMIT = 'paysign:enquiryRateLimit';

/** Marks the operation that also counts against the stricter per-key enquiry limit. */
export const EnquiryRateLimit = () => SetMetadata(ENQUIRY_LIMIT, true);

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
 * store call. The signature guard calls it between verifying the signature
 * and claiming the nonce, so a refused request claims no nonce, and only a
 * verified key is ever counted.
 */
@Injectable()
export class KeyRateLimiter {
  private readonly everyRequest: readonly RateLimitRule[];
  private readonly withEnquiry: readonly RateLimitRule[];
  /** Which rules a route handler counts against, read from its metadata once. */
  private readonly rulesByHandler = new WeakMap<object, readonly RateLimitRule[]>();

  constructor(
    @Inject(RateLimitStore) private readonly store: RateLimitStore,
    @Inject(AppConfigToken) config: AppConfig,
  ) {
    const rules = keyRateLimitRules(config.rateLimits);
    this.everyRequest = rules.everyRequest;
    this.withEnquiry = [...rules.everyRequest, rules.enquiry];
  }

  /** Throws the 429 answer, with its Retry-After, when one of the key's limits refuses the request. */
  async count(apiKey: string, handler: object, reply: FastifyReply): Promise<void> {
    const refusal = await this.store.hit(apiKey, this.rulesFor(handler));
    if (refusal === undefined) return;
    throw rateLimited(reply, { source: 'API key', limit: refusal.rule.limit, periodMs: refusal.rule.windowMs, retryAfterSeconds: refusal.retryAfterMs / 1000 });
  }

  private rulesFor(handler: object): readonly RateLimitRule[] {
    let rules = this.rulesByHandler.get(handler);
    if (rules === undefined) {
      rules = Reflect.getMetadata(ENQUIRY_LIMIT, handler) === true ? this.withEnquiry : this.everyRequest;
      this.rulesByHandler.set(handler, rules);
    }
    return rules;
  }
}
