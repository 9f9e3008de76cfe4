import type { ProviderNotice, ProviderWebhooks, WebhookRefusal } from '../ports/provider-webhooks.port';
import type { PaystackApi } from './paystack-api';
import { providerReferenceOf } from './paystack-payout-transfers';

/** The transfer events, each a prompt to verify the transfer (https://paystack.com/docs/payments/webhooks/#types-of-events). */
const TRANSFER_EVENTS = new Set(['transfer.success', 'transfer.failed', 'transfer.reversed']);

/**
 * Paystack's webhooks: `x-paystack-signature`, HMAC-SHA512 of the raw body
 * under the secret key, checked before anything is parsed
 * (https://paystack.com/docs/payments/webhooks/#verify-event-origin).
 * `charge.success` names a payin by the transaction reference we started it
 * under; a transfer event names a payout by our `PSX-` reference, which
 * Paystack holds in lower case.
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
    const { event, data } = parsed as { event?: unknown; data?: { reference?: unknown } };
    const name = typeof event === 'string' ? event.slice(0, 64) : '';
    const reference = typeof data === 'object' && data !== null ? data.reference : undefined;
    if (typeof reference !== 'string' || reference.length === 0 || reference.length > 100) return { object: 'none', event: name };
    if (name === 'charge.success') return { object: 'payin', providerReference: reference, event: name };
    if (TRANSFER_EVENTS.has(name)) {
      const ours = providerReferenceOf(reference);
      return ours === undefined ? { object: 'none', event: name } : { object: 'payout', providerReference: ours, event: name };
    }
    return { object: 'none', event: name };
  }
}
