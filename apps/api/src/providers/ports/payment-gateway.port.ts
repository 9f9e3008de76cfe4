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
  | { channel: 'ussd'; dialCode: string }
  /** The customer pays on the provider's own page; the checkout sends them there. */
  | { channel: PayinChannel; hostedBy: string };

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
 * A gateway whose payment is taken on our own checkout page: the page asks
 * the adapter what to offer, and hands it the customer's attempt. The
 * sandbox's.
 */
export interface FormGateway {
  readonly kind: 'form';
  /** For logs and the docs: which adapter this is. */
  readonly name: string;
  readonly channels: readonly PayinChannel[];
  checkoutMethod(channel: PayinChannel, payin: Collection): CheckoutMethod;
  attempt(payin: Collection, attempt: PaymentAttempt, now: Date): Promise<GatewayDecision>;
}

/** What a hosted gateway is asked to collect: the payin, who pays, how, and where the customer comes back to. */
export interface HostedCollection extends Collection {
  customerEmail: string;
  channels: readonly PayinChannel[];
  /** Our page the provider sends the customer back to; it verifies the payment with the provider before anything moves. */
  returnUrl: string;
}

/**
 * What the provider says of a payment now. `paid` carries what the payment
 * was for (`amountMinor`), what the customer was charged for it
 * (`chargedMinor`, at least that when paid in full: it may include a fee
 * passed on to the customer) and the currency; the caller credits the payin
 * only when the first is the payin's amount, the second covers it, and the
 * currency is the payin's. `declined`: the last attempt was declined, and the
 * customer may still try again on the provider's page. `pending`: a payment
 * is under way (a transfer not yet received, a card being authorised).
 * `unpaid`: nothing paid and nothing under way. `not_found`: the provider
 * has no such payment.
 */
export type ProviderPaymentStatus =
  | { outcome: 'paid'; amountMinor: bigint; chargedMinor: bigint; currency: string }
  | { outcome: 'declined'; reason: DeclineReason }
  | { outcome: 'pending' }
  | { outcome: 'unpaid' }
  | { outcome: 'not_found' };

/**
 * A gateway whose payment is taken on the provider's own page: at create,
 * the payin is started at the provider, and the checkout page sends the
 * customer to the provider's page. The outcome is never taken from the
 * browser: the provider is asked (`paymentStatus`) when the customer comes
 * back, when its webhook arrives, and on a schedule until expiry.
 *
 * Both methods reject when the provider gives no answer (timeout, 5xx): the
 * outcome is then unknown, and the caller asks again later.
 */
export interface HostedGateway {
  readonly kind: 'hosted';
  readonly name: string;
  /** How the checkout page names where the customer is sent: the provider's brand. */
  readonly displayName: string;
  readonly channels: readonly PayinChannel[];
  /** Starts the payment under a new provider reference, and answers the page the customer pays on. A refusal resolves `refused`. */
  startPayment(collection: HostedCollection, signal: AbortSignal): Promise<{ providerReference: string; paymentPageUrl: string } | { refused: string }>;
  /** What the provider says of the payment of `providerReference`, made for the merchant `merchantId`. */
  paymentStatus(payment: { providerReference: string; merchantId: string }, signal: AbortSignal): Promise<ProviderPaymentStatus>;
}

/**
 * The payment gateway port: collects the money for the channels it serves,
 * on our page (the sandbox's) or on the provider's own (a hosted gateway).
 * docs/providers.md says what each must guarantee.
 */
export type PaymentGateway = FormGateway | HostedGateway;
