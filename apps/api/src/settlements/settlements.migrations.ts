import type { Migration } from '../db/migrations';

export const SETTLEMENTS: Migration = {
  id: 24,
  name: 'settlements',
  // A merchant's settlement accounts (one in force, one change waiting at
  // most), schedule, and settlements. A settlement's money leaves as a payout
  // row of purpose 'settlement', sent by the payout dispatcher under the same
  // exactly-once rules, with its status; the settlement row adds what it
  // covered: the merchant's `available` entries after the previous
  // settlement's hold, up to its own. Such payouts do not count against the
  // merchant's daily payout limit. New tables and a column with a default,
  // which the release before ignores; but it would send a settlement's
  // transfer as a payout, so settlements run only where SETTLEMENTS_ENABLED
  // says every instance knows them (docs/operations.md, "Settlements").
  statements: [
    "ALTER TABLE payouts ADD COLUMN purpose text NOT NULL DEFAULT 'payout'",
    `CREATE TABLE settlement_accounts (
       id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
       merchant_id text NOT NULL,
       status text NOT NULL CHECK (status IN ('pending', 'active', 'replaced', 'cancelled')),
       bank_code text NOT NULL,
       account_number text NOT NULL,
       account_name text NOT NULL,
       enquiry_id text NOT NULL,
       requested_by text NOT NULL,
       requested_at timestamptz NOT NULL,
       effective_at timestamptz NOT NULL,
       ended_at timestamptz
     )`,
    "CREATE UNIQUE INDEX settlement_accounts_one_active ON settlement_accounts (merchant_id) WHERE status = 'active'",
    "CREATE UNIQUE INDEX settlement_accounts_one_pending ON settlement_accounts (merchant_id) WHERE status = 'pending'",
    "CREATE INDEX settlement_accounts_due ON settlement_accounts (effective_at) WHERE status = 'pending'",
    `CREATE TABLE settlement_settings (
       merchant_id text PRIMARY KEY,
       interval text CHECK (interval IN ('daily', 'weekly', 'manual')),
       minimum_minor bigint CHECK (minimum_minor >= 0),
       weekday smallint CHECK (weekday BETWEEN 1 AND 7),
       resumed_at timestamptz,
       account_version integer NOT NULL DEFAULT 0,
       updated_at timestamptz NOT NULL,
       CONSTRAINT settlement_schedule_weekday CHECK ((interval = 'weekly') = (weekday IS NOT NULL))
     )`,
    `CREATE TABLE settlements (
       merchant_id text NOT NULL,
       id text NOT NULL,
       currency text NOT NULL,
       run_key text NOT NULL,
       trigger text NOT NULL CHECK (trigger IN ('schedule', 'manual')),
       amount_minor bigint NOT NULL CHECK (amount_minor > 0),
       covers_after_entry_id bigint NOT NULL,
       hold_entry_id bigint NOT NULL,
       created_at timestamptz NOT NULL,
       PRIMARY KEY (merchant_id, id),
       CONSTRAINT settlement_once_per_run UNIQUE (merchant_id, currency, run_key)
     )`,
    'CREATE INDEX settlements_of_merchant ON settlements (merchant_id, currency, created_at DESC)',
    `CREATE OR REPLACE FUNCTION payout_daily_totals_add_created() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO payout_daily_totals (merchant_id, minute, amount_minor)
          SELECT merchant_id, date_bin('1 minute', created_at, timestamptz '2000-01-01 00:00:00+00'), sum(amount_minor) FROM created
          WHERE status NOT IN ('FAILED', 'CANCELLED') AND purpose = 'payout' GROUP BY 1, 2
          ON CONFLICT (merchant_id, minute) DO UPDATE SET amount_minor = payout_daily_totals.amount_minor + EXCLUDED.amount_minor;
        RETURN NULL;
      END
      $$`,
    `CREATE OR REPLACE FUNCTION payout_daily_totals_take_ended() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF OLD.purpose <> 'payout' THEN
          RETURN NULL;
        END IF;
        UPDATE payout_daily_totals SET amount_minor = amount_minor - OLD.amount_minor
          WHERE merchant_id = OLD.merchant_id AND minute = date_bin('1 minute', OLD.created_at, timestamptz '2000-01-01 00:00:00+00');
        RETURN NULL;
      END
      $$`,
  ],
};
