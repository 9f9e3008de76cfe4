import { envValues, type Env } from './env-values';
import type { ServiceMode } from './service-mode';

/** Which adapter serves a seam: the sandbox's, the upstream provider's, or none. */
export type ProviderChoice = 'sandbox' | 'paystack' | 'none';

export interface PaystackSettings {
  /** The secret key: sent only as the bearer token of provider calls, and the key of its webhook signatures. Never logged. */
  secretKey: string;
  baseUrl: string;
}

/** The provider's public API; tests point PAYSTACK_BASE_URL at a local fake. */
export const PAYSTACK_PUBLIC_BASE_URL = 'https://api.paystack.co';

/** PROVIDER_CIRCUIT_*: when a circuit opens, and for how long. */
export interface ProviderCircuitSettings {
  /** Failed calls that open a circuit (PROVIDER_CIRCUIT_FAILURES). Default 5. */
  failures: number;
  /** How long it stays open before one trial call (PROVIDER_CIRCUIT_OPEN_SECONDS). Default 30. */
  openSeconds: number;
  /** How far back failures count (PROVIDER_CIRCUIT_WINDOW_SECONDS). Default 60. */
  windowSeconds: number;
  /** Distinct merchants (the service's own jobs count as one) the failures must come from (PROVIDER_CIRCUIT_SOURCES). Default 2. */
  sources: number;
  /** Distinct banks failed enquiries must come from to open the enquiry circuit, rather than only their banks' (PROVIDER_CIRCUIT_ENQUIRY_BANKS). Default 2. */
  enquiryBanks: number;
}

export interface ProviderSettings {
  /** Where enquiries resolve account names: the sandbox's fixed accounts, or the upstream provider. */
  accountNameProvider: 'sandbox' | 'paystack';
  /** Where payins are collected: the sandbox adapter, the upstream provider, or none (payins refused with GATEWAY_NOT_CONFIGURED). */
  paymentGateway: 'sandbox' | 'paystack' | 'none';
  /** The upstream provider's API, when any seam selects it, or its key is set for what is still in flight there. */
  paystack: PaystackSettings | undefined;
  /** Providers gone for good (RETIRED_PROVIDERS): their objects still in flight are flagged needsAttention at boot instead of refusing it. */
  retiredProviders: string[];
  /** The longest any call to an upstream provider may take; past it the outcome is unknown. */
  providerTimeoutMs: number;
  /** Times a call that cannot do anything twice (a GET) is sent again after a 5xx, a timeout or a failed connection. */
  providerRetries: number;
  /**
   * When a circuit of the provider opens (one per kind of call, and one per bank for enquiries): failed calls (5xx,
   * timeouts, unreachable) with no success between them, within a window, from enough distinct merchants; and how long it stays open.
   */
  providerCircuit: ProviderCircuitSettings;
  /** How often each instance asks the provider about payins whose payment it has not heard the outcome of. */
  payinProviderCheckIntervalMs: number;
}

/**
 * The provider of each seam (account names, payins, payouts) and how the
 * upstream one is called. Production must name the account-name provider and
 * may not pay or collect through the sandbox. The payout seam is returned
 * apart: the configuration keeps it as payouts.provider.
 */
