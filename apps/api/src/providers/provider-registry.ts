import type { PayinChannel } from '@paysign/contracts';
import type { AccountNameProvider } from './ports/account-names.port';
import type { PaymentGateway } from './ports/payment-gateway.port';
import type { PaymentRefunds } from './ports/payment-refunds.port';
import type { PayoutTransfers } from './ports/payout-transfers.port';
import type { ProviderRecords } from './ports/provider-records.port';
import type { ProviderWebhooks } from './ports/provider-webhooks.port';

/**
 * One upstream provider, as its folder builds it: an id, and the ports it
 * implements. A provider may implement any of them; the registry answers
 * for each port only the providers that implement it. A new kind of call
 * is a new port and one more optional field here, as refunds were.
 */
export interface Provider {
  /** Its id in config, in the records of what it handled, and in its webhook URL: lower case, such as `sandbox`. */
  readonly id: string;
  readonly gateway?: PaymentGateway;
  readonly payouts?: PayoutTransfers;
  /** Refunds of the payments its gateway took. */
  readonly refunds?: PaymentRefunds;
  readonly accountNames?: AccountNameProvider;
  readonly webhooks?: ProviderWebhooks;
  /** Its own records of what it did, for the daily reconciliation; none for a provider with no books of its own (the sandbox). */
  readonly records?: ProviderRecords;
  /** `degraded` while calls to it are being refused (its circuit is open); readiness shows it. */
  health?(): 'up' | 'degraded';
}

/** Where new objects go: the providers PAYMENT_GATEWAY, PAYOUT_PROVIDER and ACCOUNT_NAME_PROVIDER name; null where none is. */
export interface ProviderSelection {
  gateway: string | null;
  payouts: string | null;
  accountNames: string;
}

/** A port of a provider, by name. */
export type ProviderPort = 'gateway' | 'payouts' | 'refunds' | 'accountNames' | 'webhooks' | 'records';

/** The gateway a payin is paid through, and the channels it offers there. */
export interface PayinGateway {
  provider: string;
  adapter: PaymentGateway;
  channels: PayinChannel[];
}

/**
 * The providers this instance has configured, by id. A new object goes to
 * the provider the configuration selects; every later call about an object
 * goes to the provider its record names, which is looked up here by that
 * id and never replaced by today's selection: an object whose provider is
 * not configured gets no adapter at all, rather than another one.
 */
export class ProviderRegistry {
  private readonly byId = new Map<string, Provider>();

  constructor(
    providers: readonly Provider[],
    readonly selection: ProviderSelection,
  ) {
    for (const provider of providers) {
      if (this.byId.has(provider.id)) throw new Error(`two providers have the id ${provider.id}`);
      this.byId.set(provider.id, provider);
    }
    for (const [port, id] of [['gateway', selection.gateway], ['payouts', selection.payouts], ['accountNames', selection.accountNames]] as const) {
      if (id !== null && !this.implements(id, port)) throw new Error(`the provider selected for ${port}, ${id}, is not configured`);
    }
  }

  /** The ids of every configured provider. */
  get ids(): string[] {
    return [...this.byId.keys()];
  }

  implements(id: string, port: ProviderPort): boolean {
    return this.byId.get(id)?.[port] !== undefined;
  }

  gateway(id: string): PaymentGateway | undefined {
    return this.byId.get(id)?.gateway;
  }

  payouts(id: string): PayoutTransfers | undefined {
    return this.byId.get(id)?.payouts;
  }

  refunds(id: string): PaymentRefunds | undefined {
    return this.byId.get(id)?.refunds;
  }

  accountNames(id: string): AccountNameProvider | undefined {
    return this.byId.get(id)?.accountNames;
  }

  webhooks(id: string): ProviderWebhooks | undefined {
    return this.byId.get(id)?.webhooks;
  }

  records(id: string): ProviderRecords | undefined {
    return this.byId.get(id)?.records;
  }

  /** The account-name adapter enquiries use. */
  get enquiries(): AccountNameProvider {
    return this.byId.get(this.selection.accountNames)?.accountNames as AccountNameProvider;
  }

  /** Where a new payin on `channel` (any channel: null) would be paid; undefined when no gateway is selected or it does not serve the channel. */
  gatewayForNewPayin(channel: PayinChannel | null): PayinGateway | undefined {
    return this.selection.gateway === null ? undefined : this.payinGateway(this.selection.gateway, channel);
  }

  /**
   * The gateway of a payin: the provider its record names. A payin with no
   * provider recorded (written by a release before records were kept) is the
   * selected gateway's, as it was then.
   */
  gatewayOf(payin: { provider: string | null; gateway: PayinChannel | null }): PayinGateway | undefined {
    const provider = payin.provider ?? this.selection.gateway;
    return provider === null ? undefined : this.payinGateway(provider, payin.gateway);
  }

  /** The channels the selected gateway serves, for the error that says what may be asked for. */
  get channelsForNewPayins(): PayinChannel[] {
    return this.gatewayForNewPayin(null)?.channels ?? [];
  }

  /** The selected payout adapter, for new payouts; undefined when none is configured. */
  payoutsForNewPayouts(): { provider: string; adapter: PayoutTransfers } | undefined {
    const adapter = this.selection.payouts === null ? undefined : this.payouts(this.selection.payouts);
    return adapter && { provider: this.selection.payouts as string, adapter };
  }

  /** Each provider that reports its health, for readiness. */
  health(): Record<string, 'up' | 'degraded'> {
    const health: Record<string, 'up' | 'degraded'> = {};
    for (const provider of this.byId.values()) if (provider.health) health[provider.id] = provider.health();
    return health;
  }

  private payinGateway(provider: string, channel: PayinChannel | null): PayinGateway | undefined {
    const adapter = this.gateway(provider);
    if (!adapter) return undefined;
    const channels = channel === null ? [...adapter.channels] : adapter.channels.includes(channel) ? [channel] : [];
    return channels.length === 0 ? undefined : { provider, adapter, channels };
  }
}
