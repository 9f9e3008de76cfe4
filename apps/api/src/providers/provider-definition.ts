import type { Logger } from 'pino';
import type { AppConfig } from '../config/app-config';
import type { Migration } from '../db/migrations';
import type { SqlClient } from '../db/sql-client';
import type { StoreClock } from '../db/store-clock';
import type { ServiceMetrics } from '../metrics/service-metrics';
import type { AccountNameProvider } from './ports/account-names.port';
import type { Provider } from './provider-registry';

/** What a provider's folder may build its adapters from. */
export interface ProviderContext {
  config: AppConfig;
  /** The payin database, where an adapter keeps books of its own (its own tables, from its own migrations). */
  client: SqlClient;
  storeClock: StoreClock;
  metrics: ServiceMetrics;
  logger: Logger;
  clock: () => number;
  /**
   * The account-name adapter enquiries use (ACCOUNT_NAME_PROVIDER, or a
   * test's), resolved once the registry exists: the sandbox, which has no
   * bank of its own, checks a payout's name at dispatch as its enquiry did.
   */
  enquiryNames: () => AccountNameProvider;
}

/**
 * A provider as the registry's list names it: its id, the tables it keeps,
 * and how it is built. `build` answers undefined where the configuration
 * does not configure the provider (no key for it): it then handles nothing,
 * and an object whose record names it waits for it, or for an operator.
 */
export interface ProviderDefinition {
  readonly id: string;
  /** Its own tables' migrations; schema.ts places them among everyone's by id. */
  readonly migrations: readonly Migration[];
  build(context: ProviderContext): Provider | undefined;
}
