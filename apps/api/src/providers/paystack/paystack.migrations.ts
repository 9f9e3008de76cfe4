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
