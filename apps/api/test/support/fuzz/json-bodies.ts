// JSON bodies as bytes: the fields of the operation's schema written out,
// and the shapes a JSON parser or a signer must refuse (duplicate keys,
// nesting, other top-level values, broken syntax, bytes that are not UTF-8).
import fc from 'fast-check';
import type { Field } from './schema-values';

/** A body as sent: its text, and bytes spliced into it that no JS string can carry (invalid UTF-8). */
export interface BodyPlan {
  text: string;
  /** Inserted at `at` (a fraction of the text's length), after encoding the text as UTF-8. */
  rawBytes?: { at: number; bytes: number[] };
}

export function bodyBytes(plan: BodyPlan): Buffer {
  const text = Buffer.from(plan.text, 'utf8');
  if (!plan.rawBytes) return text;
  const at = Math.floor(plan.rawBytes.at * text.length);
  return Buffer.concat([text.subarray(0, at), Buffer.from(plan.rawBytes.bytes), text.subarray(at)]);
}

const objectText = (fields: ReadonlyArray<Field>, separator = ',') => `{${fields.map(([key, value]) => `${JSON.stringify(key)}:${value}`).join(separator)}}`;

const INVALID_UTF8 = [[0xff], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xed, 0xbf, 0xbf], [0xf4, 0x90, 0x80, 0x80], [0xe2, 0x82], [0x80], [0x00], [0xef, 0xbb, 0xbf]];

/** Bodies for an operation whose fields `fields` generates: mostly the object as JSON, otherwise a shape that must be refused. */
export function jsonBody(fields: fc.Arbitrary<Field[]>): fc.Arbitrary<BodyPlan> {
  const object = fields.map((f) => objectText(f));
  const shapes = fc.oneof(
    { weight: 12, arbitrary: object },
    { weight: 1, arbitrary: fields.map((f) => objectText(f, ' ,\n\t')) },
    {
      weight: 2,
      arbitrary: fc.tuple(fields, fc.nat(), fc.oneof(fc.constant<string | undefined>(undefined), fc.constantFrom('"x"', '1', 'null'))).map(([f, i, other]) => {
        if (f.length === 0) return '{"a":1,"a":1}';
        const [key, value] = f[i % f.length] as Field;
        return objectText([...f, [key, other ?? value]]);
      }),
    },
    {
      weight: 2,
      arbitrary: fc.tuple(fields, fc.nat(), fc.constantFrom('{}', '[]', '{"a":{"b":1}}', '[1,[2,[3]]]', `${'['.repeat(64)}${']'.repeat(64)}`)).map(([f, i, nested]) => {
        const key = f.length === 0 ? 'a' : (f[i % f.length] as Field)[0];
        return objectText([...f.filter(([k]) => k !== key), [key, nested]]);
      }),
    },
    { weight: 1, arbitrary: fc.constantFrom(1_000, 10_000, 30_000).map((depth) => `${'['.repeat(depth)}${']'.repeat(depth)}`) },
    { weight: 1, arbitrary: fc.constantFrom(1_000, 10_000).map((depth) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`) },
    { weight: 2, arbitrary: fc.oneof(object.map((o) => `[${o}]`), fc.constantFrom('[]', '"{}"', '1', 'null', 'true', '0', '""')) },
    {
      weight: 2,
      arbitrary: fc.oneof(
        object.map((o) => o.slice(0, -1)),
        object.map((o) => `${o.slice(0, -1)},}`),
        object.map((o) => `\ufeff${o}`),
        object.map((o) => `${o}${o}`),
        object.map((o) => `${o} x`),
        object.map((o) => `/* c */${o}`),
        object.map((o) => o.replace(/"/g, "'")),
        fc.constantFrom('{a:1}', '{"a":NaN}', '{"a":undefined}', '{"a":1e400}', '{"a":"\\x41"}', '{"a":"\\u12"}', '{"\\ud800":1}', '{"a":"\\udc00\\ud800"}', '{"a":"\u0000"}', '{', '}', ''),
      ),
    },
    { weight: 1, arbitrary: fc.constantFrom('', ' ', '\r\n', '{}', '{ }') },
    { weight: 1, arbitrary: fc.integer({ min: 33, max: 40 }).map((n) => JSON.stringify(Object.fromEntries(Array.from({ length: n }, (_, i) => [`f${i}`, i])))) },
    { weight: 1, arbitrary: fc.constantFrom(65_536, 70_000).map((n) => JSON.stringify({ narration: 'n'.repeat(n) })) },
  );
  const rawBytes = fc.record({ at: fc.integer({ min: 0, max: 1000 }).map((n) => n / 1000), bytes: fc.constantFrom(...INVALID_UTF8) });
  return fc.tuple(shapes, fc.oneof({ weight: 12, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: rawBytes })).map(([text, bytes]) => (bytes ? { text, rawBytes: bytes } : { text }));
}

/** Content-Type values for a JSON body: right, right in other spellings, and wrong. */
export const jsonContentType: fc.Arbitrary<string | undefined> = fc.oneof(
  { weight: 12, arbitrary: fc.constant('application/json') },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      'application/json; charset=utf-8',
      'APPLICATION/JSON',
      'application/json;charset=latin1',
      'application/json; charset="utf-16"',
      'application/json ; foo=bar',
      'application/json, text/plain',
      'application/jsonx',
      'application/vnd.api+json',
      'text/json',
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/octet-stream',
      '',
      '*/*',
    ),
  },
  { weight: 1, arbitrary: fc.constant(undefined) },
);
