import { envValues, type Env } from './env-values';
import { installPaths, SOURCE_DIR, type DocsPaths, type InstallPaths } from './install-paths';
import { readLogging, type LoggingSettings } from './logging-config';
import { readMerchants, type MerchantsSettings } from './merchants-config';
import { readMetrics, type MetricsSettings } from './metrics-config';
import { readRateLimits, type RateLimits } from './rate-limits-config';
import { isGuessableSecret, MIN_SECRET_LENGTH, SECRET_STRENGTH_RULE } from './secret-strength';
import { readServiceMode, type ServiceMode } from './service-mode';
import { readServer, type ServerSettings } from './server-config';
import { readSigning, type SigningSettings } from './signing-config';
import { readStores, type StoreSettings } from './stores-config';

export { DEFAULT_REDIS_KEY_PREFIX } from './stores-config';
export type { RateLimits, ServiceMode };

/** Everything the service reads from its environment, validated at boot. */
export interface AppConfig extends MerchantsSettings, StoreSettings, LoggingSettings, ServerSettings, SigningSettings, MetricsSettings {
  mode: ServiceMode;
  enquiryCacheTtlSeconds: number;
  /** How long a successful enquiry's `enquiryId` may be named by a payout. */
  enquiryValiditySeconds: number;
  /** How often each instance deletes enquiries a day past their expiry. */
  enquiryRetentionIntervalMs: number;
  enquiryTimeoutMs: number;
  /** Where enquiries resolve account names: the sandbox's fixed accounts, or the upstream provider. */
  accountNameProvider: 'sandbox' | 'paystack';
  /** Where payins are collected: the sandbox adapter, the upstream provider, or none (payins refused with GATEWAY_NOT_CONFIGURED). */
  paymentGateway: 'sandbox' | 'paystack' | 'none';
  /** The upstream provider's API, when any seam selects it. */
  paystack: PaystackSettings | undefined;
  /** The longest any call to an upstream provider may take; past it the outcome is unknown. */
  providerTimeoutMs: number;
  /** Times a call that cannot do anything twice (a GET) is sent again after a 5xx, a timeout or a failed connection. */
  providerRetries: number;
  /** Consecutive failed provider calls (5xx, timeouts, unreachable) that open the provider's circuit, and how long it stays open. */
  providerCircuit: { failures: number; openSeconds: number };
  /** How often each instance asks the provider about payins whose payment it has not heard the outcome of. */
  payinProviderCheckIntervalMs: number;
  rateLimits: RateLimits;
  /** The OpenAPI contract served at /payment/openapi.yaml. */
  contractPath: string;
  /** What /payment/docs serves besides the contract. */
  docs: DocsPaths;
  /** The origin customers reach the service at, for checkout links; unset in sandbox: the address it listens on. */
  publicBaseUrl: string | undefined;
  /** How long a payin waits to be paid before it becomes ABANDONED. */
  payinExpirySeconds: number;
  /** Declined attempts at checkout a payin takes: the last of them makes it FAILED with too_many_attempts. */
  payinMaxAttempts: number;
  /** How often each instance abandons the payins that expired, and at most how many per statement. */
  payinSweepIntervalMs: number;
  payinSweepBatchSize: number;
  /** How long a successful payin's money stays `pending` before settlement makes it `available`: a day in production, none in sandbox. */
  settlementDelaySeconds: number;
  settlementIntervalMs: number;
  settlementBatchSize: number;
  payouts: PayoutSettings;
  /** Keys the checkout tokens (see CheckoutTokens); changing it breaks the links of open payins. */
  checkoutTokenSecret: string;
  /** Largest checkout form body accepted, in bytes. */
  checkoutFormLimitBytes: number;
  webhooks: WebhookSettings;
}

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

/** The sandbox default of CHECKOUT_TOKEN_SECRET: public, so production refuses it. */
export const SANDBOX_CHECKOUT_TOKEN_SECRET = 'sandbox-checkout-token-secret-public-not-secret';

export interface PaystackSettings {
  /** The secret key: sent only as the bearer token of provider calls, and the key of its webhook signatures. Never logged. */
  secretKey: string;
  baseUrl: string;
}

/** The provider's public API; tests point PAYSTACK_BASE_URL at a local fake. */
export const PAYSTACK_PUBLIC_BASE_URL = 'https://api.paystack.co';

type ProviderChoice = 'sandbox' | 'paystack' | 'none';

