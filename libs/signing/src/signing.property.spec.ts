import fc from 'fast-check';
import { canonicalBodyFromJson, canonicalBodyFromObject } from './canonical-body';
import { sign, type SignInput } from './sign';
import { verify } from './verify';

const NOW = 1767225600;
const visibleAscii = fc.string({ unit: fc.integer({ min: 0x21, max: 0x7e }).map((c) => String.fromCharCode(c)), minLength: 1, maxLength: 40 });
const nonce = fc.string({ unit: fc.constantFrom(...'ABCXYZabcxyz0189._~-'.split('')), minLength: 1, maxLength: 64 });
const flatValue = fc.oneof(fc.string({ unit: 'grapheme' }), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.integer(), fc.boolean(), fc.constant(null));
const flatBody = fc.dictionary(fc.string({ unit: 'grapheme', maxLength: 12 }), flatValue, { maxKeys: 8 });

const request = fc.record({
  apiKey: visibleAscii,
  secretKey: fc.string({ minLength: 1, maxLength: 64 }),
  nonce,
  // One second short of the window's end, so that timestamp + 1 still falls inside it.
  timestamp: fc.integer({ min: NOW - 300, max: NOW + 299 }),
  method: fc.constantFrom('GET', 'POST', 'PUT', 'DELETE'),
  path: visibleAscii.map((p) => `/payment/${p}`),
  body: flatBody.map((body) => JSON.stringify(body)),
});

function verifyRequest(input: SignInput, signed: ReturnType<typeof sign>, changes: Partial<Record<'apiKey' | 'nonce' | 'timestamp' | 'signature', string>> = {}) {
  const headers = {
    'x-api-key': changes.apiKey ?? signed.headers['X-API-KEY'],
    'x-nonce': changes.nonce ?? signed.headers['X-Nonce'],
    'x-timestamp': changes.timestamp ?? signed.headers['X-Timestamp'],
    'x-signature': changes.signature ?? signed.headers['X-Signature'],
    'x-merchant-id': 'MCH-1',
    'x-tenant-id': 'TEN-1',
  };
  return (overrides: { method?: string; path?: string; body?: string; secretKey?: string } = {}) =>
    verify({
      method: overrides.method ?? input.method,
      path: overrides.path ?? input.path,
      body: overrides.body ?? input.body,
      headers,
      now: NOW,
      secretFor: () => overrides.secretKey ?? input.secretKey,
    });
}

describe('signing properties', () => {
  it('sign then verify holds for arbitrary flat bodies', () => {
    fc.assert(
      fc.property(request, (input) => {
        const signed = sign(input);
        expect(verifyRequest(input, signed)()).toMatchObject({ ok: true });
      }),
    );
  });

  it('changing any one signed component makes verification fail', () => {
    const component = fc.constantFrom('apiKey', 'nonce', 'timestamp', 'method', 'path', 'body', 'secret');
    fc.assert(
      fc.property(request, component, fc.string({ minLength: 1, maxLength: 8 }), (input, which, noise) => {
        const signed = sign(input);
        const check = verifyRequest(input, signed, {
          apiKey: which === 'apiKey' ? `${input.apiKey}X` : undefined,
          nonce: which === 'nonce' ? `${input.nonce}X` : undefined,
          timestamp: which === 'timestamp' ? String(input.timestamp + 1) : undefined,
        });
        const result = check({
          method: which === 'method' ? (input.method === 'GET' ? 'POST' : 'GET') : undefined,
          path: which === 'path' ? `${input.path}X` : undefined,
          body: which === 'body' ? withChangedField(input.body as string, noise) : undefined,
          secretKey: which === 'secret' ? `${input.secretKey}${noise}` : undefined,
        });
        expect(result).toMatchObject({ ok: false, code: 'AUTH_SIGNATURE_MISMATCH' });
      }),
    );
  });

  it('canonicalizing an object agrees with canonicalizing its JSON.stringify bytes', () => {
    fc.assert(
      fc.property(flatBody, (body) => {
        expect(canonicalBodyFromJson(Buffer.from(JSON.stringify(body), 'utf8'))).toBe(canonicalBodyFromObject(body));
      }),
    );
  });
});

/** Changes one field's value, or adds a field when the body is empty. */
function withChangedField(json: string, noise: string): string {
  const body = JSON.parse(json) as Record<string, unknown>;
  const key = Object.keys(body).find((k) => body[k] !== null) ?? '__added';
  // defineProperty, so that a generated `__proto__` key is changed like any other.
  Object.defineProperty(body, key, { value: `${String(body[key] ?? '')}${noise}`, enumerable: true, writable: true, configurable: true });
  return JSON.stringify(body);
}
