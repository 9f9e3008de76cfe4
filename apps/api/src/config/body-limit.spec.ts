// The default body limit is sized to the largest legitimate request: a payin
// with every field at the contract's maximum, its text fully \u-escaped.
import { SCHEMAS } from '@paysign/contracts';
import { loadConfig } from './app-config';

const FIELDS = SCHEMAS.CreatePayinRequest.properties;

/** Every text field at its maximum length, each character sent as a 6-byte `\uXXXX` escape. */
function largestPayinBody(): string {
  const escaped = (length: number) => '\\u0041'.repeat(length);
  return [
    '{',
    `"amount":${FIELDS.amount.maximum}.00,`,
    '"currency":"NGN",',
    `"customerEmail":"${escaped(FIELDS.customerEmail.maxLength)}",`,
    `"customerName":"${escaped(FIELDS.customerName.maxLength)}",`,
    `"gateway":"${'g'.repeat(32)}",`,
    `"narration":"${escaped(FIELDS.narration.maxLength)}",`,
    `"notifyUrl":"${escaped(FIELDS.notifyUrl.maxLength)}",`,
    `"redirectUrl":"${escaped(FIELDS.redirectUrl.maxLength)}",`,
    `"reference":"${'r'.repeat(SCHEMAS.Reference.maxLength)}"`,
    '}',
  ].join('');
}

describe('the default body limit', () => {
  it('holds the largest legitimate request with every character escaped', () => {
    const body = largestPayinBody();
    expect(JSON.parse(body)).toHaveProperty('reference');
    expect(Buffer.byteLength(body)).toBeLessThan(loadConfig({}).bodyLimitBytes);
  });
});
