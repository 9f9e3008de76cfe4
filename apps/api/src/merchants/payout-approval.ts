import { moneyFromAmount } from '../money/money';

/** What a credential may do beyond what every active one may (banks, enquiry, payins): money going out, the merchant's webhook endpoints, and where and when settlements are paid. */
export const PAYOUT_ROLES = ['payouts:create', 'payouts:approve', 'refunds:create', 'webhooks:manage', 'settlements:manage'] as const;
export type PayoutRole = (typeof PAYOUT_ROLES)[number];

/** The roles of a credential whose entry names none: everything but approving, so that files written before roles keep working. */
export const DEFAULT_ROLES: readonly PayoutRole[] = ['payouts:create', 'refunds:create'];

/**
 * A merchant's `payoutApproval` in MERCHANTS_FILE: with `required`, a payout
 * of at least `thresholdNaira` waits for a second credential to approve it.
 */
export interface PayoutApprovalPolicy {
  required: boolean;
  thresholdMinor: bigint;
}

export const NO_APPROVAL: PayoutApprovalPolicy = { required: false, thresholdMinor: 0n };

/** Whether a payout of `amountMinor` needs approval under the policy. */
export function needsApproval(policy: PayoutApprovalPolicy, amountMinor: bigint): boolean {
  return policy.required && amountMinor >= policy.thresholdMinor;
}

const APPROVAL_FIELDS = ['required', 'thresholdNaira'];

/** Reads a merchant entry's `payoutApproval`; each problem is pushed onto `problems`, naming the field. */
export function parsePayoutApproval(value: unknown, at: string, problems: string[]): PayoutApprovalPolicy {
  if (value === undefined) return NO_APPROVAL;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    problems.push(`${at} must be an object {required, thresholdNaira?}, such as {"required": true, "thresholdNaira": 0}`);
    return NO_APPROVAL;
  }
  const fields = value as Record<string, unknown>;
  const unknown = Object.keys(fields).filter((key) => !APPROVAL_FIELDS.includes(key));
  if (unknown.length) problems.push(`${at} has unknown field(s) ${unknown.join(', ')}; payoutApproval has ${APPROVAL_FIELDS.join(', ')}`);
  if (typeof fields.required !== 'boolean') problems.push(`${at}.required must be true or false`);
  let thresholdMinor = 0n;
  if (fields.thresholdNaira !== undefined) {
    try {
      if (typeof fields.thresholdNaira !== 'number') throw new RangeError('not a number');
      thresholdMinor = moneyFromAmount(fields.thresholdNaira, 'NGN').minor;
      if (thresholdMinor < 0n) throw new RangeError('negative');
    } catch {
      problems.push(`${at}.thresholdNaira must be an amount in naira from 0 with at most 2 decimals, such as 500000`);
    }
  }
  return { required: fields.required === true, thresholdMinor };
}

/** Reads a credential's `roles`; undefined is the default roles. */
export function parseRoles(value: unknown, at: string, problems: string[]): readonly PayoutRole[] {
  if (value === undefined) return DEFAULT_ROLES;
  const isRole = (role: unknown): role is PayoutRole => (PAYOUT_ROLES as readonly unknown[]).includes(role);
  if (!Array.isArray(value) || value.length === 0 || !value.every(isRole) || new Set(value).size !== value.length) {
    problems.push(`${at} must be a non-empty array of distinct roles from ${PAYOUT_ROLES.map((role) => `"${role}"`).join(', ')}`);
    return DEFAULT_ROLES;
  }
  return value;
}
