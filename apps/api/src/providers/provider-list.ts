import type { ProviderContext, ProviderDefinition } from './provider-definition';
import { PAYSTACK_PROVIDER } from './paystack/paystack.provider';
import { ProviderRegistry, type Provider, type ProviderSelection } from './provider-registry';
import { SANDBOX_PROVIDER } from './sandbox/sandbox.provider';

/** Every provider the service knows. A new provider is a folder beside these, and a line here. */
export const PROVIDERS: readonly ProviderDefinition[] = [SANDBOX_PROVIDER, PAYSTACK_PROVIDER];

/** What the configuration selects for new objects. */
function selectionOf(config: ProviderContext['config']): ProviderSelection {
  return {
    gateway: config.paymentGateway === 'none' ? null : config.paymentGateway,
    payouts: config.payouts.provider === 'none' ? null : config.payouts.provider,
    accountNames: config.accountNameProvider,
  };
}

/** The registry of every provider the configuration configures; `extra` adds providers built elsewhere (a test's). */
export function buildProviderRegistry(context: ProviderContext, extra: readonly Provider[] = []): ProviderRegistry {
  const built = PROVIDERS.flatMap((definition) => definition.build(context) ?? []);
  return new ProviderRegistry([...built, ...extra], selectionOf(context.config));
}

/** The migrations of every provider's own tables. */
export const PROVIDER_MIGRATIONS = PROVIDERS.flatMap((definition) => definition.migrations);
