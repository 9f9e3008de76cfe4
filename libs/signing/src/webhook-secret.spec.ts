import { randomBytes } from 'node:crypto';
import { isWebhookSecret } from './webhook-secret';

describe('isWebhookSecret', () => {
  it.each<[string, unknown, boolean]>([
    ['24 random bytes', `whsec_${randomBytes(24).toString('base64')}`, true],
    ['64 random bytes', `whsec_${randomBytes(64).toString('base64')}`, true],
    ['23 bytes, too short', `whsec_${randomBytes(23).toString('base64')}`, false],
    ['65 bytes, too long', `whsec_${randomBytes(65).toString('base64')}`, false],
    ['no prefix', randomBytes(32).toString('base64'), false],
    ['base64url characters', `whsec_${'-_'.repeat(20)}`, false],
    ['a number', 42, false],
  ])('%s: %s', (_name, value, valid) => {
    expect(isWebhookSecret(value)).toBe(valid);
  });
});
