import type { Logger } from 'pino';
import { ConfigError } from './config/app-config';
import type { SqlClient } from './db/sql-client';
import type { ServiceMetrics } from './metrics/service-metrics';
import { payinsInFlightByProvider, recordPayinProviders, retirePayinsOf, unrecordedPayinsInFlight } from './payins/payin-provider-records';
import { payoutsInFlightByProvider, recordPayoutProviders, retirePayoutsOf, unrecordedPayoutsInFlight } from './payouts/payout-provider-records';
import type { ProviderPort, ProviderRegistry } from './providers/provider-registry';

/** Objects in flight at one provider that this configuration does not configure for them. */
interface Stranded {
  provider: string;
  payins: number;
  payouts: number;
}

/**
 * At boot, before anything is served: every payin and payout still in flight
 * has its provider of record configured, since only that provider may be
 * asked about it, and nothing is ever sent again through another.
 *
 * Rows written without a provider (by the release before records were kept)
 * are first given the one the configuration selects, the one they ran under.
 * Then a configuration that no longer configures a provider still named by
 * an object in flight is refused, naming the provider and the objects;
 * unless the operator retired that provider for good (RETIRED_PROVIDERS):
 * its objects are then flagged `needsAttention` and no longer asked about,
 * for an operator to settle with the provider by hand. No outcome is guessed.
 */
export async function settleProvidersOfRecord(client: SqlClient, registry: ProviderRegistry, options: { retired: readonly string[]; logger: Logger; metrics: ServiceMetrics }): Promise<void> {
  const { selection } = registry;
  const recorded = {
    payins: selection.gateway === null ? 0 : await recordPayinProviders(client, selection.gateway),
    payouts: selection.payouts === null ? 0 : await recordPayoutProviders(client, selection.payouts),
  };
  if (recorded.payins + recorded.payouts > 0) options.logger.info({ ...recorded, gateway: selection.gateway, payoutProvider: selection.payouts }, 'recorded the provider of older payins and payouts, from the configuration they ran under');
  // Left without one only where nothing is selected to record: no provider could be asked about them.
  const unrecorded = { payins: await unrecordedPayinsInFlight(client), payouts: await unrecordedPayoutsInFlight(client) };
  if (unrecorded.payins + unrecorded.payouts > 0) {
    throw new ConfigError(
      `Invalid configuration:\n- ${unrecorded.payins} payins and ${unrecorded.payouts} payouts are in flight with no provider recorded (written by the release before providers were recorded), and PAYMENT_GATEWAY or PAYOUT_PROVIDER selects none: select the provider they ran under for one start, which records it on them, then select what you want`,
    );
  }

  const stranded = strandedObjects(registry, await payinsInFlightByProvider(client), await payoutsInFlightByProvider(client));
  const refused = stranded.filter((group) => !options.retired.includes(group.provider));
  if (refused.length > 0) {
    throw new ConfigError(
      `Invalid configuration:\n- ${refused
        .map(
          (group) =>
            `${describe(group)} in flight at provider "${group.provider}", which this configuration no longer configures: only it may settle them. Keep its settings (its key and base URL) until they are final, whatever PAYMENT_GATEWAY and PAYOUT_PROVIDER select for new ones; or, if the provider is gone for good, set RETIRED_PROVIDERS=${group.provider} to flag them needsAttention for an operator`,
        )
        .join('\n- ')}`,
    );
  }
  for (const group of stranded) {
    const flagged = { payins: await retirePayinsOf(client, group.provider), payouts: await retirePayoutsOf(client, group.provider) };
    if (flagged.payins > 0) options.metrics.needsAttention('payin', 'provider_retired', flagged.payins);
    if (flagged.payouts > 0) options.metrics.needsAttention('payout', 'provider_retired', flagged.payouts);
    options.logger.error({ provider: group.provider, ...flagged }, `provider "${group.provider}" is retired (RETIRED_PROVIDERS): its objects in flight need attention, and are no longer asked about; settle each with the provider by hand`);
  }
}

function strandedObjects(registry: ProviderRegistry, payins: Map<string, number>, payouts: Map<string, number>): Stranded[] {
  const providers = new Set([...payins.keys(), ...payouts.keys()]);
  const missing = (provider: string, port: ProviderPort, count: number | undefined) => (count !== undefined && !registry.implements(provider, port) ? count : 0);
  return [...providers]
    .map((provider) => ({ provider, payins: missing(provider, 'gateway', payins.get(provider)), payouts: missing(provider, 'payouts', payouts.get(provider)) }))
    .filter((group) => group.payins + group.payouts > 0)
    .sort((a, b) => a.provider.localeCompare(b.provider));
}

function describe(group: Stranded): string {
  const parts = [group.payins > 0 ? `${group.payins} payin${group.payins === 1 ? '' : 's'} (PENDING, started there)` : '', group.payouts > 0 ? `${group.payouts} payout${group.payouts === 1 ? '' : 's'} (PROCESSING, or paid and watched for a reversal)` : ''];
  return parts.filter(Boolean).join(' and ');
}
