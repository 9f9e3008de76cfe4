import type { Migration } from '../db/migrations';

export const CREATE_PAYINS: Migration = {
  id: 1,
  name: 'create payins',
  statements: [
    `CREATE TABLE payins (
      merchant_id text NOT NULL,
      reference text NOT NULL,
      status text NOT NULL,
      amount_minor bigint NOT NULL CHECK (amount_minor > 0),
      currency text NOT NULL,
      customer_email text NOT NULL,
      customer_name text,
      gateway text,
      narration text,
      notify_url text,
      redirect_url text,
      request_fingerprint text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (merchant_id, reference)
    )`,
  ],
};

export const PAYIN_LIFECYCLE: Migration = {
  id: 2,
  name: 'payin lifecycle, checkout and listing',
  // Payins created before this have no checkout seed, so no link; their
  // expiry is backfilled as creation + 30 min, the default, after which the
  // sweeper abandons them. Creation times are set by the service to the millisecond
  // from now on, so the listing cursor can name a position exactly.
  statements: [
    `ALTER TABLE payins
        ADD COLUMN expires_at timestamptz,
        ADD COLUMN paid_at timestamptz,
        ADD COLUMN failed_at timestamptz,
        ADD COLUMN failure_reason text,
        ADD COLUMN checkout_seed text,
        ADD COLUMN checkout_token_hash text`,
    `UPDATE payins SET created_at = date_trunc('milliseconds', created_at), expires_at = date_trunc('milliseconds', created_at) + interval '30 minutes'`,
    'ALTER TABLE payins ALTER COLUMN expires_at SET NOT NULL',
    'CREATE UNIQUE INDEX payins_checkout_token_hash ON payins (checkout_token_hash)',
    'CREATE INDEX payins_listing ON payins (merchant_id, created_at DESC, reference DESC)',
    "CREATE INDEX payins_pending_expiry ON payins (expires_at) WHERE status = 'PENDING'",
  ],
};

export const PAYIN_VERSION: Migration = {
  id: 5,
  name: 'payin version',
  // Each change of a payin adds one, and its event carries the number, so a
  // receiver can ignore an event older than one it already has. A payin
  // already final has changed once since it was created.
  statements: ['ALTER TABLE payins ADD COLUMN version integer NOT NULL DEFAULT 1', "UPDATE payins SET version = 2 WHERE status <> 'PENDING'"],
};

export const PAYIN_PROVIDER_PAYMENTS: Migration = {
  id: 13,
  name: 'payin provider payments',
  // A payin taken on a provider's page: the provider's reference and page,
  // when its outcome is next asked for, and whether an operator must look
  // (the provider reported another amount, or a payment after expiry).
  statements: [
    `ALTER TABLE payins
       ADD COLUMN provider_reference text,
       ADD COLUMN provider_payment_url text,
       ADD COLUMN next_provider_check_at timestamptz,
       ADD COLUMN needs_attention boolean NOT NULL DEFAULT false`,
    'CREATE UNIQUE INDEX payins_provider_reference ON payins (provider_reference) WHERE provider_reference IS NOT NULL',
    "CREATE INDEX payins_provider_check_due ON payins (next_provider_check_at) WHERE status = 'PENDING' AND next_provider_check_at IS NOT NULL",
  ],
};

export const PAYIN_ATTEMPTS: Migration = {
  id: 15,
  name: 'payin attempts',
  // Each try at paying a payin at checkout, numbered from 1 per payin: the
  // number is the order, and the primary key makes two tabs that read the
  // same count unable to both write the next one. A new table: the release
  // before it reads and writes payins as it did.
  statements: [
    `CREATE TABLE payin_attempts (
       merchant_id text NOT NULL,
       reference text NOT NULL,
       attempt integer NOT NULL CHECK (attempt > 0),
       channel text NOT NULL,
       outcome text NOT NULL CHECK (outcome IN ('succeeded', 'declined')),
       decline_reason text,
       attempted_at timestamptz NOT NULL,
       PRIMARY KEY (merchant_id, reference, attempt),
       FOREIGN KEY (merchant_id, reference) REFERENCES payins (merchant_id, reference))`,
  ],
};

export const PAYIN_PROVIDER_OF_RECORD: Migration = {
  id: 18,
  name: 'payin provider of record',
  // The provider that takes the payin, fixed at create: every later call
  // about it goes there, whatever is selected then. Nullable (expand): the
  // release before this one writes none, and at boot the service records it
  // on the PENDING ones, from the configuration they ran under, through the
  // partial index; a payin final before then keeps none. It becomes required
  // for new rows in a later release.
  statements: ['ALTER TABLE payins ADD COLUMN provider text', "CREATE INDEX payins_provider_unrecorded ON payins (created_at) WHERE provider IS NULL AND status = 'PENDING'"],
};

export const PAYIN_SEARCH_INDEXES: Migration = {
  id: 28,
  name: 'payin search indexes',
  // The dashboard's payins page (dashboard/payins.controller.ts) pages
  // newest first under a status, a channel, a customer's email or an
  // amount: each index leads with the merchant and the value, then the
  // listing's order, so a filtered page reads its rows in order and stops,
  // however many payins the merchant has. The email is matched
  // case-insensitively, hence lower(). New indexes: the release before
  // ignores them. Built in the migration's transaction, which holds writes
  // to payins, every merchant's, until all four are built; IF NOT EXISTS
  // lets an operator with a large table build them beforehand with CREATE
  // INDEX CONCURRENTLY (docs/operations.md, Upgrades), and the migration
  // then builds nothing.
  statements: [
    'CREATE INDEX IF NOT EXISTS payins_by_status ON payins (merchant_id, status, created_at DESC, reference DESC)',
    'CREATE INDEX IF NOT EXISTS payins_by_gateway ON payins (merchant_id, gateway, created_at DESC, reference DESC)',
    'CREATE INDEX IF NOT EXISTS payins_by_email ON payins (merchant_id, lower(customer_email), created_at DESC, reference DESC)',
    'CREATE INDEX IF NOT EXISTS payins_by_amount ON payins (merchant_id, amount_minor, created_at DESC, reference DESC)',
  ],
};
