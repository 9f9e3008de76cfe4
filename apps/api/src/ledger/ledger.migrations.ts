import type { Migration } from '../db/migrations';

export const LEDGER: Migration = {
  id: 8,
  name: 'double-entry ledger',
  // Accounts, journals and their entries. A merchant's account keeps its
  // balance on its row, updated in the journal's transaction, and may never
  // go below zero: the CHECK is the last line behind the guarded updates. The
  // platform's accounts keep no balance row (every payin would queue on it);
  // theirs is the sum of their entries. A journal is posted once per object
  // and type (the UNIQUE), and entries are never changed or deleted (the
  // trigger). A successful payin's credit waits in ledger_settlements_due
  // until settlement moves it to `available`.
  statements: [
    `CREATE TABLE ledger_accounts (
        id text PRIMARY KEY,
        merchant_id text,
        currency text NOT NULL,
        kind text NOT NULL,
        balance_minor bigint,
        CONSTRAINT ledger_merchant_balance_kept CHECK ((merchant_id IS NULL) = (balance_minor IS NULL)),
        CONSTRAINT ledger_merchant_balance_not_negative CHECK (balance_minor >= 0)
      )`,
    `CREATE TABLE ledger_journals (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        type text NOT NULL,
        merchant_id text NOT NULL,
        currency text NOT NULL,
        object_type text NOT NULL,
        object_id text NOT NULL,
        created_at timestamptz NOT NULL,
        CONSTRAINT ledger_journal_once_per_object UNIQUE (merchant_id, object_type, object_id, type)
      )`,
    `CREATE TABLE ledger_entries (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        journal_id bigint NOT NULL REFERENCES ledger_journals (id),
        account_id text NOT NULL REFERENCES ledger_accounts (id),
        merchant_id text,
        kind text NOT NULL,
        currency text NOT NULL,
        type text NOT NULL,
        amount_minor bigint NOT NULL CHECK (amount_minor <> 0),
        object_type text NOT NULL,
        object_id text NOT NULL,
        created_at timestamptz NOT NULL
      )`,
    'CREATE INDEX ledger_entries_of_merchant ON ledger_entries (merchant_id, currency, id DESC) WHERE merchant_id IS NOT NULL',
    'CREATE INDEX ledger_entries_of_journal ON ledger_entries (journal_id)',
    'CREATE INDEX ledger_entries_of_account ON ledger_entries (account_id)',
    `CREATE FUNCTION ledger_entries_are_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'ledger entries are immutable: post a correcting journal instead';
      END
      $$`,
    'CREATE TRIGGER ledger_entries_immutable BEFORE UPDATE OR DELETE ON ledger_entries FOR EACH ROW EXECUTE FUNCTION ledger_entries_are_immutable()',
    `CREATE TABLE ledger_settlements_due (
        merchant_id text NOT NULL,
        object_type text NOT NULL,
        object_id text NOT NULL,
        currency text NOT NULL,
        amount_minor bigint NOT NULL CHECK (amount_minor > 0),
        due_at timestamptz NOT NULL,
        PRIMARY KEY (merchant_id, object_type, object_id)
      )`,
    'CREATE INDEX ledger_settlements_due_at ON ledger_settlements_due (due_at)',
    'ALTER TABLE payins ADD COLUMN fee_minor bigint',
    // Payins that succeeded before the ledger existed are credited in full: no fee was quoted for them. They settle at the next settlement run.
    "UPDATE payins SET fee_minor = 0 WHERE status = 'SUCCESSFUL'",
    `INSERT INTO ledger_journals (type, merchant_id, currency, object_type, object_id, created_at)
       SELECT 'payin_credit', merchant_id, currency, 'payin', reference, paid_at FROM payins WHERE status = 'SUCCESSFUL'`,
    `INSERT INTO ledger_accounts (id, merchant_id, currency, kind, balance_minor)
       SELECT 'platform:' || currency || ':provider_settlement', NULL, currency, 'provider_settlement', NULL FROM payins WHERE status = 'SUCCESSFUL' GROUP BY currency
       UNION ALL
       SELECT 'merchant:' || merchant_id || ':' || currency || ':pending', merchant_id, currency, 'pending', sum(amount_minor) FROM payins WHERE status = 'SUCCESSFUL' GROUP BY merchant_id, currency`,
    `INSERT INTO ledger_entries (journal_id, account_id, merchant_id, kind, currency, type, amount_minor, object_type, object_id, created_at)
       SELECT j.id, 'platform:' || p.currency || ':provider_settlement', NULL, 'provider_settlement', p.currency, 'payin_credit', -p.amount_minor, 'payin', p.reference, p.paid_at
       FROM ledger_journals j JOIN payins p ON p.merchant_id = j.merchant_id AND p.reference = j.object_id
       UNION ALL
       SELECT j.id, 'merchant:' || p.merchant_id || ':' || p.currency || ':pending', p.merchant_id, 'pending', p.currency, 'payin_credit', p.amount_minor, 'payin', p.reference, p.paid_at
       FROM ledger_journals j JOIN payins p ON p.merchant_id = j.merchant_id AND p.reference = j.object_id
       ORDER BY 10`,
    `INSERT INTO ledger_settlements_due (merchant_id, object_type, object_id, currency, amount_minor, due_at)
       SELECT merchant_id, 'payin', reference, currency, amount_minor, now() FROM payins WHERE status = 'SUCCESSFUL'`,
  ],
};

export const LEDGER_CHECKS: Migration = {
  id: 23,
  name: 'ledger checks',
  // The scheduled check of the ledger's invariants (ledger-check-store.ts),
  // one row for every instance: when the last check was claimed, what the last
  // completed one found, and when one last found every invariant holding. A new
  // table: the release before never reads it.
  statements: [
    `CREATE TABLE ledger_checks (
       id smallint PRIMARY KEY CHECK (id = 1),
       claimed_at timestamptz,
       checked_at timestamptz,
       last_good_at timestamptz,
       failures jsonb
     )`,
    'INSERT INTO ledger_checks (id) VALUES (1)',
  ],
};

export const LEDGER_REPORT_INDEX: Migration = {
  id: 26,
  name: 'balance entries report index',
  // The balance-entries report (balance-entries.report.ts) reads a
  // merchant's entries in keyset batches ordered by (created_at, id); they
  // were indexed only by id within a currency. Payins, payouts and refunds
  // have theirs already (their listings', scanned backwards). A new index:
  // the release before ignores it. Built in the migration's transaction,
  // which holds writes to the entries while it builds: seconds for millions.
  statements: ['CREATE INDEX ledger_entries_report ON ledger_entries (merchant_id, created_at, id) WHERE merchant_id IS NOT NULL'],
};
