import { canonicalBodyFromJson, canonicalBodyFromObject } from './canonical-body';

describe('canonicalBodyFromJson on hostile input', () => {
  it.each<[string, { given: string | Uint8Array; want: string }]>([
    ['no bytes', { given: '', want: '' }],
    ['an empty object with whitespace', { given: ' { } \n', want: '' }],
    ['a __proto__ key, as a plain field', { given: '{"__proto__":"x","constructor":"y"}', want: '__proto__=x&constructor=y' }],
    ['a number longer than a double', { given: '{"n":-123456789012345678901234567890.125e-7}', want: 'n=-123456789012345678901234567890.125e-7' }],
  ])('reads %s', (_name, { given, want }) => {
    expect(canonicalBodyFromJson(given)).toBe(want);
  });

  it.each<[string, { given: string | Uint8Array; code: string }]>([
    ['deep nesting, without overflowing the stack', { given: `{"a":${'['.repeat(1_000_000)}`, code: 'NESTED_VALUE' }],
    ['a deep array at the top', { given: '['.repeat(1_000_000), code: 'BODY_NOT_OBJECT' }],
    ['a byte-order mark', { given: Buffer.from([0xef, 0xbb, 0xbf, 0x7b, 0x7d]), code: 'INVALID_JSON' }],
    ['an overlong UTF-8 encoding', { given: Buffer.from([0x7b, 0x22, 0xc0, 0xaf, 0x22, 0x3a, 0x31, 0x7d]), code: 'INVALID_UTF8' }],
    ['a raw newline inside a string', { given: '{"a":"x\ny"}', code: 'INVALID_JSON' }],
    ['a truncated body', { given: '{"amount":100', code: 'INVALID_JSON' }],
    ['only whitespace', { given: '   ', code: 'INVALID_JSON' }],
    ['a second value after the object', { given: '{}{}', code: 'INVALID_JSON' }],
    ['a number of 5000 digits', { given: `{"n":${'9'.repeat(5000)}}`, code: 'INVALID_JSON' }],
  ])('refuses %s', (_name, { given, code }) => {
    expect(() => canonicalBodyFromJson(given)).toThrow(expect.objectContaining({ code }));
  });

  it('does not pollute Object.prototype', () => {
    canonicalBodyFromJson('{"__proto__":"polluted","toString":"x"}');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('reads a 1 MB body of 20,000 fields (its scaling is measured by npm run bench:canonical-body)', () => {
    const body = JSON.stringify(Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [`k${i}`, `v${'x'.repeat(40)}\\"${i}`])));
    expect(body.length).toBeGreaterThan(1_000_000);
    const canonical = canonicalBodyFromJson(body);
    expect(canonical.split('&')).toHaveLength(20_000);
    expect(canonical.startsWith(`k0=v${'x'.repeat(40)}\\"0&k1=`)).toBe(true);
  });
});

describe('canonicalBodyFromObject', () => {
  it.each<[string, { given: Parameters<typeof canonicalBodyFromObject>[0]; want: string }]>([
    ['undefined', { given: undefined, want: '' }],
    ['an empty object', { given: {}, want: '' }],
    ['undefined and null fields', { given: { a: undefined, b: null, c: 'x' }, want: 'c=x' }],
    ['numbers as String(n)', { given: { a: 1000.5, b: 1e21, c: -0 }, want: 'a=1000.5&b=1e+21&c=0' }],
  ])('renders %s', (_name, { given, want }) => {
    expect(canonicalBodyFromObject(given)).toBe(want);
  });

  it.each<[string, { given: unknown; code: string }]>([
    ['a nested object', { given: { a: { b: 1 } }, code: 'NESTED_VALUE' }],
    ['an array value', { given: { a: [1] }, code: 'NESTED_VALUE' }],
    ['NaN', { given: { a: Number.NaN }, code: 'UNSUPPORTED_VALUE' }],
    ['a bigint', { given: { a: BigInt(1) }, code: 'UNSUPPORTED_VALUE' }],
    ['an array body', { given: [], code: 'BODY_NOT_OBJECT' }],
    ['an unpaired surrogate', { given: { a: '\ud800' }, code: 'INVALID_UTF8' }],
  ])('refuses %s', (_name, { given, code }) => {
    expect(() => canonicalBodyFromObject(given as never)).toThrow(expect.objectContaining({ code }));
  });
});