export interface PayoutSettings {
  /** Where payouts are sent: PAYOUT_PROVIDER, the sandbox provider by default in sandbox mode; none (creates answer PAYOUT_PROVIDER_NOT_CONFIGURED) by default in production. */
  provider: ProviderChoice;
  minAmountMinor: bigint;
  maxAmountMinor: bigint;
  /** The most a merchant's payouts of the last 24 hours may add up to, failed and cancelled ones aside. */
  dailyLimitMinor: bigint;
  dispatchIntervalMs: number;
  /** Payouts an instance sends at once: each holds its slot until the provider answers or times out. */
  dispatchConcurrency: number;
  /** The longest the service waits for the provider's answer to a send or a status check; past it, the outcome is unknown and a status check settles it. */
  providerTimeoutMs: number;
  /** Seconds after a payout became PROCESSING at which its first status checks run; then hourly to 72 h, then daily. */
  statusCheckScheduleSeconds: number[];
  statusCheckIntervalMs: number;
  statusCheckBatchSize: number;
  /** How long after it was first sent a transfer the provider has no record of is sent again, under the same reference. */
  resendGraceSeconds: number;
  /** The least time between two requeries of one payout. */
  requeryIntervalSeconds: number;
  /** How long the sandbox provider takes to pay an account of no documented behaviour. */
  sandboxDelayMs: number;
  /** How long a payout outside a batch waits for approval before it is cancelled with approval_expired. */
  approvalTtlSeconds: number;
  /** How long a batch stays OPEN, unsubmitted, before it is cancelled with its payouts. */
  batchTtlSeconds: number;
  /** How often each instance looks for expired approvals and batches. */
  expiryIntervalMs: number;
  /** Expired approvals, and expired batches, one run cancels at most; a full page is followed by another at once. */
  expiryBatchSize: number;
  /** The most payouts one batch holds; its cancellation releases them all in one transaction. */
  batchMaxItems: number;
  /** The most creates of one merchant that one transaction writes together, while the one before it holds the merchant's lock. */
  createGroupMax: number;
}

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/** Reads and validates the configuration; every problem is reported at once. */
export function loadConfig(env: Env, paths: InstallPaths = installPaths(SOURCE_DIR)): AppConfig {
  const problems: string[] = [];
  const { int, bool, url, choice } = envValues(env, problems);
  const mode = readServiceMode(env, problems);
  const merchants = readMerchants(env, mode, problems, { sandboxMerchantsFile: paths.sandboxMerchantsFile });
  const stores = readStores(env, mode, problems);
  if (mode === 'production') {
    if (!env.PUBLIC_BASE_URL?.startsWith('https://')) {
      problems.push(
        env.PUBLIC_BASE_URL
          ? `PUBLIC_BASE_URL must be an https origin in production mode, got "${env.PUBLIC_BASE_URL}": customers reach the checkout links built on it`
          : 'PUBLIC_BASE_URL is required in production mode, as the https origin customers reach the service at: checkout links are built on it',
      );
    }
    if (!env.CHECKOUT_TOKEN_SECRET || env.CHECKOUT_TOKEN_SECRET === SANDBOX_CHECKOUT_TOKEN_SECRET || env.CHECKOUT_TOKEN_SECRET.length < MIN_SECRET_LENGTH) {
      problems.push(`CHECKOUT_TOKEN_SECRET is required in production mode, at least ${MIN_SECRET_LENGTH} random characters and not the sandbox default: it keys the checkout links`);
    } else if (isGuessableSecret(env.CHECKOUT_TOKEN_SECRET)) {
      problems.push(`CHECKOUT_TOKEN_SECRET is too predictable for production mode (repeated, or too few different characters): it keys the checkout links; use ${SECRET_STRENGTH_RULE}`);
    }
    if (!env.ACCOUNT_NAME_PROVIDER) problems.push('ACCOUNT_NAME_PROVIDER is required in production mode: "paystack" resolves names at the banks; "sandbox" answers from fixed test accounts, so set it only knowingly');
    if (env.PAYMENT_GATEWAY === 'sandbox') problems.push('PAYMENT_GATEWAY must not be "sandbox" in production mode: the sandbox takes no money, so customers would be told they paid');
    if (env.PAYOUT_PROVIDER === 'sandbox') problems.push('PAYOUT_PROVIDER must not be "sandbox" in production mode: the sandbox pays no one, so payouts would be reported paid');
  }
  const accountNameProvider = choice('ACCOUNT_NAME_PROVIDER', ['sandbox', 'paystack'] as const, 'sandbox');
  const paymentGateway = choice('PAYMENT_GATEWAY', ['sandbox', 'paystack', 'none'] as const, mode === 'sandbox' ? 'sandbox' : 'none');
  const payoutProvider = choice('PAYOUT_PROVIDER', ['sandbox', 'paystack', 'none'] as const, mode === 'sandbox' ? 'sandbox' : 'none');
  const paystack = paystackSettings(env, mode, [accountNameProvider, paymentGateway, payoutProvider].includes('paystack'), url('PAYSTACK_BASE_URL', ['https:', 'http:']), problems);
  const logging = readLogging(env, problems);
  const server = readServer(env, problems);
  const config: AppConfig = {
    mode,
    ...merchants,
    ...stores,
    ...logging,
    ...server,
    ...readSigning(env, problems),
    enquiryCacheTtlSeconds: int('ENQUIRY_CACHE_TTL_SECONDS', 300, 0, 86400),
    enquiryTimeoutMs: int('ENQUIRY_TIMEOUT_MS', 5000, 1, 60000),
    enquiryValiditySeconds: int('ENQUIRY_VALIDITY_SECONDS', 1800, 60, 86_400),
    enquiryRetentionIntervalMs: int('ENQUIRY_RETENTION_INTERVAL_MS', 3_600_000, 1000, 86_400_000),
    accountNameProvider,
    paymentGateway,
    paystack,
    providerTimeoutMs: int('PROVIDER_TIMEOUT_MS', 15_000, 100, 120_000),
    providerRetries: int('PROVIDER_RETRIES', 2, 0, 5),
    providerCircuit: { failures: int('PROVIDER_CIRCUIT_FAILURES', 5, 1, 1000), openSeconds: int('PROVIDER_CIRCUIT_OPEN_SECONDS', 30, 1, 3600) },
    payinProviderCheckIntervalMs: int('PAYIN_PROVIDER_CHECK_INTERVAL_MS', 5000, 20, 600_000),
    rateLimits: readRateLimits(env, problems),
    ...readMetrics(env, mode, problems, { servicePort: server.port }),
    contractPath: paths.contractPath,
    docs: paths.docs,
    publicBaseUrl: publicBaseUrl(url('PUBLIC_BASE_URL', ['http:', 'https:']), problems),
    payinExpirySeconds: int('PAYIN_EXPIRY_SECONDS', 1800, 1, 604_800),
    // At most the contract's maxItems of a payin's attempts.
    payinMaxAttempts: int('PAYIN_MAX_ATTEMPTS', 3, 1, 10),
    payinSweepIntervalMs: int('PAYIN_SWEEP_INTERVAL_MS', 10_000, 50, 3_600_000),
    payinSweepBatchSize: int('PAYIN_SWEEP_BATCH_SIZE', 500, 1, 100_000),
    settlementDelaySeconds: int('SETTLEMENT_DELAY_SECONDS', mode === 'production' ? 86_400 : 0, 0, 2_592_000),
    settlementIntervalMs: int('SETTLEMENT_INTERVAL_MS', 60_000, 50, 3_600_000),
    settlementBatchSize: int('SETTLEMENT_BATCH_SIZE', 500, 1, 100_000),
    payouts: {
      provider: payoutProvider,
      minAmountMinor: BigInt(int('PAYOUT_MIN_AMOUNT', 100, 1, 1_000_000)) * 100n,
      maxAmountMinor: BigInt(int('PAYOUT_MAX_AMOUNT', 5_000_000, 1, 1_000_000_000)) * 100n,
      dailyLimitMinor: BigInt(int('PAYOUT_DAILY_LIMIT', 50_000_000, 1, 100_000_000_000)) * 100n,
      dispatchIntervalMs: int('PAYOUT_DISPATCH_INTERVAL_MS', 1000, 20, 60_000),
      dispatchConcurrency: int('PAYOUT_DISPATCH_CONCURRENCY', 20, 1, 1000),
      providerTimeoutMs: int('PAYOUT_PROVIDER_TIMEOUT_MS', 30_000, 100, 120_000),
      statusCheckScheduleSeconds: secondsList('PAYOUT_STATUS_CHECK_SCHEDULE', env.PAYOUT_STATUS_CHECK_SCHEDULE, [60, 300, 1800], problems),
      statusCheckIntervalMs: int('PAYOUT_STATUS_CHECK_INTERVAL_MS', 5000, 20, 600_000),
      statusCheckBatchSize: int('PAYOUT_STATUS_CHECK_BATCH_SIZE', 50, 1, 1000),
      resendGraceSeconds: int('PAYOUT_RESEND_GRACE_SECONDS', 300, 10, 86_400),
      requeryIntervalSeconds: int('PAYOUT_REQUERY_INTERVAL_SECONDS', 60, 1, 3600),
      sandboxDelayMs: int('SANDBOX_PAYOUT_DELAY_MS', 2000, 0, 60_000),
      approvalTtlSeconds: int('PAYOUT_APPROVAL_TTL_SECONDS', 86_400, 60, 2_592_000),
      batchTtlSeconds: int('PAYOUT_BATCH_TTL_SECONDS', 86_400, 60, 2_592_000),
      expiryIntervalMs: int('PAYOUT_EXPIRY_INTERVAL_MS', 60_000, 20, 3_600_000),
      expiryBatchSize: int('PAYOUT_EXPIRY_BATCH_SIZE', 100, 1, 10_000),
      batchMaxItems: int('PAYOUT_BATCH_MAX_ITEMS', 1000, 1, 10_000),
      createGroupMax: int('PAYOUT_CREATE_GROUP_MAX', 100, 1, 1000),
    },
    checkoutTokenSecret: env.CHECKOUT_TOKEN_SECRET || SANDBOX_CHECKOUT_TOKEN_SECRET,
    checkoutFormLimitBytes: int('CHECKOUT_FORM_LIMIT_BYTES', 4096, 512, 65_536),
    webhooks: {
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
    },
  };
  if (mode === 'production' && config.webhooks.allowLocalReceivers) {
    problems.push('WEBHOOK_ALLOW_LOCAL_RECEIVERS must not be true in production mode: a notifyUrl could then reach the service\'s own host');
  }
  if (config.webhooks.circuit.maxOpenSeconds < config.webhooks.circuit.openSeconds) {
    problems.push(`WEBHOOK_CIRCUIT_MAX_OPEN_SECONDS (${config.webhooks.circuit.maxOpenSeconds}) must be at least WEBHOOK_CIRCUIT_OPEN_SECONDS (${config.webhooks.circuit.openSeconds})`);
  }
  if (problems.length > 0) throw new ConfigError(`Invalid configuration:\n- ${problems.join('\n- ')}`);
  return config;
}

