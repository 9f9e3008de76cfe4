import fc from 'fast-check';
import { SigningError } from './errors';
import { canonicalBodyFromJson } from './canonical-body';
import { readFlatJsonObject, type FlatField } from './flat-json-reader';

type Outcome = { fields: FlatField[] } | { code: string; message: string };

function read(raw: string | Uint8Array): Outcome {
  try {
    return { fields: readFlatJsonObject(raw) };
  } catch (error) {
    if (error instanceof SigningError) return { code: error.code, message: error.message };
    throw error;
  }
}

// Pieces of JSON, valid and broken, so that random texts hit every branch of the reader.
const piece = fc.constantFrom(
  '{', '}', '[', ']', ':', ',', ' ', '\n', '\t', '"', '\\', '\u0001',
  '"a"', '"b"', '"__proto__"', '"é"', '"😀"', '"x\\n"', '"\\u00e9"', '"\\ud83d\\ude00"', '"\\ud800"', '"\\q"', '"\\u12"',
  '0', '1', '-', '.', 'e', '+', '1000.50', '-0.5e+3', '01', '1.', '1e',
  'true', 'false', 'null', 'tru', 'nul',
);
const jsonish = fc.array(piece, { maxLength: 16 }).map((pieces) => pieces.join(''));
const flatObjectText = fc
  .dictionary(
    fc.string({ maxLength: 6 }),
    fc.oneof(fc.string({ unit: 'grapheme', maxLength: 8 }), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.integer(), fc.boolean(), fc.constant(null)),
    { maxKeys: 40 },
  )
  .chain((body) => fc.constantFrom(JSON.stringify(body), JSON.stringify(body, null, 2)));
// Objects made of valid and broken keys and values, so that most texts get past the first brace.
const keyToken = fc.constantFrom('"a"', '"b"', '"é"', '"\\u0061"', '"k\u0001"', '"__proto__"', '"\\ud800"', 'a', '""');
const valueToken = fc.constantFrom(
  '"x"', '""', '"é😀"', '"a\\"b"', '"\\u00e9"', '"\\ud83d\\ude00"', '"\\ud800"', '"\\q"', '"\u0001"', '"\t"', '"tab\\t"',
  '0', '-0', '01', '1.', '-', '1e', '1e+', '1000.50', '-12.5E-3', '9007199254740993', 'true', 'tru', 'false', 'null', 'nul', '[1]', '{}',
);
const space = fc.constantFrom('', '', ' ', '\n  ', '\t');
const member = fc.tuple(keyToken, space, fc.constantFrom(':', ':', ':', ''), space, valueToken).map((parts) => parts.join(''));
const objectText = fc
  .tuple(space, fc.array(member, { maxLength: 6 }), fc.constantFrom(',', ',', ',', ', ', ',,'), fc.constantFrom('}', '}', '}', '', '} x'))
  .map(([lead, members, comma, end]) => `${lead}{${members.join(comma)}${end}`);
const text = fc.oneof(jsonish, flatObjectText, objectText, objectText);

describe('readFlatJsonObject', () => {
  it('agrees with JSON.parse: it reads what JSON.parse reads as a flat object, and refuses the rest', () => {
    fc.assert(
      fc.property(text, (json) => {
        let parsed: unknown;
        let parseFailed = false;
        try {
          parsed = JSON.parse(json);
        } catch {
          parseFailed = true;
        }
        const outcome = read(json);
        if (parseFailed) {
          expect(outcome).toHaveProperty('code');
          return;
        }
        if ('code' in outcome) {
          // JSON.parse keeps the last of repeated keys, so a nested value may hide behind a later repeat: look at the text.
          const nested = /[[{]/.test(json.slice(json.indexOf('{') + 1));
          const expected = typeof parsed !== 'object' || parsed === null || Array.isArray(parsed) ? ['BODY_NOT_OBJECT'] : ['DUPLICATE_KEY', 'INVALID_UTF8', ...(nested ? ['NESTED_VALUE'] : [])];
          expect(expected).toContain(outcome.code);
          if (outcome.code === 'INVALID_UTF8') expect(json).toMatch(/\\u[dD][89a-fA-F]/);
          return;
        }
        const object = parsed as Record<string, unknown>;
        expect(outcome.fields.map((f) => f.key).sort()).toEqual(Object.keys(object).sort());
        for (const { key, text: value } of outcome.fields) {
          const expected = object[key];
          if (typeof expected === 'number') expect(Number(value)).toBe(expected);
          else expect(value).toBe(expected === null ? null : String(expected));
        }
      }),
      { numRuns: 3000 },
    );
  });

  it('gives the same fields or the same error for the text and its UTF-8 bytes', () => {
    fc.assert(
      fc.property(text, (json) => {
        expect(read(Buffer.from(json, 'utf8'))).toEqual(read(json));
        expect(read(new Uint8Array(Buffer.from(json, 'utf8')))).toEqual(read(json));
      }),
      { numRuns: 3000 },
    );
  });

  it('counts error positions in characters, not bytes, after non-ASCII text', () => {
    expect(read(Buffer.from('{"name":"Adaéé",}', 'utf8'))).toMatchObject({ code: 'INVALID_JSON', message: expect.stringContaining("expected a string key at character 16") });
  });

  it('refuses bytes that are not UTF-8 and strings with an unpaired surrogate', () => {
    expect(read(Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d]))).toMatchObject({ code: 'INVALID_UTF8' });
    expect(read('{"a":"\ud800"}')).toMatchObject({ code: 'INVALID_UTF8' });
  });

  it('finds a repeated key among many, past the keys it compares one by one', () => {
    const body = `{${Array.from({ length: 40 }, (_, i) => `"k${i}":${i}`).join(',')},"k7":1}`;
    expect(read(body)).toMatchObject({ code: 'DUPLICATE_KEY', message: expect.stringContaining('"k7"') });
  });
});

describe('canonicalBodyFromJson on long bodies', () => {
  it('refuses a repeated key found by the sort, and sorts past the insertion-sort length', () => {
    const keys = Array.from({ length: 40 }, (_, i) => `k${String(39 - i).padStart(2, '0')}`);
    const body = `{${keys.map((key, i) => `"${key}":${i}`).join(',')}}`;
    expect(canonicalBodyFromJson(body)).toBe([...keys].sort().map((key) => `${key}=${keys.indexOf(key)}`).join('&'));
    expect(() => canonicalBodyFromJson(`${body.slice(0, -1)},"k20":"again"}`)).toThrow(expect.objectContaining({ code: 'DUPLICATE_KEY', message: expect.stringContaining('"k20"') }));
  });
});
