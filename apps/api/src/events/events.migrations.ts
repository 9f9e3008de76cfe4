import type { Migration } from '../db/migrations';

export const CREATE_OUTBOX: Migration = {
  id: 3,
  name: 'webhook outbox',
  // An event row is written in the transaction that makes its payin final
  // (the outbox), and each attempt to deliver it is kept for debugging. As
  // shipped, before the outbox took any kind of object.
  statements: [
    `CREATE TABLE webhook_events (
        id text PRIMARY KEY,
        merchant_id text NOT NULL,
        reference text NOT NULL,
        type text NOT NULL,
        payload text NOT NULL,
        notify_url text NOT NULL,
        created_at timestamptz NOT NULL,
        status text NOT NULL,
        attempt_count integer NOT NULL DEFAULT 0,
        next_attempt_at timestamptz,
        locked_until timestamptz,
        FOREIGN KEY (merchant_id, reference) REFERENCES payins (merchant_id, reference)
      )`,
    "CREATE INDEX webhook_events_due ON webhook_events (next_attempt_at) WHERE status = 'pending'",
    'CREATE INDEX webhook_events_of_payin ON webhook_events (merchant_id, reference, created_at)',
    `CREATE TABLE webhook_attempts (
        event_id text NOT NULL REFERENCES webhook_events (id),
        attempt integer NOT NULL,
        started_at timestamptz NOT NULL,
        duration_ms integer NOT NULL,
        status_code integer,
        error text,
        response_body text,
        next_attempt_at timestamptz,
        PRIMARY KEY (event_id, attempt)
      )`,
  ],
};

export const OUTBOX_OF_ANY_OBJECT: Migration = {
  id: 4,
  name: 'outbox events of any object, with its version',
  // The outbox no longer names payins: an event is of an object of some type,
  // at some version. Events written before this were all of payins made
  // final, which is their second version.
  statements: [
    'ALTER TABLE webhook_events DROP CONSTRAINT IF EXISTS webhook_events_merchant_id_reference_fkey',
    'ALTER TABLE webhook_events RENAME COLUMN reference TO object_id',
    "ALTER TABLE webhook_events ADD COLUMN object_type text NOT NULL DEFAULT 'payin', ADD COLUMN version integer NOT NULL DEFAULT 2",
    'ALTER TABLE webhook_events ALTER COLUMN object_type DROP DEFAULT, ALTER COLUMN version DROP DEFAULT',
    'ALTER TABLE webhook_events RENAME TO outbox_events',
    'ALTER INDEX webhook_events_due RENAME TO outbox_events_due',
    'DROP INDEX webhook_events_of_payin',
    'CREATE INDEX outbox_events_of_object ON outbox_events (merchant_id, object_type, object_id, created_at)',
  ],
};
