import type { Migration } from '../db/migrations';

export const PAYOUTS: Migration = {
  id: 10,
  name: 'payouts',
  // A payout and its state. `provider_reference` is set, once, when the
  // payout becomes PROCESSING, before the provider is asked: every send and
  // resend uses it. `next_status_check_at` is when an instance next asks the
  // provider; taking a payout to check moves it on, as a lease.
  statements: [
    `CREATE TABLE payouts (
        merchant_id text NOT NULL,
        reference text NOT NULL,
        status text NOT NULL,
        amount_minor bigint NOT NULL CHECK (amount_minor > 0),
        fee_minor bigint NOT NULL CHECK (fee_minor >= 0),
        currency text NOT NULL,
        bank_code text NOT NULL,
        account_number text NOT NULL,
        account_name text NOT NULL,
        name_match text NOT NULL,
        narration text NOT NULL,
        enquiry_id text NOT NULL,
        notify_url text,
        request_fingerprint text NOT NULL,
        provider_reference text UNIQUE,
        failure_reason text,
        needs_attention boolean NOT NULL DEFAULT false,
        status_checks integer NOT NULL DEFAULT 0,
        next_status_check_at timestamptz,
        processing_at timestamptz,
        last_requery_at timestamptz,
        version integer NOT NULL DEFAULT 1,
        created_at timestamptz NOT NULL,
        completed_at timestamptz,
        reversed_at timestamptz,
        PRIMARY KEY (merchant_id, reference)
      )`,
    'CREATE INDEX payouts_listing ON payouts (merchant_id, created_at DESC, reference DESC)',
    "CREATE INDEX payouts_queued ON payouts (created_at) WHERE status = 'QUEUED'",
    'CREATE INDEX payouts_status_checks_due ON payouts (next_status_check_at) WHERE next_status_check_at IS NOT NULL',
  ],
};

export const SANDBOX_PAYOUT_TRANSFERS: Migration = {
  id: 11,
  name: 'sandbox payout provider transfers',
  // What the sandbox payout provider was asked to do, durable like a real
  // provider's books: one row per provider reference, however often it was sent.
  statements: [
    `CREATE TABLE sandbox_payout_transfers (
        provider_reference text PRIMARY KEY,
        bank_code text NOT NULL,
        account_number text NOT NULL,
        amount_minor bigint NOT NULL,
        outcome text NOT NULL,
        failure_reason text,
        received_at timestamptz NOT NULL,
        sends integer NOT NULL DEFAULT 1,
        status_checks integer NOT NULL DEFAULT 0
      )`,
  ],
};

export const PAYOUT_APPROVALS_AND_BATCHES: Migration = {
  id: 12,
  name: 'payout approvals and batches',
  // Who created each payout, the approval it needs and who decided it, and
  // the batch it waits in. A batch's own row is what joining, submitting and
  // cancelling lock, so that a payout never joins a batch being submitted.
  statements: [
    'ALTER TABLE payouts ADD COLUMN created_by text',
    'ALTER TABLE payouts ADD COLUMN batch_reference text',
    'ALTER TABLE payouts ADD COLUMN approval_status text',
    'ALTER TABLE payouts ADD COLUMN approval_decided_by text',
    'ALTER TABLE payouts ADD COLUMN approval_decided_at timestamptz',
    'ALTER TABLE payouts ADD COLUMN approval_reason text',
    'ALTER TABLE payouts ADD COLUMN approval_expires_at timestamptz',
    'ALTER TABLE payouts ADD COLUMN cancellation_reason text',
    // Cancelled before this migration: only the merchant could cancel then.
    "UPDATE payouts SET cancellation_reason = 'cancelled_by_merchant' WHERE status = 'CANCELLED'",
    'CREATE INDEX payouts_of_batch ON payouts (merchant_id, batch_reference, status) WHERE batch_reference IS NOT NULL',
    "CREATE INDEX payouts_approvals_due ON payouts (approval_expires_at) WHERE status = 'PENDING_APPROVAL'",
    `CREATE TABLE payout_batches (
        merchant_id text NOT NULL,
        reference text NOT NULL,
        title text NOT NULL,
        status text NOT NULL,
        created_by text NOT NULL,
        submitted_by text,
        cancellation_reason text,
        version integer NOT NULL DEFAULT 1,
        created_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL,
        submitted_at timestamptz,
        completed_at timestamptz,
        cancelled_at timestamptz,
        PRIMARY KEY (merchant_id, reference)
      )`,
    "CREATE INDEX payout_batches_open_due ON payout_batches (expires_at) WHERE status = 'OPEN'",
  ],
};

