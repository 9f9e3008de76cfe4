import { envValues, type Env } from './env-values';

export interface RateLimits {
  /** Verified requests per API key per second, sustained (counted over 10 s). */
  perKeyPerSecond: number;
  /** Verified requests per API key in any one second: the burst allowance. */
  perKeyBurst: number;
  /** Account enquiries per API key per minute; an enquiry reveals an account holder's name. */
  enquiryPerKeyPerMinute: number;
  /** Refused (unverified) requests per client address per minute, before the address is refused outright for the rest of the minute. */
  refusedPerAddressPerMinute: number;
  /** Requests to the unsigned pages (checkout and docs) per client address per minute. */
  publicPerAddressPerMinute: number;
  /** Of those, requests for the docs' scripts (Redoc's bundle is 918 KiB), which a browser fetches once and caches. */
  docsAssetsPerAddressPerMinute: number;
  /** How long an address already blocked from the unsigned pages waits for each further 429: a flood then costs the service per connection it holds, not per request it can send. */
  blockedAnswerDelayMs: number;
}

export function readRateLimits(env: Env, problems: string[]): RateLimits {
  const { int } = envValues(env, problems);
  const rateLimits: RateLimits = {
    perKeyPerSecond: int('RATE_LIMIT_PER_KEY_PER_SECOND', 100, 1, 100_000),
    perKeyBurst: int('RATE_LIMIT_PER_KEY_BURST', 200, 1, 100_000),
    enquiryPerKeyPerMinute: int('RATE_LIMIT_ENQUIRY_PER_KEY_PER_MINUTE', 300, 1, 1_000_000),
    refusedPerAddressPerMinute: int('RATE_LIMIT_REFUSED_PER_ADDRESS_PER_MINUTE', 60, 1, 1_000_000),
    publicPerAddressPerMinute: int('RATE_LIMIT_PUBLIC_PER_ADDRESS_PER_MINUTE', 600, 1, 1_000_000),
    docsAssetsPerAddressPerMinute: int('RATE_LIMIT_DOCS_ASSETS_PER_ADDRESS_PER_MINUTE', 30, 1, 1_000_000),
    blockedAnswerDelayMs: int('RATE_LIMIT_BLOCKED_ANSWER_DELAY_MS', 1000, 0, 5000),
  };
  if (rateLimits.perKeyBurst < rateLimits.perKeyPerSecond) {
    problems.push(`RATE_LIMIT_PER_KEY_BURST (${rateLimits.perKeyBurst}) must be at least RATE_LIMIT_PER_KEY_PER_SECOND (${rateLimits.perKeyPerSecond})`);
  }
  return rateLimits;
}
