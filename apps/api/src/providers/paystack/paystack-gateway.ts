import { randomUUID } from 'node:crypto';
import type { DeclineReason, PayinChannel } from '@paysign/contracts';
import type { HostedCollection, HostedGateway, ProviderPaymentStatus } from '../ports/payment-gateway.port';
import type { PaystackApi } from './paystack-api';

/** Our channels to Paystack's `channels` (https://paystack.com/docs/payments/payment-channels/). */
const PAYSTACK_CHANNELS: Readonly<Record<PayinChannel, string>> = { card: 'card', bank_transfer: 'bank_transfer', ussd: 'ussd' };

/** Every transaction reference the gateway starts a payment under: this, then 32 lower-case hex digits. */
const PAYMENT_REFERENCE_PREFIX = 'psi-';

/** Whether a Paystack transaction reference is one the gateway started a payment under. */
export function isPaymentReference(reference: string): boolean {
  return reference.startsWith(PAYMENT_REFERENCE_PREFIX) && /^[0-9a-f]{32}$/.test(reference.slice(PAYMENT_REFERENCE_PREFIX.length));
}

/**
 * Payins through Paystack's hosted page (https://paystack.com/docs/payments/accept-payments/#redirect):
 * each payin is initialized as a transaction under a reference of ours,
 * new for each start, so that two merchants' equal references never meet at
 * Paystack. Verify Transaction is the only word on its outcome.
 */
export class PaystackGateway implements HostedGateway {
  readonly kind = 'hosted';
  readonly name = 'paystack';
  readonly displayName = 'Paystack';
  readonly channels: readonly PayinChannel[] = ['card', 'bank_transfer', 'ussd'];

  constructor(private readonly api: PaystackApi) {}

  async startPayment(collection: HostedCollection, signal: AbortSignal): Promise<{ providerReference: string; paymentPageUrl: string } | { refused: string }> {
    const providerReference = `${PAYMENT_REFERENCE_PREFIX}${randomUUID().replaceAll('-', '')}`;
    const started = await this.api.initializeTransaction(
      {
        reference: providerReference,
        amountMinor: collection.amountMinor,
        currency: collection.currency,
        email: collection.customerEmail,
        channels: collection.channels.map((channel) => PAYSTACK_CHANNELS[channel]),
        callbackUrl: collection.returnUrl,
      },
      { signal, merchantId: collection.merchantId },
    );
    if ('refused' in started) return { refused: `${started.status} ${started.message}` };
    return { providerReference, paymentPageUrl: started.authorizationUrl };
  }

  async paymentStatus({ providerReference, merchantId }: { providerReference: string; merchantId: string }, signal: AbortSignal): Promise<ProviderPaymentStatus> {
    const transaction = await this.api.verifyTransaction(providerReference, { signal, merchantId });
    if (!transaction) return { outcome: 'not_found' };
    return transactionStatusOf(transaction);
  }
}

/**
 * Paystack's transaction statuses (https://paystack.com/docs/payments/verify-payments/#transaction-statuses):
 * `success` is paid; `failed` is a declined attempt, after which the
 * customer may try again on Paystack's page; `ongoing`, `pending`,
 * `processing` and `queued` are a payment under way; `abandoned` (never
 * completed) and `reversed` (returned to the customer) are not paid.
 *
 * A paid transaction reports both what it was for (`requested_amount`) and
 * what was charged (`amount`, which includes Paystack's fee when the account
 * passes charges to customers); both are handed on, and the caller credits
 * only when the first is the payin's amount and the second covers it.
 * Without `requested_amount`, what was charged is all there is to go on.
 */
export function transactionStatusOf(transaction: { status: string; amountMinor: bigint; requestedAmountMinor: bigint | null; currency: string; gatewayResponse: string }): ProviderPaymentStatus {
  switch (transaction.status) {
    case 'success':
      return { outcome: 'paid', amountMinor: transaction.requestedAmountMinor ?? transaction.amountMinor, chargedMinor: transaction.amountMinor, currency: transaction.currency };
    case 'failed':
      return { outcome: 'declined', reason: declineReasonOf(transaction.gatewayResponse) };
    case 'abandoned':
    case 'reversed':
      return { outcome: 'unpaid' };
    default:
      return { outcome: 'pending' };
  }
}

/** The processor's words on a failed charge, to our decline reasons; anything else is a decline by the issuer. */
export function declineReasonOf(gatewayResponse: string): DeclineReason {
  const words = gatewayResponse.toLowerCase();
  if (/insufficient/.test(words)) return 'insufficient_funds';
  if (/expired/.test(words)) return 'expired_card';
  if (/cvv|cvc|security code/.test(words)) return 'incorrect_cvc';
  return 'card_declined';
}
