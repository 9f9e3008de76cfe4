// verifyWebhook against the standardwebhooks library, in both directions:
// what the library signs, the SDK verifies; what the SDK accepts, the library
// accepts too; and each refusal carries its own code.
import { createHmac } from 'node:crypto';
import type { Refund, RefundEventType, WebhookEvent } from '@paysign/contracts';
import { Webhook } from 'standardwebhooks';
import { WebhookVerificationError } from './errors';
import { verifyWebhook } from './webhooks';

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const OLD_SECRET = 'whsec_c2FuZGJveC13ZWJob29rLXNlY3JldC1wdWJsaWM=';
const NOW_MS = 1_795_860_192_000;
const EVENT = {
  type: 'payin.successful',
  timestamp: '2026-11-22T10:03:12.000Z',
  data: { reference: 'order-1042', status: 'SUCCESSFUL', amount: 1000.5 },
};
// Key order and spacing as sent: the signature is over these bytes, not over a re-serialisation.
const BODY = `{"type": "payin.successful", "timestamp":"2026-11-22T10:03:12.000Z","data":{"reference":"order-1042","status":"SUCCESSFUL","amount":1000.50}}`;

function signedHeaders(secrets: string[], id = 'evt_4Ql2sWmM0fJ1bq7cYb6tGQ', at = new Date(NOW_MS)): Record<string, string> {
  return {
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': secrets.map((secret) => new Webhook(secret).sign(id, at, BODY)).join(' '),
  };
}

const verify = (headers: Record<string, string | string[] | undefined>, secrets: string | string[] = SECRET, body: string | Uint8Array = BODY, toleranceSeconds?: number) =>
  verifyWebhook(body, headers, secrets, { now: () => NOW_MS, ...(toleranceSeconds === undefined ? {} : { toleranceSeconds }) });

function refusal(run: () => unknown): WebhookVerificationError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(WebhookVerificationError);
    return error as WebhookVerificationError;
  }
  throw new Error('expected a WebhookVerificationError');
}

describe('verifyWebhook', () => {
  it('verifies what the standardwebhooks library signs, and returns the event', () => {
    expect(verify(signedHeaders([SECRET]))).toEqual({ ...EVENT, data: { ...EVENT.data, amount: 1000.5 } });
  });

  it('accepts bytes, fetch Headers and Node header records alike', () => {
    const headers = signedHeaders([SECRET]);
    expect(verify(headers, SECRET, new TextEncoder().encode(BODY)).type).toBe('payin.successful');
    expect(verifyWebhook(BODY, new Headers(headers), [SECRET], { now: () => NOW_MS }).type).toBe('payin.successful');
    const upper = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toUpperCase(), v]));
    expect(verify(upper).type).toBe('payin.successful');
  });

  it('accepts any one of several signatures, and any one of several secrets: rotation on either side', () => {
    expect(verify(signedHeaders([OLD_SECRET, SECRET]), SECRET).type).toBe('payin.successful');
    expect(verify(signedHeaders([OLD_SECRET]), [SECRET, OLD_SECRET]).type).toBe('payin.successful');
  });

  it('is accepted by the standardwebhooks library exactly when it accepts', () => {
    // The same signature, checked by both: the SDK's rules are the library's.
    const headers = signedHeaders([SECRET], 'evt_interop', new Date());
    expect(verifyWebhook(BODY, headers, SECRET)).toEqual(new Webhook(SECRET).verify(BODY, headers));
    const ours = createHmac('sha256', Buffer.from(SECRET.slice(6), 'base64')).update(`evt_interop.${headers['webhook-timestamp']}.${BODY}`).digest('base64');
    expect(() => new Webhook(SECRET).verify(BODY, { ...headers, 'webhook-signature': `v1,${ours}` })).not.toThrow();
  });

  it.each([
    ['a body re-serialised by a framework', () => verify(signedHeaders([SECRET]), SECRET, JSON.stringify(JSON.parse(BODY))), 'WEBHOOK_SIGNATURE_MISMATCH'],
    ['another secret', () => verify(signedHeaders([OLD_SECRET]), SECRET), 'WEBHOOK_SIGNATURE_MISMATCH'],
    ['a signature of another scheme', () => verify({ ...signedHeaders([SECRET]), 'webhook-signature': 'v1a,abc' }), 'WEBHOOK_SIGNATURE_MISMATCH'],
    ['a timestamp 301 s old', () => verify(signedHeaders([SECRET], undefined, new Date(NOW_MS - 301_000))), 'WEBHOOK_TIMESTAMP_STALE'],
    ['a timestamp 301 s ahead', () => verify(signedHeaders([SECRET], undefined, new Date(NOW_MS + 301_000))), 'WEBHOOK_TIMESTAMP_STALE'],
    ['a timestamp outside a tolerance of 10 s', () => verify(signedHeaders([SECRET], undefined, new Date(NOW_MS - 11_000)), SECRET, BODY, 10), 'WEBHOOK_TIMESTAMP_STALE'],
    ['no webhook-id', () => verify({ ...signedHeaders([SECRET]), 'webhook-id': undefined }), 'WEBHOOK_HEADER_MALFORMED'],
    ['a webhook-timestamp that is not seconds', () => verify({ ...signedHeaders([SECRET]), 'webhook-timestamp': '2026-11-22' }), 'WEBHOOK_HEADER_MALFORMED'],
    ['two webhook-signature headers', () => verify({ ...signedHeaders([SECRET]), 'webhook-signature': ['v1,a', 'v1,b'] }), 'WEBHOOK_HEADER_MALFORMED'],
    ['no webhook-signature', () => verify({ ...signedHeaders([SECRET]), 'webhook-signature': undefined }), 'WEBHOOK_HEADER_MALFORMED'],
  ])('refuses %s', (_name, run, code) => {
    expect(refusal(run).code).toBe(code);
  });

  it('still accepts a timestamp 300 s away, like the library', () => {
    const headers = signedHeaders([SECRET], undefined, new Date(NOW_MS - 300_000));
    expect(verify(headers).type).toBe('payin.successful');
  });

  it('refuses a secret that is not a whsec_ secret, as a programming error', () => {
    expect(() => verify(signedHeaders([SECRET]), 'sk_test_not_a_webhook_secret')).toThrow(TypeError);
  });
});

