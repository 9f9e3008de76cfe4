import { randomBytes } from 'node:crypto';
import type { PaymentRefunds, RefundAnswer, RefundOrder } from '../ports/payment-refunds.port';

/**
 * The sandbox's refunds: no money, and an outcome chosen by the refund's
 * kobo, as docs/sandbox.md documents, the same on every call so that a
 * status check agrees with the send:
 * - `.51`: the provider refuses it (FAILED, declined_by_provider);
 * - `.52`: it cannot go back to the way the customer paid (REQUIRES_ACTION),
 *   and succeeds once sent to the customer's bank account;
 * - `.53`: the provider never answers (PROCESSING until simulated, or until
 *   its checks flag it);
 * - anything else succeeds at once.
 */
export class SandboxRefunds implements PaymentRefunds {
  newReference(): string {
    return `psr_${randomBytes(16).toString('base64url').slice(0, 22)}`;
  }

  async refund(order: RefundOrder): Promise<RefundAnswer> {
    return outcomeOf(order);
  }

  async status(order: RefundOrder): Promise<RefundAnswer> {
    return outcomeOf(order);
  }

  async sendToAccount(order: RefundOrder): Promise<RefundAnswer> {
    return outcomeOf(order);
  }
}

function outcomeOf(order: RefundOrder): RefundAnswer {
  switch (order.amountMinor % 100n) {
    case 51n:
      return { outcome: 'failed', reason: 'declined_by_provider' };
    case 52n:
      return order.account ? { outcome: 'successful' } : { outcome: 'requires_action' };
    case 53n:
      return { outcome: 'processing' };
    default:
      return { outcome: 'successful' };
  }
}
