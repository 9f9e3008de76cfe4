import { Webhook } from 'standardwebhooks';
import type { Logger } from 'pino';
import type { WebhookSettings } from '../config/app-config';
import type { Clock } from '../config/clock';
import { WriteBatcher } from '../db/write-batcher';
import type { MerchantRegistry } from '../merchants/merchant-registry';
import { isStoreFailure } from '../stores/store-failure';
import type { ServiceMetrics } from '../metrics/service-metrics';
import type { AttemptRecord, ClaimedWebhookEvent, SqlWebhookEventRepository } from './sql-webhook-event.repository';
import type { StoredWebhookEvent } from './webhook-delivery';
import { ReceiverConnections, sendWebhook, type SendResult } from './webhook-sender';
import { receiverOfUrl } from './receiver-circuit';
import { staticTargetProblem, type Resolver, type TargetPolicy } from './webhook-target';

/**
 * How long a claimed delivery stays this instance's beyond the attempt's own
 * timeout. If the instance dies mid-attempt, another takes the event once the
 * lease ends; while it runs, no other instance sends it.
 */
const LEASE_MARGIN_MS = 5000;
/** Pauses before writing ended attempts again when the store fails the write: 3.75 s in all, within LEASE_MARGIN_MS. */
const RECORD_RETRY_DELAYS_MS = [250, 500, 1000, 2000];
/** Retry delays are stretched by up to this fraction, so that receivers that failed together are not retried together. */
const JITTER = 0.1;
/** What a batch's round may take beyond the attempt's own timeout (signing, the next send's turn): its lease is this much longer again. */
const BATCH_ROUND_SLACK_MS = 1000;
/**
 * A batch goes on only while each of its attempts is delivered within this. A
 * slower or failed answer ends it: its unsent events go back to the claims,
 * which give a slow receiver its share alone and a failing one its circuit.
 */
const BATCH_QUICK_ANSWER_MS = 1000;

export interface WebhookDispatcherOptions {
  events: SqlWebhookEventRepository;
  merchants: MerchantRegistry;
  settings: WebhookSettings;
  clock: Clock;
  logger: Logger;
  metrics: ServiceMetrics;
  resolve: Resolver;
  random?: () => number;
  /** Called when a delivery ends and frees a slot, so that the next claim need not wait for the poll. */
  onSlotFreed?: () => void;
}

/**
 * Delivers the outbox, inside every api instance: claims due events, signs
 * each as Standard Webhooks with every active secret of its merchant, POSTs
 * it, and records the attempt with the next one's time. Claiming is a job of
 * the instance's job runner (`claim`); the deliveries it starts run beside it.
 */
export class WebhookDispatcher {
  /** Every delivery under way, a batch's waiting ones included: shutdown waits on them. */
  private readonly inFlight = new Set<Promise<void>>();
  /** Attempts being made now: the instance's slots. A batch's events waiting their turn hold none. */
  private sending = 0;
  /** Aborts the attempts in flight at shutdown; their leases run out and they are made again. */
  private readonly shutdown = new AbortController();
  /** The claim under way, if any: shutdown waits for it, since what it takes after shutdown began is given back. */
  private claiming: Promise<void> | undefined;
  private readonly policy: TargetPolicy;
  private readonly random: () => number;
  /** The attempts that ended, written together with their receivers' circuits: under load, many in one statement. */
  private readonly attempts: WriteBatcher<AttemptRecord>;
  private readonly connections: ReceiverConnections;

  constructor(private readonly options: WebhookDispatcherOptions) {
    this.policy = { allowLocalReceivers: options.settings.allowLocalReceivers };
    this.random = options.random ?? Math.random;
    const { events, settings } = options;
    // A store that is down or too slow fails the whole batch, which is written again while the leases have time left: a record lost
    // is an attempt made again. Should the write that timed out have committed after all, the retry finds the attempts already
    // kept and the events already moved; only a failing receiver's circuit may count its failures twice, and open early.
    // Any other failure is written again one record at a time, so that one record the store refuses fails only itself.
    this.attempts = new WriteBatcher((records) => events.recordAttempts(records, settings.circuit), {
      maxBatch: settings.concurrency,
      mayBeOneItem: (error) => !isStoreFailure(error),
      retryDelaysMs: RECORD_RETRY_DELAYS_MS,
    });
    this.connections = new ReceiverConnections(settings.keepAliveMs);
  }

  /** Claims what this instance has room for, and starts delivering it; the `webhook-delivery` job calls it every poll. */
  async claim(): Promise<void> {
    if (this.shutdown.signal.aborted) return;
    const claiming = this.claimAndDeliver();
    this.claiming = claiming;
    try {
      await claiming;
    } finally {
      if (this.claiming === claiming) this.claiming = undefined;
    }
  }

