import type { Migration } from '../../db/migrations';

/** The Paystack transfer recipient of each account paid: created once, reused by every later payout to it. */
export const PAYSTACK_RECIPIENTS: Migration = {
  id: 14,
  name: 'paystack_recipients',
  statements: [
    `CREATE TABLE paystack_recipients (
       bank_code text NOT NULL,
       account_number text NOT NULL,
       recipient_code text NOT NULL,
       created_at timestamptz NOT NULL DEFAULT now(),
       PRIMARY KEY (bank_code, account_number))`,
  ],
};

/**
 * The Paystack id of each refund made there, by our reference: Paystack
 * takes no idempotency key for a refund, and a refund found by its id is
 * never made again, whatever its note says.
 */
export const PAYSTACK_REFUNDS: Migration = {
  id: 21,
  name: 'paystack_refunds',
  statements: [
    `CREATE TABLE paystack_refunds (
       provider_reference text PRIMARY KEY,
       refund_id bigint NOT NULL,
       created_at timestamptz NOT NULL DEFAULT now())`,
  ],
};
