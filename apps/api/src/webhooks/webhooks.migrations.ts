import type { Migration } from '../db/migrations';

export const ATTEMPTS_ALLOWED: Migration = {
  id: 6,
  name: 'webhook attempts allowed per event',
  // NULL: as many as the retry schedule has steps. A redelivery allows one
  // more than the event has had. No event is claimed past its allowance, so
  // an attempt that could not be recorded never turns into endless resends.
  statements: ['ALTER TABLE outbox_events ADD COLUMN attempts_allowed integer'],
};
