import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { hmacSha256Hex } from './base-string';

const nodeHmac = (secretKey: string, message: string) => createHmac('sha256', Buffer.from(secretKey, 'utf8')).update(message, 'utf8').digest('hex');

describe('hmacSha256Hex', () => {
  it('is HMAC-SHA256 of RFC 4231 test case 2', () => {
    expect(hmacSha256Hex('Jefe', 'what do ya want for nothing?')).toBe('5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843');
  });

  it('gives the bytes createHmac gives, for keys shorter than, as long as and longer than a block, and messages past its buffer', () => {
    const unicode = fc.string({ unit: 'grapheme', maxLength: 90 });
    const blockEdges = fc.constantFrom(63, 64, 65, 200).map((length) => 'k'.repeat(length));
    const longMessage = fc.integer({ min: 1000, max: 5000 }).map((length) => 'é'.repeat(length));
    fc.assert(
      fc.property(fc.oneof(unicode, blockEdges), fc.oneof(unicode, longMessage), (secretKey, message) => {
        expect(hmacSha256Hex(secretKey, message)).toBe(nodeHmac(secretKey, message));
      }),
      { numRuns: 500 },
    );
  });

  it('keys each call with its own secret when callers alternate', () => {
    for (const [secretKey, message] of [
      ['sk_one', 'a'],
      ['sk_two', 'a'],
      ['sk_one', 'b'.repeat(3000)],
      ['sk_one', 'a'],
    ] as const) {
      expect(hmacSha256Hex(secretKey, message)).toBe(nodeHmac(secretKey, message));
    }
  });
});
