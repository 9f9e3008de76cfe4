import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { signTestWebhook } from './testing';
import { verifyWebhook } from './webhooks';

const SECRET = `whsec_${randomBytes(32).toString('base64')}`;
const EVENT = { type: 'payin.successful', version: 2, timestamp: '2026-11-24T10:00:00.000Z', data: { reference: 'order-1042' } } as never;

describe('signTestWebhook', () => {
  it('signs a delivery that verifyWebhook accepts and returns the event of', () => {
    const { body, headers } = signTestWebhook(EVENT, SECRET);
    expect(verifyWebhook(body, headers, SECRET)).toEqual(EVENT);
  });

  it('signs as Standard Webhooks does, so any of its libraries accepts it', () => {
    const { body, headers } = signTestWebhook(EVENT, SECRET, { id: 'evt_test_1', timestampSeconds: Math.floor(Date.now() / 1000) });
    expect(new Webhook(SECRET).verify(body, headers)).toEqual(EVENT);
    expect(headers['webhook-id']).toBe('evt_test_1');
  });

  it('makes a delivery that another secret, or a changed body, fails', () => {
    const { body, headers } = signTestWebhook(EVENT, SECRET);
    expect(() => verifyWebhook(body, headers, `whsec_${randomBytes(32).toString('base64')}`)).toThrow(expect.objectContaining({ code: 'WEBHOOK_SIGNATURE_MISMATCH' }));
    expect(() => verifyWebhook(body.replace('order-1042', 'order-1043'), headers, SECRET)).toThrow(expect.objectContaining({ code: 'WEBHOOK_SIGNATURE_MISMATCH' }));
  });
});
