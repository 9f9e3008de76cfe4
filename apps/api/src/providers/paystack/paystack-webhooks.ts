import type { ProviderNotice, ProviderWebhooks, WebhookRefusal } from '../ports/provider-webhooks.port';
import type { PaystackApi } from './paystack-api';
import { isPaymentReference } from './paystack-gateway';
import { providerReferenceOf } from './paystack-payout-transfers';

/** The transfer events, each a prompt to verify the transfer (https://paystack.com/docs/payments/webhooks/#types-of-events). */
const TRANSFER_EVENTS = new Set(['transfer.success', 'transfer.failed', 'transfer.reversed']);

/**
 * The refund events, each a prompt to check the refunds of the transaction
 * it names (https://paystack.com/docs/payments/webhooks/#types-of-events lists
 * the first four; https://paystack.com/docs/payments/refunds/ also
 * `refund.needs-attention`).
 */
const REFUND_EVENTS = new Set(['refund.pending', 'refund.processing', 'refund.processed', 'refund.failed', 'refund.needs-attention']);

/** The longest reference read from an event; a longer one is none of ours. */
const MAX_REFERENCE_LENGTH = 100;

/**
 * Paystack's webhooks: `x-paystack-signature`, HMAC-SHA512 of the raw body
 * under the secret key, checked before anything is parsed
 * (https://paystack.com/docs/payments/webhooks/#verify-event-origin).
 * `charge.success` names a payin by the transaction reference we started it
 * under; a transfer event names a payout by our `PSX-` reference, which
 * Paystack holds in lower case; a refund event names no refund of ours (its
 * `refund_reference` is Paystack's, and may be null), only the refunded
 * transaction, by `transaction_reference`, which for a payin of ours is the
 * `psi-` reference it was started under.
 */
export class PaystackWebhooks implements ProviderWebhooks {
  constructor(private readonly api: PaystackApi) {}

  read(raw: Buffer, headers: Readonly<Record<string, string | string[] | undefined>>): ProviderNotice | WebhookRefusal {
    const signature = headers['x-paystack-signature'];
    if (!this.api.signatureMatches(raw, typeof signature === 'string' ? signature : undefined)) return { refused: 'signature', header: 'x-paystack-signature' };
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw.toString('utf8'));
    } catch {
      return { refused: 'malformed', code: 'INVALID_JSON', detail: 'The body is not JSON.' };
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return { refused: 'malformed', code: 'BODY_NOT_OBJECT', detail: 'The body is JSON but not an object.' };
    const { event, data } = parsed as { event?: unknown; data?: { reference?: unknown; transaction_reference?: unknown } };
    const name = typeof event === 'string' ? event.slice(0, 64) : '';
    const fields = typeof data === 'object' && data !== null ? data : {};
    if (REFUND_EVENTS.has(name)) {
      const payment = referenceIn(fields.transaction_reference);
      return payment !== undefined && isPaymentReference(payment) ? { object: 'refund', paymentReference: payment, event: name } : { object: 'none', event: name };
    }
    const reference = referenceIn(fields.reference);
    if (reference === undefined) return { object: 'none', event: name };
    if (name === 'charge.success') return { object: 'payin', providerReference: reference, event: name };
    if (TRANSFER_EVENTS.has(name)) {
      const ours = providerReferenceOf(reference);
      return ours === undefined ? { object: 'none', event: name } : { object: 'payout', providerReference: ours, event: name };
    }
    return { object: 'none', event: name };
  }
}

/** A reference field of an event: a non-empty string of at most MAX_REFERENCE_LENGTH characters, or none. */
function referenceIn(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 && value.length <= MAX_REFERENCE_LENGTH ? value : undefined;
}
