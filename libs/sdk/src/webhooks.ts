import { isWebhookSecret, WEBHOOK_SECRET_PREFIX, WEBHOOK_SECRET_RULE } from '@paysign/signing';
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { WebhookEvent } from '@paysign/contracts';
import { WebhookVerificationError, type WebhookVerificationErrorCode } from './errors';

/** Node's IncomingHttpHeaders, a fetch Headers, or a plain record of header names to values. */
export type WebhookHeaders = Headers | Readonly<Record<string, string | readonly string[] | undefined>>;

export interface VerifyWebhookOptions {
  /** How far `webhook-timestamp` may be from your clock, in seconds. Default 300, as Standard Webhooks and Stripe. */
  toleranceSeconds?: number;
  /** Your clock, in milliseconds; for tests. */
  now?: () => number;
}

export const DEFAULT_WEBHOOK_TOLERANCE_SECONDS = 300;

/**
 * Verifies a webhook from the service, as Standard Webhooks defines it, and
 * returns its event: a payin's, a payout's, a payout batch's or a refund's,
 * told apart by `type`. Pass the body exactly as it arrived, before any JSON
 * parsing: a framework that parses and re-serialises the body breaks the
 * signature. `secrets` are your `whsec_` secrets; during a rotation pass them
 * all, and any one matching is enough.
 * @throws {WebhookVerificationError} for a missing or malformed header, a stale timestamp, or no matching signature.
 */
export function verifyWebhook(rawBody: string | Uint8Array, headers: WebhookHeaders, secrets: string | readonly string[], options: VerifyWebhookOptions = {}): WebhookEvent {
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  if (!id || !/^[^\s.]{1,256}$/.test(id)) fail('WEBHOOK_HEADER_MALFORMED', 'webhook-id is missing or malformed.');
  if (!timestamp || !/^[0-9]{1,12}$/.test(timestamp)) fail('WEBHOOK_HEADER_MALFORMED', 'webhook-timestamp is missing or is not Unix seconds.');
  if (!signatures) fail('WEBHOOK_HEADER_MALFORMED', 'webhook-signature is missing.');

  const tolerance = options.toleranceSeconds ?? DEFAULT_WEBHOOK_TOLERANCE_SECONDS;
  const skew = Math.abs((options.now ?? Date.now)() / 1000 - Number(timestamp));
  if (skew > tolerance) fail('WEBHOOK_TIMESTAMP_STALE', `webhook-timestamp is ${Math.round(skew)} s from your clock, more than the ${tolerance} s tolerated: a replayed or delayed delivery, or a wrong clock.`);

  const body = typeof rawBody === 'string' ? Buffer.from(rawBody, 'utf8') : Buffer.from(rawBody);
  const offered = signatures
    .split(' ')
    .filter((part) => part.startsWith('v1,'))
    .map((part) => Buffer.from(part.slice(3)));
  for (const secret of typeof secrets === 'string' ? [secrets] : secrets) {
    const expected = Buffer.from(signatureOf(secret, id, timestamp, body));
    if (offered.some((signature) => signature.length === expected.length && timingSafeEqual(signature, expected))) return parseEvent(body);
  }
  fail('WEBHOOK_SIGNATURE_MISMATCH', 'No webhook-signature matches your secrets. Check the secret, and that the body is the raw bytes as received, not re-serialised JSON.');
}

function header(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const record = headers as Readonly<Record<string, string | readonly string[] | undefined>>;
  const key = Object.keys(record).find((candidate) => candidate.toLowerCase() === name);
  const value = key === undefined ? undefined : record[key];
  return Array.isArray(value) ? (value.length === 1 ? (value[0] as string) : undefined) : (value as string | undefined);
}

/** Standard Webhooks' signature: base64 HMAC-SHA256 of `{id}.{timestamp}.{body}` under the secret's key. */
function signatureOf(secret: string, id: string, timestamp: string, body: Buffer): string {
  return createHmac('sha256', secretKey(secret)).update(`${id}.${timestamp}.`).update(body).digest('base64');
}

function secretKey(secret: string): Buffer {
  if (!isWebhookSecret(secret)) throw new TypeError(`verifyWebhook: each secret must be ${WEBHOOK_SECRET_RULE}, as the merchants file holds it.`);
  return Buffer.from(secret.slice(WEBHOOK_SECRET_PREFIX.length), 'base64');
}

/** What signTestWebhook makes: the body and the headers of a delivery, as the service would send them. */
export interface TestWebhook {
  body: string;
  headers: { 'content-type': 'application/json'; 'webhook-id': string; 'webhook-timestamp': string; 'webhook-signature': string };
}

/**
 * Signs an event as the service signs a delivery, so that your receiver's
 * tests can post it to your handler and see verifyWebhook accept it (as
 * stripe-node's generateTestHeaderString). The body is `event` as JSON, or
 * the exact string given.
 */
export function signTestWebhook(event: WebhookEvent | string, secret: string, options: { id?: string; timestampSeconds?: number } = {}): TestWebhook {
  const body = typeof event === 'string' ? event : JSON.stringify(event);
  const id = options.id ?? `evt_test_${randomBytes(12).toString('base64url')}`;
  const timestamp = String(options.timestampSeconds ?? Math.floor(Date.now() / 1000));
  const signature = signatureOf(secret, id, timestamp, Buffer.from(body, 'utf8'));
  return { body, headers: { 'content-type': 'application/json', 'webhook-id': id, 'webhook-timestamp': timestamp, 'webhook-signature': `v1,${signature}` } };
}

/** The verified body as an event. An event type newer than this SDK is returned as it is, for your default branch. */
function parseEvent(body: Buffer): WebhookEvent {
  let event: unknown;
  try {
    event = JSON.parse(body.toString('utf8'));
  } catch {
    fail('WEBHOOK_PAYLOAD_INVALID', 'The signed body is not JSON.');
  }
  if (typeof event !== 'object' || event === null || typeof (event as { type?: unknown }).type !== 'string') fail('WEBHOOK_PAYLOAD_INVALID', 'The signed body is not an event: it has no type.');
  return event as WebhookEvent;
}

function fail(code: WebhookVerificationErrorCode, message: string): never {
  throw new WebhookVerificationError({ code, message });
}