describe('verifyWebhook with a refund event', () => {
  const REFUND: Refund = {
    reference: 'refund-1042-1',
    merchantId: 'MCH-SANDBOX-0001',
    payinReference: 'order-1042',
    status: 'SUCCESSFUL',
    amount: 500,
    currency: 'NGN',
    reason: 'requested_by_customer',
    merchantNote: null,
    customerNote: 'One of the two items was out of stock',
    notifyUrl: null,
    fundedFrom: 'pending',
    feeReturned: 0,
    provider: 'sandbox',
    providerReference: 'psr_4Xk2m9QwE7rTz1LpV0bN3c',
    account: null,
    failureReason: null,
    needsAttention: false,
    nextStatusCheckAt: null,
    version: 3,
    createdAt: '2026-11-22T10:00:00.000Z',
    processingAt: '2026-11-22T10:00:01.000Z',
    completedAt: '2026-11-22T10:03:12.000Z',
  };
  const REFUND_BODY = JSON.stringify({ type: 'refund.successful', version: 3, timestamp: '2026-11-22T10:03:12.000Z', data: REFUND });

  /** The refund a handler reads once `type` has narrowed the event: a type error here means the union no longer narrows. */
  function refundOf(event: WebhookEvent): { type: RefundEventType; refund: Refund } | undefined {
    switch (event.type) {
      case 'refund.pending':
      case 'refund.processing':
      case 'refund.successful':
      case 'refund.failed':
      case 'refund.requires_action':
      case 'refund.cancelled':
        return { type: event.type, refund: event.data };
      default:
        return undefined;
    }
  }

  it('verifies a refund event the standardwebhooks library signs, and narrows it to the refund by its type', () => {
    const at = new Date(NOW_MS);
    const headers = { 'webhook-id': 'evt_refund_1', 'webhook-timestamp': String(Math.floor(NOW_MS / 1000)), 'webhook-signature': new Webhook(SECRET).sign('evt_refund_1', at, REFUND_BODY) };
    const event = verifyWebhook(REFUND_BODY, headers, SECRET, { now: () => NOW_MS });
    expect(refundOf(event)).toEqual({ type: 'refund.successful', refund: REFUND });
    if (event.type !== 'refund.successful') throw new Error('expected refund.successful');
    expect([event.data.payinReference, event.data.amount, event.data.status]).toEqual(['order-1042', 500, 'SUCCESSFUL']);
  });

  it("refuses a refund event whose amount was changed after signing", () => {
    const headers = { 'webhook-id': 'evt_refund_2', 'webhook-timestamp': String(Math.floor(NOW_MS / 1000)), 'webhook-signature': new Webhook(SECRET).sign('evt_refund_2', new Date(NOW_MS), REFUND_BODY) };
    expect(refusal(() => verifyWebhook(REFUND_BODY.replace('"amount":500', '"amount":5000'), headers, SECRET, { now: () => NOW_MS })).code).toBe('WEBHOOK_SIGNATURE_MISMATCH');
  });

  it('does not narrow a payin event to a refund', () => {
    expect(refundOf(verify(signedHeaders([SECRET])))).toBeUndefined();
  });
});
