import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { BUILD_INFO, type BuildInfo } from './build-info';
import { LatencyHistogram } from './latency-histogram';

/** The webhook outbox at one scrape. */
export interface WebhookQueueState {
  /** Events still to be delivered. */
  pending: number;
  /** How long the longest-waiting event a claim could take has been due; 0 when none is. */
  lagSeconds: number;
}

/** The last ledger check of any instance, as the store keeps it. */
export interface LedgerCheckState {
  /** Rows breaking each invariant at the last check, 0 for one that held; undefined when the ledger was never checked. */
  failures: Readonly<Record<string, number>> | undefined;
  /** When the last check in which every invariant held started, in seconds since the epoch; 0 when none has. */
  lastGoodSeconds: number;
}

/** The seams a provider may be missing from: `gateway` (PAYMENT_GATEWAY) and `payouts` (PAYOUT_PROVIDER). */
export type ProviderSeam = 'gateway' | 'payouts';

const LATENCY_BUCKETS_SECONDS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * The service's Prometheus metrics, in a registry of its own, so that several
 * instances in one process (tests) never share counters.
 */
export class ServiceMetrics {
  readonly registry = new Registry();

  readonly requests = new Counter({
    name: 'paysign_http_requests_total',
    help: 'Requests answered, by route template, method, status and outcome code.',
    labelNames: ['method', 'route', 'status', 'outcome'] as const,
    registers: [this.registry],
  });

  /** On every request: a LatencyHistogram, whose series are resolved once. */
  readonly requestDuration = new LatencyHistogram({
    name: 'paysign_http_request_duration_seconds',
    help: 'Time from the request head to the end of the answer, by route template and method.',
    labelNames: ['method', 'route'] as const,
    buckets: LATENCY_BUCKETS_SECONDS,
    registers: [this.registry],
  });

  readonly signatureFailures = new Counter({
    name: 'paysign_signature_failures_total',
    help: 'Signed requests refused with 401, by error code.',
    labelNames: ['code'] as const,
    registers: [this.registry],
  });

  readonly dashboardSignIns = new Counter({
    name: 'paysign_dashboard_sign_ins_total',
    help: "Dashboard sign-in steps, by step (password, totp, passkey) and outcome (ok, failed, limited).",
    labelNames: ['step', 'outcome'] as const,
    registers: [this.registry],
  });

  readonly rateLimited = new Counter({
    name: 'paysign_rate_limited_total',
    help: 'Requests refused with 429, by what was limited: an API key or a client address.',
    labelNames: ['source'] as const,
    registers: [this.registry],
  });

  /** On every store operation: a LatencyHistogram, whose series are resolved once. */
  readonly storeDuration = new LatencyHistogram({
    name: 'paysign_store_operation_duration_seconds',
    help: 'Time of each store operation, by store and operation.',
    labelNames: ['store', 'operation'] as const,
    buckets: LATENCY_BUCKETS_SECONDS,
    registers: [this.registry],
  });

  readonly storeErrors = new Counter({
    name: 'paysign_store_errors_total',
    help: 'Store operations that failed (unreachable, timed out), by store and operation.',
    labelNames: ['store', 'operation'] as const,
    registers: [this.registry],
  });