  private async claimAndDeliver(): Promise<void> {
    const room = this.options.settings.concurrency - this.sending;
    if (room <= 0) return;
    const { settings } = this.options;
    const fairness = {
      perMerchant: settings.perMerchantConcurrency,
      perReceiver: settings.perReceiverConcurrency,
      circuitFailures: settings.circuit.failures,
      receiverBatch: { events: settings.receiverBatch, roundMs: settings.timeoutMs + BATCH_ROUND_SLACK_MS },
    };
    const claimed = await this.options.events.claimDue(settings.timeoutMs + LEASE_MARGIN_MS, room, fairness);
    // Shutdown began while the claim ran: nothing it took can be sent now, so it is given back, its attempts unspent.
    if (this.shutdown.signal.aborted) return this.release(claimed);
    // A claim gives each receiver (a notifyUrl's origin) at most one batch.
    const batches = new Map<string, ClaimedWebhookEvent[]>();
    for (const event of claimed) {
      if (!event.batched) {
        this.track(this.deliver(event));
        continue;
      }
      const receiver = receiverOfUrl(event.notifyUrl);
      const batch = batches.get(receiver);
      if (batch) batch.push(event);
      else batches.set(receiver, [event]);
    }
    const share = Math.min(settings.perMerchantConcurrency, settings.perReceiverConcurrency);
    for (const batch of batches.values()) {
      // A batch the claim cut to one share is sent as any claimed events are: each that ends makes room for the next claim.
      if (batch.length <= share) for (const event of batch) this.track(this.deliver(event));
      else this.track(this.deliverBatch(batch, share));
    }
  }

  private track(delivery: Promise<void>): void {
    const tracked = delivery.finally(() => {
      this.inFlight.delete(tracked);
      // Whatever the last claim took: events it held back for a merchant's or a receiver's share may go now.
      if (!this.shutdown.signal.aborted) this.options.onSlotFreed?.();
    });
    this.inFlight.add(tracked);
  }

  /**
   * One batch, to one receiver: its events in the order of their leases, a
   * share at a time (the smaller of the merchant's and the receiver's), each
   * next one as soon as an attempt is answered. Its records are written as
   * each attempt ends, and the claim is woken once the whole batch is kept.
   * The batch ends early at an attempt that is not delivered quickly, and at
   * shutdown: what it did not send is released at once, its attempt not
   * spent, rather than left leased until its leases run out.
   */
  private async deliverBatch(batch: ClaimedWebhookEvent[], share: number): Promise<void> {
    const queue = [...batch].sort((a, b) => (a.lockedUntil?.getTime() ?? 0) - (b.lockedUntil?.getTime() ?? 0));
    const records: Promise<void>[] = [];
    let goesOn = true;
    const lane = async () => {
      while (goesOn && !this.shutdown.signal.aborted) {
        const event = queue.shift();
        if (event === undefined) return;
        const record = await this.attemptOnce(event);
        if (record) records.push(this.keep(event, record));
        if (record?.status !== 'delivered' || record.durationMs > BATCH_QUICK_ANSWER_MS) goesOn = false;
      }
    };
    await Promise.all(Array.from({ length: Math.min(share, queue.length) }, lane));
    if (queue.length > 0) await this.release(queue);
    await Promise.all(records);
  }

  /** Gives back events claimed and never sent: their leases end now and their attempts are not spent. A release that fails leaves them to their leases. */
  private async release(events: ClaimedWebhookEvent[]): Promise<void> {
    try {
      await this.options.events.releaseUnsent(events);
    } catch (error) {
      this.options.logger.warn({ events: events.length, err: (error as Error).message }, 'could not release unsent webhook events; they will be attempted once their leases run out');
    }
  }

  /**
   * Cuts the attempts in flight without recording them: each is made again,
   * by any instance, once its lease runs out. Shutdown never waits on a slow
   * receiver, and nothing is lost. A claim under way finishes first, and what
   * it took is given back, as is what a batch has not sent.
   */
  async stop(): Promise<void> {
    this.shutdown.abort();
    this.options.logger.info({ attemptsInFlight: this.sending }, 'webhook delivery stopping: attempts in flight are cut and made again later; what was claimed and not sent is given back');
    await this.claiming?.catch(() => undefined);
    await Promise.allSettled([...this.inFlight]);
    this.connections.close();
  }

  private async deliver(event: StoredWebhookEvent): Promise<void> {
    const record = await this.attemptOnce(event);
    if (record) await this.keep(event, record);
  }

