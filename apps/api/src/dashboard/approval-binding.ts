import { createHash } from 'node:crypto';
import type { DashboardComponents } from '@paysign/contracts';

export type ApprovalBinding = DashboardComponents['schemas']['ApprovalBinding'];

/** What a payout's approver is shown and signs: its reference, amount, currency and destination. */
export function payoutBinding(payout: { reference: string; amountMinor: bigint; currency: string; bankCode: string; accountNumber: string; accountName: string }): ApprovalBinding {
  return { kind: 'payout', reference: payout.reference, amount: Number(payout.amountMinor), currency: payout.currency, destination: `${payout.bankCode}/${payout.accountNumber} ${payout.accountName}`, count: 1 };
}

/**
 * The WebAuthn challenge that binds an approval to what was shown: the
 * SHA-256 of the binding's fields, in a fixed order, and a random nonce
 * kept by the session. The server computes it again from the payout when
 * the assertion returns, so an assertion over anything else (another
 * payout, a changed one, an altered challenge) does not verify.
 */
export function boundChallenge(binding: ApprovalBinding, nonce: string): Uint8Array {
  const fields = [binding.kind, binding.reference, String(binding.amount), binding.currency, binding.destination, String(binding.count), nonce];
  return new Uint8Array(createHash('sha256').update(JSON.stringify(fields)).digest());
}

/** The challenge as the assertion's client data carries it: base64url. */
export const challengeText = (challenge: Uint8Array): string => Buffer.from(challenge).toString('base64url');
