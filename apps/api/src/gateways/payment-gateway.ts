import type { DeclineReason, PayinChannel } from '@paysign/contracts';

/** What a gateway is asked to collect: the payin as the gateway sees it. */
export interface Collection {
  merchantId: string;
  reference: string;
  amountMinor: bigint;
  currency: string;
}

/** What the checkout page offers for one channel, as the gateway describes it. */
export type CheckoutMethod =
  | { channel: 'card'; testCards: ReadonlyArray<{ number: string; outcome: string }> }
  | { channel: 'bank_transfer'; bankName: string; accountNumber: string; accountName: string }
  | { channel: 'ussd'; dialCode: string };

export interface CardDetails {
  number: string;
  expiry: string;
  cvc: string;
}

/** A customer's attempt to pay from the checkout page. Cancelling is not a payment attempt: checkout records it without asking the gateway. */
export type PaymentAttempt = { channel: 'card'; card: CardDetails } | { channel: 'bank_transfer' } | { channel: 'ussd' };

export type CardField = 'cardNumber' | 'cardExpiry' | 'cardCvc';

/** What the gateway made of an attempt. `invalid` changes nothing: the page is shown again with the errors. */
export type GatewayDecision = { kind: 'paid' } | { kind: 'declined'; reason: DeclineReason } | { kind: 'invalid'; errors: Partial<Record<CardField, string>> };

/**
 * A payment gateway adapter: collects the money for the channels it serves.
 * The checkout page asks the adapter of the payin's `gateway` (channel) what
 * to offer, and hands it the customer's attempt. Only the sandbox adapter
 * exists today; a production adapter (a card acquirer, a bank) implements
 * the same interface.
 */
export interface PaymentGateway {
  /** For logs and the docs: which adapter this is. */
  readonly name: string;
  readonly channels: readonly PayinChannel[];
  checkoutMethod(channel: PayinChannel, payin: Collection): CheckoutMethod;
  attempt(payin: Collection, attempt: PaymentAttempt, now: Date): Promise<GatewayDecision>;
}
