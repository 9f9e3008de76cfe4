import { envValues, type Env } from './env-values';
import type { ServiceMode } from './service-mode';

export interface WebhookSettings {
  /** A delivery attempt must be answered, body included, within this. */
  timeoutMs: number;
  /** Delay before each attempt, in seconds: the first is after the transition, each next after a failed one. */
  retryScheduleSeconds: number[];
  /** A receiver's Retry-After is honoured up to this. */
  maxRetryAfterSeconds: number;
  /** The first bytes of an answer kept for debugging. */
  responseBodyLimitBytes: number;
  /** How long a connection to a receiver is kept open, idle, for the next attempt; 0 opens one per attempt. */
  keepAliveMs: number;
  /** How often each instance looks for due deliveries. */
  pollIntervalMs: number;
  /** Deliveries one instance makes at once. */
  concurrency: number;
  /** Attempts in flight for one merchant, across all instances: one merchant's slow receiver cannot hold every slot. */
  perMerchantConcurrency: number;
  /** Attempts in flight to one receiver (a notifyUrl's origin), across all instances. */
  perReceiverConcurrency: number;
  /** Events of one merchant one claim may lease at once for an idle receiver, sent a share at a time; at most one share turns batches off. */
  receiverBatch: number;
  circuit: ReceiverCircuitSettings;
  /** Ended events (delivered or failed) and their attempts are deleted this many days after the event. */
  retentionDays: number;
  /** How often each instance deletes ended events past retention, and at most how many per statement. */
  retentionIntervalMs: number;
  retentionBatchSize: number;
  /** Whether notifyUrl may be http:// and a loopback address: sandbox only, since developers receive on localhost. */
  allowLocalReceivers: boolean;
}

/**
 * A receiver that leaves `failures` attempts in a row unanswered (no answer,
 * 5xx or 429) gets none for `openSeconds`, doubled at each further failure up
 * to `maxOpenSeconds`; then one attempt at a time until one is answered.
 */
export interface ReceiverCircuitSettings {
  failures: number;
  openSeconds: number;
  maxOpenSeconds: number;
}

/** Standard Webhooks' and Stripe's kind of schedule: immediately, then over about three days. */
export const DEFAULT_WEBHOOK_RETRY_SCHEDULE = [0, 5, 300, 1800, 7200, 18_000, 36_000, 36_000, 50_400, 72_000, 86_400];

/** Deliveries to merchants' notifyUrls; production refuses local receivers. */
export function readWebhooks(env: Env, mode: ServiceMode, problems: string[]): WebhookSettings {
  const { int, bool } = envValues(env, problems);
  const webhooks: WebhookSettings = {
    timeoutMs: int('WEBHOOK_TIMEOUT_MS', 15_000, 100, 60_000),
    retryScheduleSeconds: retrySchedule(env.WEBHOOK_RETRY_SCHEDULE, problems),
    maxRetryAfterSeconds: int('WEBHOOK_MAX_RETRY_AFTER_SECONDS', 86_400, 0, 604_800),
    responseBodyLimitBytes: int('WEBHOOK_RESPONSE_BODY_LIMIT_BYTES', 1024, 0, 65_536),
    keepAliveMs: int('WEBHOOK_KEEP_ALIVE_MS', 4000, 0, 60_000),
    pollIntervalMs: int('WEBHOOK_POLL_INTERVAL_MS', 1000, 20, 60_000),
    concurrency: int('WEBHOOK_CONCURRENCY', 64, 1, 256),
    perMerchantConcurrency: int('WEBHOOK_CONCURRENCY_PER_MERCHANT', 4, 1, 256),
    perReceiverConcurrency: int('WEBHOOK_CONCURRENCY_PER_RECEIVER', 4, 1, 256),
    receiverBatch: int('WEBHOOK_RECEIVER_BATCH', 32, 1, 256),
    circuit: {
      failures: int('WEBHOOK_CIRCUIT_FAILURES', 5, 1, 1000),
      openSeconds: int('WEBHOOK_CIRCUIT_OPEN_SECONDS', 60, 1, 86_400),
      maxOpenSeconds: int('WEBHOOK_CIRCUIT_MAX_OPEN_SECONDS', 3600, 1, 604_800),
    },
    retentionDays: int('WEBHOOK_RETENTION_DAYS', 30, 1, 3650),
    retentionIntervalMs: int('WEBHOOK_RETENTION_INTERVAL_MS', 600_000, 1000, 86_400_000),
    retentionBatchSize: int('WEBHOOK_RETENTION_BATCH_SIZE', 1000, 1, 100_000),
    allowLocalReceivers: bool('WEBHOOK_ALLOW_LOCAL_RECEIVERS', mode === 'sandbox'),
  };
  if (mode === 'production' && webhooks.allowLocalReceivers) {
    problems.push('WEBHOOK_ALLOW_LOCAL_RECEIVERS must not be true in production mode: a notifyUrl could then reach the service\'s own host');
  }
  if (webhooks.circuit.maxOpenSeconds < webhooks.circuit.openSeconds) {
    problems.push(`WEBHOOK_CIRCUIT_MAX_OPEN_SECONDS (${webhooks.circuit.maxOpenSeconds}) must be at least WEBHOOK_CIRCUIT_OPEN_SECONDS (${webhooks.circuit.openSeconds})`);
  }
  return webhooks;
}

/** WEBHOOK_RETRY_SCHEDULE: comma-separated delays in seconds, such as 0,1,2 for tests. */
function retrySchedule(raw: string | undefined, problems: string[]): number[] {
  if (raw === undefined || raw === '') return DEFAULT_WEBHOOK_RETRY_SCHEDULE;
  const parts = raw.split(',').map((part) => part.trim());
  if (parts.length > 50 || !parts.every((part) => /^[0-9]{1,6}$/.test(part) && Number(part) <= 604_800)) {
    problems.push(`WEBHOOK_RETRY_SCHEDULE must be 1 to 50 comma-separated delays in seconds, each at most 604800, such as 0,5,300; got "${raw}"`);
    return DEFAULT_WEBHOOK_RETRY_SCHEDULE;
  }
  return parts.map(Number);
}