  readonly webhookDeliveries = new Counter({
    name: 'paysign_webhook_deliveries_total',
    help: 'Webhook delivery attempts, by outcome: delivered, retry (a failure with attempts left), failed (none left) or gone (the receiver answered 410).',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  readonly webhookDeliveryDuration = new Histogram({
    name: 'paysign_webhook_delivery_duration_seconds',
    help: 'Time of each webhook delivery attempt, from connecting to the end of the answer.',
    buckets: LATENCY_BUCKETS_SECONDS,
    registers: [this.registry],
  });

  readonly payoutsNeedingAttention = new Counter({
    name: 'paysign_payouts_needing_attention_total',
    help: 'Payouts still PROCESSING 72 hours after they were sent, with no definitive answer from the provider: each needs an operator.',
    registers: [this.registry],
  });

  readonly payoutProviderCalls = new Counter({
    name: 'paysign_payout_provider_calls_total',
    help: 'Calls to the payout provider, by call (send, status, account_name) and outcome: the answer it gave, or unknown when it failed or timed out.',
    labelNames: ['call', 'outcome'] as const,
    registers: [this.registry],
  });

  readonly refundProviderCalls = new Counter({
    name: 'paysign_refund_provider_calls_total',
    help: 'Calls to the provider of record about refunds, by call (refund, status, send_to_account) and outcome: the answer it gave, or unknown when it failed or timed out.',
    labelNames: ['call', 'outcome'] as const,
    registers: [this.registry],
  });

  readonly providerCalls = new Counter({
    name: 'paysign_provider_calls_total',
    help: 'HTTP calls to an upstream provider, by provider, call and outcome: ok, refused (a 4xx answer), unauthorized (our key refused), throttled (429), error (5xx or unreadable), timeout, unreachable, or circuit_open (not sent).',
    labelNames: ['provider', 'call', 'outcome'] as const,
    registers: [this.registry],
  });

  readonly providerCallDuration = new Histogram({
    name: 'paysign_provider_call_duration_seconds',
    help: 'Time of each HTTP call to an upstream provider, by provider and call.',
    labelNames: ['provider', 'call'] as const,
    buckets: LATENCY_BUCKETS_SECONDS,
    registers: [this.registry],
  });

  readonly payinsNeedingAttention = new Counter({
    name: 'paysign_payins_needing_attention_total',
    help: 'Payins flagged needsAttention, each once, whatever the reason: no final answer from their provider a day after expiry, a payment reported for a payin already final, another amount or currency reported, or their provider retired. Each needs an operator.',
    registers: [this.registry],
  });

  readonly providerChecksNeedingAttention = new Counter({
    name: 'paysign_provider_checks_needing_attention_total',
    help: 'Payins, payouts and refunds flagged needsAttention by their provider checks: no definitive answer by the deadline, or their provider retired. Each needs an operator.',
    labelNames: ['object', 'reason'] as const,
    registers: [this.registry],
  });
  readonly providerMismatches = new Counter({
    name: 'paysign_provider_mismatches_total',
    help: 'Provider reports whose amount or currency differs from the payin or payout they name: nothing moved, and the object needs attention.',
    labelNames: ['provider', 'object'] as const,
    registers: [this.registry],
  });

  readonly merchantsReloadFailures = new Counter({
    name: 'paysign_merchants_reload_failures_total',
    help: 'Loads of the merchants from the database refused, by reason: unreachable (the database did not answer: everything in force stays, keys revoked since among them) or invalid (a merchant whose secret does not open under SECRETS_KEYRING, or whose settings this mode refuses: that merchant is left out, its keys refused). Counted at each load while it lasts.',
    labelNames: ['reason'] as const,
    registers: [this.registry],
  });

  readonly jobRuns = new Counter({
    name: 'paysign_job_runs_total',
    help: 'Runs of each periodic job of this instance (payin-expiry, webhook-delivery, payout-dispatch, settlement and the others of docs/operations.md), by outcome: ok or failed.',
    labelNames: ['job', 'outcome'] as const,
    registers: [this.registry],
  });

  readonly jobDuration = new Histogram({
    name: 'paysign_job_duration_seconds',
    help: 'Time of each run of each periodic job.',
    labelNames: ['job'] as const,
    buckets: LATENCY_BUCKETS_SECONDS,
    registers: [this.registry],
  });

  /**
   * An object flagged needsAttention now, for an operator: `count` of them (a boot that retires a provider flags
   * many at once). Call it only when the flag was raised now, so that each is counted once.
   */
  needsAttention(object: 'payin' | 'payout' | 'refund', reason: string, count = 1): void {
    this.providerChecksNeedingAttention.inc({ object, reason }, count);
    if (object === 'payin') this.payinsNeedingAttention.inc(count);
  }

  readonly buildInfo = new Gauge({
    name: 'paysign_build_info',
    help: 'Always 1: the version (apps/api/package.json) and the git commit of the build this instance runs; commit is unknown for a build made outside a git checkout.',
    labelNames: ['version', 'commit'] as const,
    registers: [this.registry],
  });

  readonly providerNotConfigured = new Gauge({
    name: 'paysign_provider_not_configured',
    help: '1 while a seam has no provider: seam="gateway" (PAYMENT_GATEWAY=none) answers every payin create 422 GATEWAY_NOT_CONFIGURED, seam="payouts" (PAYOUT_PROVIDER=none) every payout create 422 PAYOUT_PROVIDER_NOT_CONFIGURED; 0 while it has one.',
    labelNames: ['seam'] as const,
    registers: [this.registry],
  });

  /** Whether each seam has a provider for new objects, as configured at boot. */
  providersConfigured(configured: Readonly<Record<ProviderSeam, boolean>>): void {
    for (const seam of ['gateway', 'payouts'] as const) this.providerNotConfigured.set({ seam }, configured[seam] ? 0 : 1);
  }

  private readRunbooksBase: (() => string) | undefined;

  /** Where the runbooks are, read at each scrape: its default is built on the origin the service listens at, known once it does. */
  readonly runbooksInfo: Gauge<'base_url'> = new Gauge({
    name: 'paysign_runbooks_info',
    help: "Always 1: base_url is where the alerts' runbooks are (RUNBOOK_BASE_URL, or this service's /payment/docs/runbooks). The alert rules build each runbook_url from it: base_url#<the alert's name in lower case>.",
    labelNames: ['base_url'] as const,
    registers: [this.registry],
    collect: () => {
      if (!this.readRunbooksBase) return;
      this.runbooksInfo.reset();
      this.runbooksInfo.set({ base_url: this.readRunbooksBase() }, 1);
    },
  });

  /** Where the runbooks' base URL comes from. */
  watchRunbooks(read: () => string): void {
    this.readRunbooksBase = read;
  }

  private readLedgerCheck: (() => Promise<LedgerCheckState>) | undefined;
  private ledgerCheckInvariants: readonly string[] = [];
  /** The read in flight: both ledger gauges are collected at once, and one query serves them. */
  private ledgerCheckRead: Promise<LedgerCheckState | undefined> | undefined;

  readonly ledgerInvariantFailures: Gauge<'invariant'> = new Gauge({
    name: 'paysign_ledger_invariant_failures',
    help: 'Rows breaking each invariant of the ledger at the last check (the ledger-check job, on any instance; read from the store at each scrape), 0 for one that held; none before the first check, NaN when the store cannot be read. `npm run ledger:check` names the rows.',
    labelNames: ['invariant'] as const,
    registers: [this.registry],
    collect: async () => {
      if (!this.readLedgerCheck) return;
      const state = await this.ledgerCheck();
      this.ledgerInvariantFailures.reset();
      if (state === undefined) for (const invariant of this.ledgerCheckInvariants) this.ledgerInvariantFailures.set({ invariant }, Number.NaN);
      else for (const [invariant, rows] of Object.entries(state.failures ?? {})) this.ledgerInvariantFailures.set({ invariant }, rows);
    },
  });

  readonly ledgerLastGoodCheck: Gauge = new Gauge({
    name: 'paysign_ledger_last_good_check_timestamp_seconds',
    help: 'When the last ledger check in which every invariant held started (any instance; read from the store at each scrape, so every instance reports the same), in seconds since the epoch; 0 when none has, NaN when the store cannot be read.',
    registers: [this.registry],
    collect: async () => {
      if (!this.readLedgerCheck) return;
      this.ledgerLastGoodCheck.set((await this.ledgerCheck())?.lastGoodSeconds ?? Number.NaN);
    },
  });

  readonly ledgerCheckInterval = new Gauge({
    name: 'paysign_ledger_check_interval_seconds',
    help: 'LEDGER_CHECK_INTERVAL_SECONDS: how often the ledger is checked; PaysignLedgerCheckStale fires when no check has been good for 3 of them.',
    registers: [this.registry],
  });

  /** Where the last ledger check comes from, once the store exists; `invariants` are named NaN when it cannot be read. */
  watchLedgerChecks(read: () => Promise<LedgerCheckState>, options: { invariants: readonly string[]; intervalSeconds: number }): void {
    this.readLedgerCheck = read;
    this.ledgerCheckInvariants = options.invariants;
    this.ledgerCheckInterval.set(options.intervalSeconds);
  }

  private ledgerCheck(): Promise<LedgerCheckState | undefined> {
    const read = this.readLedgerCheck;
    if (!read) return Promise.resolve(undefined);
    this.ledgerCheckRead ??= read()
      .catch(() => undefined)
      .finally(() => {
        this.ledgerCheckRead = undefined;
      });
    return this.ledgerCheckRead;
  }

  /** The job runner's report of one run. */
  jobRun(job: string, outcome: 'ok' | 'failed', durationSeconds: number): void {
    this.jobRuns.inc({ job, outcome });
    this.jobDuration.observe({ job }, durationSeconds);
  }

  private readWebhookQueue: (() => Promise<WebhookQueueState>) | undefined;
  /** The read in flight: the registry collects both queue gauges at once, and one query serves them. */
  private webhookQueueRead: Promise<WebhookQueueState> | undefined;

  /** Events waiting for delivery, read from the store at each scrape. */
  readonly webhookQueueDepth: Gauge = new Gauge({
    name: 'paysign_webhook_queue_depth',
    help: 'Webhook events still to be delivered (pending), across all instances; NaN when the store cannot be read.',
    registers: [this.registry],
    collect: async () => {
      const state = await this.webhookQueue();
      if (state) this.webhookQueueDepth.set(state.pending);
    },
  });

  /** How far delivery is behind, read from the store at each scrape with the depth. */
  readonly webhookQueueLag: Gauge = new Gauge({
    name: 'paysign_webhook_queue_lag_seconds',
    help: "How long the webhook event that has waited longest for a claim has been due, across all instances; 0 when none is due. Events held back by their receiver's open circuit are left out. NaN when the store cannot be read.",
    registers: [this.registry],
    collect: async () => {
      const state = await this.webhookQueue();
      if (state) this.webhookQueueLag.set(state.lagSeconds);
    },
  });

  /** Where the queue's state comes from, once the store exists. */
  watchWebhookQueue(read: () => Promise<WebhookQueueState>): void {
    this.readWebhookQueue = read;
  }

  private webhookQueue(): Promise<WebhookQueueState | undefined> {
    const read = this.readWebhookQueue;
    if (!read) return Promise.resolve(undefined);
    this.webhookQueueRead ??= read()
      .catch(() => ({ pending: Number.NaN, lagSeconds: Number.NaN }))
      .finally(() => {
        this.webhookQueueRead = undefined;
      });
    return this.webhookQueueRead;
  }

  private readMemoryNonces: (() => { held: number; tableBytes: number }) | undefined;

  /** The in-memory nonce store's size, read at each scrape; absent with Redis, whose own metrics tell. */
  readonly memoryNonces: Gauge<'measure'> = new Gauge({
    name: 'paysign_memory_nonce_store',
    help: 'The in-memory nonce store: measure="held" is nonces held (live ones, and expired ones its sweeper has not freed yet), measure="table_bytes" the bytes of its table.',
    labelNames: ['measure'] as const,
    registers: [this.registry],
    collect: () => {
      if (!this.readMemoryNonces) return;
      const { held, tableBytes } = this.readMemoryNonces();
      this.memoryNonces.set({ measure: 'held' }, held);
      this.memoryNonces.set({ measure: 'table_bytes' }, tableBytes);
    },
  });

  /** Where the in-memory nonce store's size comes from, when that is the store in use. */
  watchMemoryNonces(read: () => { held: number; tableBytes: number }): void {
    this.readMemoryNonces = read;
  }

  constructor(build: BuildInfo = BUILD_INFO) {
    // Process metrics: CPU, memory, handles, event-loop lag, GC.
    collectDefaultMetrics({ register: this.registry });
    this.buildInfo.set({ version: build.version, commit: build.commit }, 1);
  }
}
