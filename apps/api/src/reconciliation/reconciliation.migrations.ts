import type { Migration } from '../db/migrations';

export const RECONCILIATION: Migration = {
  id: 25,
  name: 'reconciliation',
  // The daily reconciliation against each provider's own records
  // (docs/reconciliation.md): every run, with what it found; every
  // discrepancy once per provider and identity (its kind, object and
  // reference), however often its day is run again, with how an operator
  // settled it; and the one row every instance claims the daily run on.
  // New tables only: the release before never reads them.
  statements: [
    `CREATE TABLE reconciliation_runs (
       id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
       day date NOT NULL,
       provider text NOT NULL,
       trigger text NOT NULL,
       outcome text NOT NULL CHECK (outcome IN ('running', 'clean', 'discrepancies', 'failed', 'not_applicable')),
       started_at timestamptz NOT NULL,
       finished_at timestamptz,
       counts jsonb,
       error text
     )`,
    'CREATE INDEX reconciliation_runs_of_day ON reconciliation_runs (day, provider, outcome)',
    "CREATE INDEX reconciliation_runs_succeeded ON reconciliation_runs (finished_at) WHERE outcome IN ('clean', 'discrepancies')",
    `CREATE TABLE reconciliation_discrepancies (
       id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
       provider text NOT NULL,
       identity text NOT NULL,
       day date NOT NULL,
       kind text NOT NULL,
       object_type text NOT NULL,
       merchant_id text,
       our_reference text,
       provider_reference text,
       their_reference text,
       ours jsonb,
       theirs jsonb,
       first_seen_at timestamptz NOT NULL,
       last_seen_at timestamptz NOT NULL,
       first_run_id bigint NOT NULL REFERENCES reconciliation_runs (id),
       last_run_id bigint NOT NULL REFERENCES reconciliation_runs (id),
       status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'resolved')),
       resolution text,
       resolution_reason text,
       resolved_by text,
       resolved_at timestamptz,
       correction_journal_id bigint,
       CONSTRAINT reconciliation_discrepancy_once UNIQUE (provider, identity),
       CONSTRAINT reconciliation_resolution_recorded CHECK (status = 'open' OR (resolution IS NOT NULL AND resolution_reason IS NOT NULL AND resolved_by IS NOT NULL AND resolved_at IS NOT NULL))
     )`,
    "CREATE INDEX reconciliation_discrepancies_open ON reconciliation_discrepancies (kind) WHERE status = 'open'",
    'CREATE UNIQUE INDEX reconciliation_discrepancies_journal ON reconciliation_discrepancies (correction_journal_id) WHERE correction_journal_id IS NOT NULL',
    'CREATE TABLE reconciliation_schedule (id smallint PRIMARY KEY CHECK (id = 1), claimed_day date, claimed_at timestamptz)',
    'INSERT INTO reconciliation_schedule (id) VALUES (1)',
  ],
};
