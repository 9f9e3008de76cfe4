// Values built from the contract's own schemas: valid ones, so that a
// request gets past the first check and reaches the next, and mutated ones.
import fc from 'fast-check';
import type { Schema } from './contract-operations';
import { oddCursor, oddDateTime, oddEmail, oddNumberText, oddText, oddUrl, wrongTypeJson } from './odd-values';

/** Values the schema allows, as their JS value. */
export function validValue(schema: Schema): fc.Arbitrary<unknown> {
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  if (schema.oneOf) return fc.oneof(...schema.oneOf.map(validValue));
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'integer':
      return fc.integer({ min: schema.minimum ?? -1000, max: schema.maximum ?? 1000 });
    case 'number': {
      const min = Math.ceil(((schema.exclusiveMinimum ?? schema.minimum ?? -1e6) + 0.01) * 100);
      const max = Math.floor((schema.maximum ?? 1e6) * 100);
      return fc.integer({ min, max }).map((cents) => cents / 100);
    }
    case 'boolean':
      return fc.boolean();
    case 'string':
      return validString(schema);
    default:
      return fc.constant(null);
  }
}

function validString(schema: Schema): fc.Arbitrary<string> {
  if (schema.format === 'email') return fc.constantFrom('ada@example.com', 'chinedu.okafor@example.ng', 'a+b@shop.example.com');
  if (schema.format === 'uri') return fc.constantFrom('https://shop.example.com/done', 'https://shop.example.com/done?cart=1#top', 'http://127.0.0.1:9/hook');
  if (schema.format === 'date-time') return fc.date({ min: new Date('2020-01-01T00:00:00Z'), max: new Date('2030-01-01T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString());
  if (schema.pattern) return matching(schema.pattern, schema);
  return fc.string({ unit: 'grapheme-ascii', minLength: Math.max(1, schema.minLength ?? 1), maxLength: Math.min(schema.maxLength ?? 24, 24) }).filter((s) => /\S/.test(s));
}

/** Strings matching a contract pattern; lookaheads, which fast-check cannot generate from, are checked by filtering instead. */
function matching(pattern: string, schema: Schema): fc.Arbitrary<string> {
  const full = new RegExp(pattern);
  const generable = new RegExp(pattern.replace(/\(\?[=!][^)]*\)/g, ''));
  const ok = (s: string) => full.test(s) && s.length >= (schema.minLength ?? 0) && s.length <= (schema.maxLength ?? Infinity);
  // An unanchored pattern (such as \S) only says what the value must contain: plain text that holds it.
  if (!pattern.startsWith('^')) return fc.string({ unit: 'grapheme-ascii', minLength: Math.max(1, schema.minLength ?? 1), maxLength: Math.min(schema.maxLength ?? 24, 24) }).filter(ok);
  return fc.stringMatching(generable, { size: 'xsmall' }).filter(ok);
}

/** Values outside the schema, as JSON text: wrong types, and the odd values of the field's own kind. */
export function oddValueJson(schema: Schema): fc.Arbitrary<string> {
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  const ofItsKind: Array<fc.Arbitrary<string>> =
    type === 'number' || type === 'integer'
      ? [oddNumberText]
      : schema.format === 'uri'
        ? [oddUrl.map(json)]
        : schema.format === 'email'
          ? [oddEmail.map(json)]
          : schema.format === 'date-time'
            ? [oddDateTime.map(json)]
            : [oddText.map(json), ...(schema.pattern ? [validValue(schema).chain((v) => oddText.map((t) => json(`${String(v)}${t}`)))] : [])];
  return fc.oneof({ weight: 4, arbitrary: fc.oneof(...ofItsKind) }, { weight: 1, arbitrary: wrongTypeJson }, { weight: 1, arbitrary: oddText.map(json) });
}

/** A value for a query parameter or a form field, as text before encoding: valid, or odd of its kind. */
export function parameterText(name: string, schema: Schema): fc.Arbitrary<string> {
  const valid = validValue(schema).map((v) => (typeof v === 'string' ? v : JSON.stringify(v)));
  const odd = schema.format === 'date-time' ? oddDateTime : /cursor/i.test(name) ? oddCursor : schema.type === 'integer' || schema.type === 'number' ? oddNumberText : oddText;
  return fc.oneof(valid, odd);
}

const json = (value: unknown) => JSON.stringify(value);

/** One field of a JSON body, as its key and its JSON text. */
export type Field = readonly [key: string, jsonText: string];

/**
 * The fields of a body for an object schema: one of the contract's examples
 * (or valid values, when it has none) with a few properties mutated, left
 * out or added, so that most bodies fail one check at a time and the rest
 * reach the stores. Now and then unknown fields come along.
 */
export function objectFields(schema: Schema, examples: ReadonlyArray<Record<string, unknown>>): fc.Arbitrary<Field[]> {
  const properties = Object.entries(schema.properties ?? {});
  const validBase = fc.tuple(...properties.map(([, property]) => validValue(property))).map((values) => Object.fromEntries(properties.map(([name], i) => [name, values[i]])));
  // An example with some of its values swapped for other valid ones: a reference the example always repeats would only ever replay.
  const base: fc.Arbitrary<Record<string, unknown>> =
    examples.length > 0
      ? fc.tuple(fc.constantFrom(...examples), validBase, fc.subarray(properties.map(([name]) => name))).map(([example, valid, swapped]) => ({ ...example, ...Object.fromEntries(swapped.map((name) => [name, valid[name]])) }))
      : validBase;
  if (properties.length === 0) return fc.oneof({ weight: 5, arbitrary: fc.constant<Field[]>([]) }, { weight: 1, arbitrary: unknownFields });
  const mutation = fc.tuple(fc.constantFrom(...properties), fc.constantFrom('odd' as const, 'odd' as const, 'valid' as const, 'absent' as const)).chain(([[name, property], kind]): fc.Arbitrary<readonly [string, Field | undefined]> => {
    if (kind === 'absent') return fc.constant([name, undefined] as const);
    return (kind === 'odd' ? oddValueJson(property) : validValue(property).map(json)).map((text) => [name, [name, text] as Field] as const);
  });
  const mutations = fc.oneof({ weight: 1, arbitrary: fc.constant([]) }, { weight: 4, arbitrary: fc.array(mutation, { minLength: 1, maxLength: 3 }) });
  return fc.tuple(base, mutations, fc.oneof({ weight: 5, arbitrary: fc.constant<Field[]>([]) }, { weight: 1, arbitrary: unknownFields })).map(([example, changes, unknown]) => {
    const fields = new Map<string, Field | undefined>(Object.entries(example).filter(([, v]) => v !== undefined).map(([name, value]) => [name, [name, json(value)] as Field]));
    for (const [name, field] of changes) fields.set(name, field);
    return [...[...fields.values()].filter((f): f is Field => f !== undefined), ...unknown];
  });
}

const unknownFields: fc.Arbitrary<Field[]> = fc.array(
  fc.tuple(fc.oneof(fc.constantFrom('__proto__', 'constructor', 'prototype', '', ' ', 'amount ', 'AMOUNT', 'toString'), oddText), wrongTypeJson).map(([key, value]): Field => [key, value]),
  { minLength: 1, maxLength: 2 },
);
