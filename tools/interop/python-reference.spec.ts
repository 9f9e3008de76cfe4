// Interoperability: an independent Python implementation, written from
// docs/protocol.md, must agree with libs/signing byte for byte.
import { execFileSync } from 'node:child_process';
import * as path from 'node:path';
import fc from 'fast-check';
import { sign } from '@paysign/signing';

const REFERENCE = path.join(__dirname, 'paysign_reference.py');
const VECTORS = path.resolve(__dirname, '../../libs/signing/vectors.json');
const SAMPLES = 200;

function python(args: string[], input?: string): string {
  return execFileSync('python3', [REFERENCE, ...args], { encoding: 'utf8', input });
}

describe('the Python reference implementation', () => {
  it('reproduces every published vector', () => {
    expect(python(['check', VECTORS]).trim().split('\n').pop()).toMatch(/^[1-9][0-9]* passed, 0 failed$/);
  });

  it('agrees with sign() on random flat bodies, all sent to one Python process', () => {
    const value = fc.oneof(fc.string({ unit: 'grapheme', maxLength: 20 }), fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean(), fc.constant(null));
    const bodies = fc.sample(fc.dictionary(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 10 }), value, { maxKeys: 6 }), SAMPLES).map((body) => JSON.stringify(body));
    const requests = bodies.map((body) => ({ apiKey: 'pk_interop', secretKey: 'sk_interop', nonce: 'n-1', timestamp: 1767225600, method: 'POST', path: '/payment/api/payins', body }));
    const answers = python(['sign-lines'], requests.map((request) => JSON.stringify(request)).join('\n') + '\n').trim().split('\n');
    expect(answers).toHaveLength(SAMPLES);
    requests.forEach((request, i) => {
      const ours = sign(request);
      const theirs = JSON.parse(answers[i] as string) as Record<string, string>;
      expect({ body: request.body, ...theirs }).toEqual({ body: request.body, canonicalBody: ours.canonicalBody, bodySha256Hex: ours.bodySha256Hex, baseString: ours.baseString, signature: ours.signature });
    });
  });
});
