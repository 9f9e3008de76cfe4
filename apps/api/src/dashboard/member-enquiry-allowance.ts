import { Inject, Injectable } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import type { AppConfig } from '../config/app-config';
import { AppConfigToken } from '../config/app-config.token';
import { rateLimited } from '../errors/api.exception';
import { Foundation } from '../foundation';

/**
 * A member's account enquiries: they reveal account holders' names, so a
 * member gets the per-minute allowance an API key gets
 * (RATE_LIMIT_ENQUIRY_PER_KEY_PER_MINUTE), whether they enquire one account
 * or every row of a batch file.
 */
@Injectable()
export class MemberEnquiryAllowance {
  constructor(
    private readonly foundation: Foundation,
    @Inject(AppConfigToken) private readonly config: AppConfig,
  ) {}

  /** Counts `count` enquiries of the member; past the allowance, throws 429 with Retry-After, to be thrown before any of them is made. */
  async take(memberId: string, reply: FastifyReply, count = 1): Promise<void> {
    const limit = this.config.rateLimits.enquiryPerKeyPerMinute;
    for (let taken = 0; taken < count; taken++) {
      const refusal = await this.foundation.rateLimitStore.hit(`dashboard-member:${memberId}`, [{ name: 'enquiry', limit, windowMs: 60_000 }]);
      if (refusal !== undefined) throw rateLimited(reply, { source: 'dashboard member', limit, periodMs: refusal.rule.windowMs, retryAfterSeconds: refusal.retryAfterMs / 1000 });
    }
  }
}
