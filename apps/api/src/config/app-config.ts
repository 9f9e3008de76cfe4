import { readCheckout, type CheckoutSettings } from './checkout-config';
import { readDashboard, type DashboardSettings } from './dashboard-config';
import { readEnquiries, type EnquirySettings } from './enquiries-config';
import { readLedgerCheck, type LedgerCheckSettings } from './ledger-check-config';
import type { Env } from './env-values';
import { installPaths, SOURCE_DIR, type DocsPaths, type InstallPaths } from './install-paths';
import { readLogging, type LoggingSettings } from './logging-config';
import { readMerchants, type MerchantsSettings } from './merchants-config';
import { readMetrics, type MetricsSettings } from './metrics-config';
import { readPayins, type PayinSettings } from './payins-config';
import { readPayouts, type PayoutSettings } from './payouts-config';
import { readProviderWebhooks, type ProviderWebhookSettings } from './provider-webhooks-config';
import { readProviders, type ProviderSettings } from './providers-config';
import { readRateLimits, type RateLimits } from './rate-limits-config';
import { readReconciliation, type ReconciliationConfig } from './reconciliation-config';
import { readRefunds, type RefundSettings } from './refunds-config';
import { readReports, type ReportSettings } from './reports-config';
import { readServiceMode, type ServiceMode } from './service-mode';
import { readServer, type ServerSettings } from './server-config';
import { readSettlement, type SettlementSettings } from './settlement-config';
import { readSigning, type SigningSettings } from './signing-config';
import { readStores, type StoreSettings } from './stores-config';
import { readWebhooks, type WebhookSettings } from './webhooks-config';

export { SANDBOX_CHECKOUT_TOKEN_SECRET } from './checkout-config';
export { PAYSTACK_PUBLIC_BASE_URL, type PaystackSettings } from './providers-config';
export { DEFAULT_REDIS_KEY_PREFIX } from './stores-config';
export { DEFAULT_WEBHOOK_RETRY_SCHEDULE, type ReceiverCircuitSettings } from './webhooks-config';
export type { PayoutSettings, RateLimits, ServiceMode, WebhookSettings };

/** Everything the service reads from its environment, validated at boot; each section's settings, rules and production refusals are in its own file. */
export interface AppConfig
  extends MerchantsSettings,
    StoreSettings,
    CheckoutSettings,
    ProviderSettings,
    LoggingSettings,
    ServerSettings,
    SigningSettings,
    EnquirySettings,
    PayinSettings,
    SettlementSettings,
    LedgerCheckSettings,
    MetricsSettings,
    ReportSettings {
  mode: ServiceMode;
  rateLimits: RateLimits;
  payouts: PayoutSettings;
  refunds: RefundSettings;
  providerWebhooks: ProviderWebhookSettings;
  webhooks: WebhookSettings;
  reconciliation: ReconciliationConfig;
  dashboard: DashboardSettings;
  /** The OpenAPI contract served at /payment/openapi.yaml. */
  contractPath: string;
  /** What /payment/docs serves besides the contract. */
  docs: DocsPaths;
}

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/** Reads and validates the configuration, section by section; every problem is reported at once. */
export function loadConfig(env: Env, paths: InstallPaths = installPaths(SOURCE_DIR)): AppConfig {
  const problems: string[] = [];
  const mode = readServiceMode(env, problems);
  // The sections production cannot run without come first, so that their refusals head the list.
  const merchants = readMerchants(env, mode, problems, { sandboxMerchantsFile: paths.sandboxMerchantsFile });
  const stores = readStores(env, mode, problems);
  const checkout = readCheckout(env, mode, problems);
  const { providers, payoutProvider } = readProviders(env, mode, problems);
  const logging = readLogging(env, problems);
  const server = readServer(env, problems);
  const config: AppConfig = {
    mode,
    ...merchants,
    ...stores,
    ...checkout,
    ...providers,
    ...logging,
    ...server,
    ...readSigning(env, problems),
    rateLimits: readRateLimits(env, problems),
    ...readEnquiries(env, problems),
    ...readPayins(env, problems),
    ...readSettlement(env, mode, problems),
    ...readLedgerCheck(env, problems),
    ...readReports(env, problems),
    payouts: readPayouts(env, problems, { provider: payoutProvider }),
    refunds: readRefunds(env, problems),
    providerWebhooks: readProviderWebhooks(env, problems, { bodyLimitBytes: server.bodyLimitBytes }),
    webhooks: readWebhooks(env, mode, problems),
    ...readMetrics(env, mode, problems, { servicePort: server.port }),
    ...readReconciliation(env, mode, problems),
    dashboard: readDashboard(env, problems, { assetsDir: paths.dashboardDir }),
    contractPath: paths.contractPath,
    docs: paths.docs,
  };
  if (problems.length > 0) throw new ConfigError(`Invalid configuration:\n- ${problems.join('\n- ')}`);
  return config;
}
