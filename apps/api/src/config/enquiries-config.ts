import { envValues, type Env } from './env-values';

export interface EnquirySettings {
  enquiryCacheTtlSeconds: number;
  /** How long a successful enquiry's `enquiryId` may be named by a payout. */
  enquiryValiditySeconds: number;
  /** How often each instance deletes enquiries a day past their expiry. */
  enquiryRetentionIntervalMs: number;
  enquiryTimeoutMs: number;
}

/** Account-name enquiries: how long an answer is cached, waited for, and valid for a payout. */
export function readEnquiries(env: Env, problems: string[]): EnquirySettings {
  const { int } = envValues(env, problems);
  return {
    enquiryCacheTtlSeconds: int('ENQUIRY_CACHE_TTL_SECONDS', 300, 0, 86400),
    enquiryTimeoutMs: int('ENQUIRY_TIMEOUT_MS', 5000, 1, 60000),
    enquiryValiditySeconds: int('ENQUIRY_VALIDITY_SECONDS', 1800, 60, 86_400),
    enquiryRetentionIntervalMs: int('ENQUIRY_RETENTION_INTERVAL_MS', 3_600_000, 1000, 86_400_000),
  };
}
