import type { PayinChannel } from '@paysign/contracts';
import type { PaymentGateway } from './payment-gateway';

/**
 * The gateway adapters of this deployment, by the channel each serves, as
 * PAYMENT_GATEWAY chose: the sandbox's (the default in sandbox mode), the
 * upstream provider's, or none, the default in production, where payins are
 * then refused at create time (GATEWAY_NOT_CONFIGURED) rather than send
 * customers to a page that cannot take their money.
 */
export class PaymentGateways {
  private readonly byChannel = new Map<PayinChannel, PaymentGateway>();

  constructor(adapters: readonly PaymentGateway[]) {
    for (const adapter of adapters) for (const channel of adapter.channels) if (!this.byChannel.has(channel)) this.byChannel.set(channel, adapter);
  }

  /** The channels a payin may name, in the contract's order. */
  get channels(): PayinChannel[] {
    return [...this.byChannel.keys()];
  }

  /** The channels the checkout offers for a payin: its own, or every configured one when it named none. */
  channelsFor(gateway: PayinChannel | null): PayinChannel[] {
    if (gateway === null) return this.channels;
    return this.byChannel.has(gateway) ? [gateway] : [];
  }

  adapterFor(channel: PayinChannel): PaymentGateway | undefined {
    return this.byChannel.get(channel);
  }
}