/**
 * PAYSTACK_SECRET_KEY and PAYSTACK_BASE_URL, required when a seam selects the
 * provider. Production takes a live key only: a test key moves no money, so
 * customers would be told they paid and payouts reported sent.
 */
function paystackSettings(env: Env, mode: ServiceMode, selected: boolean, baseUrl: string | undefined, problems: string[]): PaystackSettings | undefined {
  if (!selected) return undefined;
  const secretKey = env.PAYSTACK_SECRET_KEY ?? '';
  // The key is never echoed in a problem: only its prefix, which says whether it is a test or a live key.
  if (secretKey === '') problems.push('PAYSTACK_SECRET_KEY is required when ACCOUNT_NAME_PROVIDER, PAYMENT_GATEWAY or PAYOUT_PROVIDER is "paystack": it is the secret key of the Paystack account (Settings > API Keys & Webhooks)');
  else if (!/^sk_(test|live)_[A-Za-z0-9]{8,200}$/.test(secretKey)) problems.push('PAYSTACK_SECRET_KEY must be a Paystack secret key, sk_live_ or sk_test_ followed by letters and digits; a public key (pk_) cannot call the API');
  else if (mode === 'production' && secretKey.startsWith('sk_test_')) problems.push('PAYSTACK_SECRET_KEY is a test key (sk_test_), refused in production mode: test transactions move no money. Use the live secret key');
  else if (mode === 'sandbox' && secretKey.startsWith('sk_live_')) problems.push('PAYSTACK_SECRET_KEY is a live key (sk_live_), refused in sandbox mode: the sandbox\'s simulations could then report real payments and transfers that never happened. Use the test secret key');
  const base = (baseUrl ?? PAYSTACK_PUBLIC_BASE_URL).replace(/\/+$/, '');
  // The key travels in every call's header: over the network only inside TLS; plain http only to a fake on this host.
  if (URL.canParse(base) && new URL(base).protocol === 'http:' && !['127.0.0.1', 'localhost', '[::1]'].includes(new URL(base).hostname)) {
    problems.push(`PAYSTACK_BASE_URL must be https, got "${base}": the secret key is sent with every call (plain http is allowed only on this host, for a local fake)`);
  }
  return { secretKey, baseUrl: base };
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

/** Status check times: 1 to 20 rising offsets in seconds, within the 72 hours after which checks are daily. */
function secondsList(name: string, raw: string | undefined, fallback: number[], problems: string[]): number[] {
  if (raw === undefined || raw === '') return fallback;
  const parts = raw.split(',').map((part) => part.trim());
  const values = parts.map(Number);
  const valid = parts.length <= 20 && parts.every((part) => /^[1-9][0-9]{0,5}$/.test(part)) && values.every((value, i) => value <= 259_200 && (i === 0 || value > (values[i - 1] as number)));
  if (!valid) {
    problems.push(`${name} must be 1 to 20 rising comma-separated offsets in seconds, each from 1 to 259200 (72 hours), such as 60,300,1800; got "${raw}"`);
    return fallback;
  }
  return values;
}

/** An origin only: checkout links append their own path, so a path, query or fragment here would be dropped or doubled. */
function publicBaseUrl(raw: string | undefined, problems: string[]): string | undefined {
  if (raw === undefined) return undefined;
  try {
    const parsed = new URL(raw);
    if (raw.replace(/\/+$/, '').toLowerCase() !== parsed.origin) problems.push(`PUBLIC_BASE_URL must be an origin only, such as https://pay.example.com, got "${raw}"`);
    return parsed.origin;
  } catch {
    return undefined;
  }
}