export const PAYOUT_DAILY_TOTALS: Migration = {
  id: 17,
  name: 'payout daily totals',
  // What each merchant's payouts created in each minute add up to, failed and
  // cancelled ones aside: the daily limit sums at most a day of minutes
  // instead of every payout of the day. Kept by triggers, so that every
  // writer of payouts keeps it, the release before this one included. A
  // minute is binned in absolute time, whatever the session's time zone.
  statements: [
    `CREATE TABLE payout_daily_totals (
        merchant_id text NOT NULL,
        minute timestamptz NOT NULL,
        amount_minor bigint NOT NULL,
        PRIMARY KEY (merchant_id, minute)
      )`,
    `CREATE FUNCTION payout_daily_totals_add_created() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO payout_daily_totals (merchant_id, minute, amount_minor)
          SELECT merchant_id, date_bin('1 minute', created_at, timestamptz '2000-01-01 00:00:00+00'), sum(amount_minor) FROM created
          WHERE status NOT IN ('FAILED', 'CANCELLED') GROUP BY 1, 2
          ON CONFLICT (merchant_id, minute) DO UPDATE SET amount_minor = payout_daily_totals.amount_minor + EXCLUDED.amount_minor;
        RETURN NULL;
      END
      $$`,
    'CREATE TRIGGER payouts_add_to_daily_totals AFTER INSERT ON payouts REFERENCING NEW TABLE AS created FOR EACH STATEMENT EXECUTE FUNCTION payout_daily_totals_add_created()',
    `CREATE FUNCTION payout_daily_totals_take_ended() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        UPDATE payout_daily_totals SET amount_minor = amount_minor - OLD.amount_minor
          WHERE merchant_id = OLD.merchant_id AND minute = date_bin('1 minute', OLD.created_at, timestamptz '2000-01-01 00:00:00+00');
        RETURN NULL;
      END
      $$`,
    // Deferred to the commit, after the ledger has locked the merchant's balances: a create locks `available` before its
    // minute's total, so an ending payout must too, or the two could wait on each other.
    `CREATE CONSTRAINT TRIGGER payouts_take_from_daily_totals AFTER UPDATE OF status ON payouts DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
      WHEN (OLD.status NOT IN ('FAILED', 'CANCELLED') AND NEW.status IN ('FAILED', 'CANCELLED')) EXECUTE FUNCTION payout_daily_totals_take_ended()`,
    `INSERT INTO payout_daily_totals (merchant_id, minute, amount_minor)
      SELECT merchant_id, date_bin('1 minute', created_at, timestamptz '2000-01-01 00:00:00+00'), sum(amount_minor) FROM payouts
      WHERE status NOT IN ('FAILED', 'CANCELLED') GROUP BY 1, 2`,
  ],
};

export const PAYOUT_PROVIDER_OF_RECORD: Migration = {
  id: 19,
  name: 'payout provider of record',
  // The provider a payout was sent through, set with its provider reference
  // when it becomes PROCESSING: every status check and resend goes there.
  // Nullable (expand): recorded at boot on the payouts still checked (sent,
  // or watched for a reversal), as payins'; one final before then keeps none.
  statements: [
    'ALTER TABLE payouts ADD COLUMN provider text',
    'CREATE INDEX payouts_provider_unrecorded ON payouts (next_status_check_at) WHERE provider IS NULL AND next_status_check_at IS NOT NULL',
  ],
};

export const PAYOUT_BATCH_BUILDING: Migration = {
  id: 29,
  name: 'payout batches being built',
  // A dashboard batch is made from a file one payout at a time, each in its
  // own transaction (as a key adds them): until its last row is in, it is
  // `building`, and no approval lists or submits it. With a default (expand):
  // the release before ignores it.
  statements: ['ALTER TABLE payout_batches ADD COLUMN building boolean NOT NULL DEFAULT false'],
};
