import type { Migration } from '../db/migrations';

export const ACCOUNT_ENQUIRIES: Migration = {
  id: 9,
  name: 'account enquiries',
  // Each successful enquiry, bound to the merchant that made it, so that a
  // payout can name it (enquiryId) on any instance until it expires.
  statements: [
    `CREATE TABLE account_enquiries (
        id text PRIMARY KEY,
        merchant_id text NOT NULL,
        bank_code text NOT NULL,
        account_number text NOT NULL,
        account_name text NOT NULL,
        created_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL
      )`,
    'CREATE INDEX account_enquiries_expiry ON account_enquiries (expires_at)',
  ],
};