export function readProviders(env: Env, mode: ServiceMode, problems: string[]): { providers: ProviderSettings; payoutProvider: ProviderChoice } {
  const { int, url, choice } = envValues(env, problems);
  if (mode === 'production') {
    if (!env.ACCOUNT_NAME_PROVIDER) problems.push('ACCOUNT_NAME_PROVIDER is required in production mode: "paystack" resolves names at the banks; "sandbox" answers from fixed test accounts, so set it only knowingly');
    if (env.PAYMENT_GATEWAY === 'sandbox') problems.push('PAYMENT_GATEWAY must not be "sandbox" in production mode: the sandbox takes no money, so customers would be told they paid');
    if (env.PAYOUT_PROVIDER === 'sandbox') problems.push('PAYOUT_PROVIDER must not be "sandbox" in production mode: the sandbox pays no one, so payouts would be reported paid');
  }
  const accountNameProvider = choice('ACCOUNT_NAME_PROVIDER', ['sandbox', 'paystack'] as const, 'sandbox');
  const paymentGateway = choice('PAYMENT_GATEWAY', ['sandbox', 'paystack', 'none'] as const, mode === 'sandbox' ? 'sandbox' : 'none');
  const payoutProvider = choice('PAYOUT_PROVIDER', ['sandbox', 'paystack', 'none'] as const, mode === 'sandbox' ? 'sandbox' : 'none');
  const paystack = paystackSettings(env, mode, [accountNameProvider, paymentGateway, payoutProvider].includes('paystack'), url('PAYSTACK_BASE_URL', ['https:', 'http:']), problems);
  const retiredProviders = providerIds('RETIRED_PROVIDERS', env.RETIRED_PROVIDERS, problems);
  for (const [name, selected] of [['ACCOUNT_NAME_PROVIDER', accountNameProvider], ['PAYMENT_GATEWAY', paymentGateway], ['PAYOUT_PROVIDER', payoutProvider]] as const) {
    if (retiredProviders.includes(selected)) problems.push(`${name} selects "${selected}", which RETIRED_PROVIDERS names as gone for good: select another provider, or take it out of RETIRED_PROVIDERS`);
  }
  const providers: ProviderSettings = {
    accountNameProvider,
    paymentGateway,
    paystack,
    retiredProviders,
    providerTimeoutMs: int('PROVIDER_TIMEOUT_MS', 15_000, 100, 120_000),
    providerRetries: int('PROVIDER_RETRIES', 2, 0, 5),
    providerCircuit: {
      failures: int('PROVIDER_CIRCUIT_FAILURES', 5, 1, 1000),
      openSeconds: int('PROVIDER_CIRCUIT_OPEN_SECONDS', 30, 1, 3600),
      windowSeconds: int('PROVIDER_CIRCUIT_WINDOW_SECONDS', 60, 1, 3600),
      sources: int('PROVIDER_CIRCUIT_SOURCES', 2, 1, 100),
      enquiryBanks: int('PROVIDER_CIRCUIT_ENQUIRY_BANKS', 2, 1, 100),
    },
    payinProviderCheckIntervalMs: int('PAYIN_PROVIDER_CHECK_INTERVAL_MS', 5000, 20, 600_000),
  };
  return { providers, payoutProvider };
}

/** A comma-separated list of provider ids, such as `paystack`; unset: none. */
function providerIds(name: string, raw: string | undefined, problems: string[]): string[] {
  const ids = (raw ?? '').split(',').map((id) => id.trim()).filter((id) => id !== '');
  const invalid = ids.filter((id) => !/^[a-z][a-z0-9-]{0,31}$/.test(id));
  if (invalid.length > 0) problems.push(`${name} must be provider ids separated by commas, such as "paystack", got "${invalid.join(',')}"`);
  return ids.filter((id) => !invalid.includes(id));
}

/**
 * Whether a key set while no seam selects Paystack configures it, for what is
 * still in flight there: only a secret key of this mode's kind (live in
 * production, test in sandbox). Any other is ignored, as it always was
 * unselected: a sandbox sharing production's Secret never takes its live key.
 */
function keptForObjectsInFlight(secretKey: string | undefined, mode: ServiceMode): boolean {
  return secretKey !== undefined && new RegExp(`^sk_${mode === 'production' ? 'live' : 'test'}_[A-Za-z0-9]{8,200}$`).test(secretKey);
}

/**
 * PAYSTACK_SECRET_KEY and PAYSTACK_BASE_URL, required when a seam selects the
 * provider, and taken when set though none does: what was sent through
 * Paystack before another provider was selected is still settled there.
 * Production takes a live key only: a test key moves no money, so customers
 * would be told they paid and payouts reported sent.
 */
function paystackSettings(env: Env, mode: ServiceMode, selected: boolean, baseUrl: string | undefined, problems: string[]): PaystackSettings | undefined {
  if (!selected && !keptForObjectsInFlight(env.PAYSTACK_SECRET_KEY, mode)) return undefined;
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
