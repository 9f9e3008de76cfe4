import type { Migration } from '../db/migrations';

export const ATTEMPTS_ALLOWED: Migration = {
  id: 6,
  name: 'webhook attempts allowed per event',
  // NULL: as many as the retry schedule has steps. A redelivery allows one
  // more than the event has had. No event is claimed past its allowance, so
  // an attempt that could not be recorded never turns into endless resends.
  statements: ['ALTER TABLE outbox_events ADD COLUMN attempts_allowed integer'],
};

export const RECEIVER_CIRCUITS: Migration = {
  id: 7,
  name: 'webhook receiver circuits, fair claiming and retention',
  statements: [
    // One row per receiver (a notifyUrl's origin) that has failed lately: how
    // many attempts in a row it left unanswered, and until when it gets none.
    `CREATE TABLE webhook_receivers (
        receiver text PRIMARY KEY,
        failures integer NOT NULL,
        open_until timestamptz
      )`,
    // The attempts in flight, counted per merchant and receiver at each claim.
    "CREATE INDEX outbox_events_leased ON outbox_events (locked_until) WHERE status = 'pending' AND locked_until IS NOT NULL",
    // The ended events, oldest first, for the retention job.
    "CREATE INDEX outbox_events_ended ON outbox_events (created_at) WHERE status <> 'pending'",
  ],
};

export const CLAIMS_BY_MERCHANT: Migration = {
  id: 16,
  name: 'webhook claims by merchant',
  // A claim reads each merchant's oldest pending events through this index,
  // and the merchants with any by skipping along it, instead of every event
  // that is due: its cost no longer grows with the backlog. An index only:
  // the release before it runs as it did.
  statements: ["CREATE INDEX outbox_events_pending_by_merchant ON outbox_events (merchant_id, next_attempt_at, id) WHERE status = 'pending'"],
};
