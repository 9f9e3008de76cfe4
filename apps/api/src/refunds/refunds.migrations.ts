import type { Migration } from '../db/migrations';

export const REFUNDS: Migration = {
  id: 20,
  name: 'refunds',
  // A refund of a payin, and on the payin what its refunds returned and
  // hold: the CHECK is the last line behind the guarded update that admits a
  // refund only within what is left. New columns with defaults and a new
  // table: the release before refunds ignores them.
  statements: [
    `ALTER TABLE payins
       ADD COLUMN refunded_minor bigint NOT NULL DEFAULT 0,
       ADD COLUMN refunding_minor bigint NOT NULL DEFAULT 0,
       ADD CONSTRAINT payins_refunds_within_amount CHECK (refunded_minor >= 0 AND refunding_minor >= 0 AND refunded_minor + refunding_minor <= amount_minor)`,
    `CREATE TABLE refunds (
       merchant_id text NOT NULL,
       reference text NOT NULL,
       payin_reference text NOT NULL,
       payment_reference text NOT NULL,
       status text NOT NULL,
       amount_minor bigint NOT NULL CHECK (amount_minor > 0),
       currency text NOT NULL,
       reason text,
       merchant_note text,
       customer_note text,
       notify_url text,
       funded_from text NOT NULL,
       fee_returned_minor bigint NOT NULL DEFAULT 0 CHECK (fee_returned_minor >= 0),
       provider text,
       provider_reference text,
       account_bank_code text,
       account_number text,
       account_name text,
       account_enquiry_id text,
       failure_reason text,
       needs_attention boolean NOT NULL DEFAULT false,
       status_checks integer NOT NULL DEFAULT 0,
       next_status_check_at timestamptz,
       version integer NOT NULL DEFAULT 1,
       request_fingerprint text NOT NULL,
       created_by text,
       created_at timestamptz NOT NULL,
       processing_at timestamptz,
       completed_at timestamptz,
       PRIMARY KEY (merchant_id, reference),
       FOREIGN KEY (merchant_id, payin_reference) REFERENCES payins (merchant_id, reference)
     )`,
    'CREATE INDEX refunds_listing ON refunds (merchant_id, created_at DESC, reference DESC)',
    'CREATE INDEX refunds_of_payin ON refunds (merchant_id, payin_reference)',
    "CREATE INDEX refunds_of_payment ON refunds (provider, payment_reference) WHERE status IN ('PROCESSING', 'REQUIRES_ACTION')",
    "CREATE INDEX refunds_to_send ON refunds (created_at) WHERE status = 'PENDING'",
    'CREATE INDEX refunds_check_due ON refunds (next_status_check_at) WHERE next_status_check_at IS NOT NULL',
    'CREATE UNIQUE INDEX refunds_provider_reference ON refunds (provider, provider_reference) WHERE provider_reference IS NOT NULL',
  ],
};
