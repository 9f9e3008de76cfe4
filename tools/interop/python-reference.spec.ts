// Interoperability: an independent Python implementation, written from
// docs/protocol.md, must agree with libs/signing byte for byte.
import { execFileSync } from 'node:child_process';
import * as path from 'node:path';
import fc from 'fast-check';
import { sign } from '@paysign/signing';

const REFERENCE = path.join(__dirname, 'paysign_reference.py');
const VECTORS = path.resolve(__dirname, '../../libs/signing/vectors.json');

function python(args: string[]): string {
  return execFileSync('python3', [REFERENCE, ...args], { encoding: 'utf8' });
}

describe('the Python reference implementation', () => {
  it('reproduces every published vector', () => {
    expect(python(['check', VECTORS]).trim().split('\n').pop()).toMatch(/^[1-9][0-9]* passed, 0 failed$/);
  });

  it('agrees with sign() on random flat bodies', () => {
    const value = fc.oneof(fc.string({ unit: 'grapheme', maxLength: 20 }), fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean(), fc.constant(null));
    fc.assert(
      fc.property(fc.dictionary(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 10 }), value, { maxKeys: 6 }), (body) => {
        const json = JSON.stringify(body);
        const ours = sign({ apiKey: 'pk_interop', secretKey: 'sk_interop', nonce: 'n-1', timestamp: 1767225600, method: 'POST', path: '/payment/api/payins', body: json });
        const theirs = JSON.parse(python(['sign', 'pk_interop', 'sk_interop', 'n-1', '1767225600', 'POST', '/payment/api/payins', json])) as Record<string, string>;
        expect(theirs).toEqual({ canonicalBody: ours.canonicalBody, bodySha256Hex: ours.bodySha256Hex, baseString: ours.baseString, signature: ours.signature });
      }),
      { numRuns: 40 },
    );
  });
});
