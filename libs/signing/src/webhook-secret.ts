/** The prefix of a Standard Webhooks secret: `whsec_` and the base64 of the key. */
export const WEBHOOK_SECRET_PREFIX = 'whsec_';

const WEBHOOK_SECRET_FORM = /^whsec_[A-Za-z0-9+/]+={0,2}$/;

/** How a webhook secret must look, for error messages: the service refuses any other in MERCHANTS_FILE, the SDK in its options. */
export const WEBHOOK_SECRET_RULE = 'whsec_ followed by the base64 of 24 to 64 random bytes';

/** Standard Webhooks' secret form: whsec_ and the base64 of 24 to 64 bytes. */
export function isWebhookSecret(value: unknown): boolean {
  if (typeof value !== 'string' || !WEBHOOK_SECRET_FORM.test(value)) return false;
  const bytes = Buffer.from(value.slice(WEBHOOK_SECRET_PREFIX.length), 'base64').length;
  return bytes >= 24 && bytes <= 64;
}