  /** Makes the event's attempt, holding one of the instance's slots while it runs; resolves what to record, or nothing once shutdown cut it. */
  private async attemptOnce(event: StoredWebhookEvent): Promise<AttemptRecord | undefined> {
    const { settings, clock, logger, metrics } = this.options;
    const attempt = event.attemptCount;
    const startedAt = new Date(clock());
    this.sending++;
    const result = await this.attempt(event, startedAt)
      .catch((error: unknown): SendResult => {
        // A bug of ours, not the receiver's: logged with its stack, and recorded as a failed attempt, so that the schedule still ends.
        const err = error instanceof Error ? error : new Error(String(error));
        logger.error({ eventId: event.id, err: { name: err.name, message: err.message, stack: err.stack } }, 'webhook attempt failed inside the service');
        return { statusCode: null, error: 'not sent: the service failed to make the attempt', responseBody: null, retryAfterSeconds: undefined, durationMs: 0, sent: false };
      })
      .finally(() => this.sending--);
    if (this.shutdown.signal.aborted) return undefined;
    metrics.webhookDeliveryDuration.observe(result.durationMs / 1000);

    const delivered = result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;
    const gone = result.statusCode === 410;
    const delaySeconds = delivered || gone ? undefined : settings.retryScheduleSeconds[attempt];
    const retryInMs = delaySeconds === undefined ? null : this.retryDelayMs(delaySeconds, result.retryAfterSeconds);
    // Only an attempt that reached out to the receiver says anything about its circuit; one refused or not signed here does not.
    const answered = result.statusCode !== null && result.statusCode < 500 && result.statusCode !== 429;
    const outcome = delivered ? 'delivered' : gone ? 'gone' : retryInMs !== null ? 'retry' : 'failed';
    metrics.webhookDeliveries.inc({ outcome });
    // The answer's body is kept with the attempt, never logged.
    logger.info(
      { eventId: event.id, merchantId: event.merchantId, objectId: event.objectId, attempt, statusCode: result.statusCode, error: result.error, durationMs: result.durationMs, outcome, retryInMs },
      'webhook attempt',
    );
    return {
      ...(result.sent !== false && { receiver: { notifyUrl: event.notifyUrl, answered } }),
      eventId: event.id,
      attempt,
      startedAt,
      durationMs: result.durationMs,
      statusCode: result.statusCode,
      error: result.error,
      responseBody: result.responseBody,
      status: delivered ? 'delivered' : retryInMs !== null ? 'pending' : 'failed',
      retryInMs,
    };
  }

  /** Writes the attempt's record, with others that ended meanwhile; a record lost leaves the event to be attempted again once its lease runs out. */
  private async keep(event: StoredWebhookEvent, record: AttemptRecord): Promise<void> {
    try {
      await this.attempts.add(record);
    } catch (error) {
      // The lease runs out and the event is attempted again: at least once, never lost.
      this.options.logger.warn({ eventId: event.id, err: (error as Error).message }, 'could not record a webhook attempt; the event will be attempted again');
    }
  }

  private async attempt(event: StoredWebhookEvent, startedAt: Date): Promise<SendResult> {
    const { settings, merchants } = this.options;
    const problem = staticTargetProblem(event.notifyUrl, this.policy);
    if (problem) return { statusCode: null, error: `refused: ${problem}`, responseBody: null, retryAfterSeconds: undefined, durationMs: 0, sent: false };
    const secrets = merchants.signingSecretsOf(event.merchantId, event.endpointId);
    if (secrets.length === 0) return { statusCode: null, error: event.endpointId ? 'not sent: the endpoint is deleted, or has no secret to sign with' : 'not sent: the merchant has no webhook secret to sign with', responseBody: null, retryAfterSeconds: undefined, durationMs: 0, sent: false };
    const signature = secrets.map((secret) => new Webhook(secret).sign(event.id, startedAt, event.payload)).join(' ');
    return sendWebhook(
      {
        url: event.notifyUrl,
        headers: {
          'content-type': 'application/json',
          'user-agent': 'paysign-webhooks/1',
          'webhook-id': event.id,
          'webhook-timestamp': String(Math.floor(startedAt.getTime() / 1000)),
          'webhook-signature': signature,
        },
        body: event.payload,
      },
      {
        timeoutMs: settings.timeoutMs,
        responseBodyLimitBytes: settings.responseBodyLimitBytes,
        policy: this.policy,
        resolve: this.options.resolve,
        cancel: this.shutdown.signal,
        connections: this.connections,
      },
    );
  }

  /** The scheduled delay with jitter, or the receiver's Retry-After when it asks for longer, up to the configured bound. */
  private retryDelayMs(scheduledSeconds: number, retryAfterSeconds: number | undefined): number {
    const scheduled = scheduledSeconds * 1000 * (1 + JITTER * this.random());
    const asked = retryAfterSeconds === undefined ? 0 : Math.min(retryAfterSeconds, this.options.settings.maxRetryAfterSeconds) * 1000;
    return Math.round(Math.max(scheduled, asked));
  }
}

