/**
 * What a provider's webhook is about, once authenticated: the object it
 * names and the provider's reference of it. It is only a prompt: the product
 * that owns the object asks the provider of record what happened, and moves
 * nothing on the event's word.
 */
export type ProviderNotice =
  | { object: 'payin'; providerReference: string; event: string }
  | { object: 'payout'; providerReference: string; event: string }
  /** About a refund of the payment the provider knows by `paymentReference`: every refund of it in flight there is checked. */
  | { object: 'refund'; paymentReference: string; event: string }
  /** Authentic, but about nothing we settle (another event type, or a reference not of ours). */
  | { object: 'none'; event: string };

/** Why a webhook body was refused before anything was read from it. */
export type WebhookRefusal = { refused: 'signature'; header: string } | { refused: 'malformed'; detail: string; code: 'INVALID_JSON' | 'BODY_NOT_OBJECT' };

/**
 * The provider webhooks port. What an adapter must guarantee: `read`
 * authenticates the raw bytes, as received, before it parses anything (a
 * constant-time comparison of the provider's signature), and answers a
 * refusal for a body it cannot authenticate; a reference it returns is one
 * the adapter's own `newReference` or payment start minted, so that a
 * notice never names another provider's object.
 */
export interface ProviderWebhooks {
  read(raw: Buffer, headers: Readonly<Record<string, string | string[] | undefined>>): ProviderNotice | WebhookRefusal;
}
