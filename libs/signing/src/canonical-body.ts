import { SigningError } from './errors';
import { readFlatJsonObjectSorted, sortByKeyRefusingRepeats, type FlatField, type FlatJsonReadOptions } from './flat-json-reader';
import { isWellFormedUnicode } from './well-formed-unicode';

/** A JSON value that can be signed as a field of the body. */
export type SignableValue = string | number | boolean | null;

/** A flat JSON object; `undefined` fields are dropped, as `JSON.stringify` drops them. */
export type SignableBody = Readonly<Record<string, SignableValue | undefined>>;

/**
 * Canonical body of the raw bytes of a request, as the server computes it.
 * No body and an empty body give `""`; numbers keep their exact source text.
 */
export function canonicalBodyFromJson(raw: string | Uint8Array | undefined, options: FlatJsonReadOptions = {}): string {
  if (raw === undefined || raw.length === 0) return '';
  return renderSorted(readFlatJsonObjectSorted(raw, options));
}

/**
 * Canonical body of a JavaScript object. It agrees with
 * `canonicalBodyFromJson(JSON.stringify(body))` for every signable object.
 */
export function canonicalBodyFromObject(body: SignableBody | undefined): string {
  if (body === undefined) return '';
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new SigningError('BODY_NOT_OBJECT', 'The body must be a plain object; arrays, strings, numbers, booleans and null cannot be signed.');
  }
  const fields: FlatField[] = [];
  for (const [key, value] of Object.entries(body)) {
    if (value === undefined) continue;
    fields.push({ key: checkWellFormed(key), text: renderValue(key, value) });
  }
  sortByKeyRefusingRepeats(fields);
  return renderSorted(fields);
}

function renderValue(key: string, value: unknown): string | null {
  switch (typeof value) {
    case 'string':
      return checkWellFormed(value);
    case 'boolean':
      return String(value);
    case 'number':
      if (!Number.isFinite(value)) {
        throw new SigningError('UNSUPPORTED_VALUE', `Field "${key}" is ${value}, which JSON cannot represent. Send a finite number.`);
      }
      return String(value);
    case 'object':
      if (value === null) return null;
      throw new SigningError(
        'NESTED_VALUE',
        `Field "${key}" holds an object or array. Only strings, numbers, booleans and null can be signed; send flat fields.`,
      );
    default:
      throw new SigningError('UNSUPPORTED_VALUE', `Field "${key}" is a ${typeof value}. Only strings, numbers, booleans and null can be signed.`);
  }
}

/** The canonical body of fields sorted by key: `key=value` joined by `&`, null fields left out. */
function renderSorted(fields: readonly FlatField[]): string {
  let canonical = '';
  for (const { key, text } of fields) {
    if (text === null) continue;
    canonical += canonical === '' ? `${key}=${text}` : `&${key}=${text}`;
  }
  return canonical;
}

function checkWellFormed(text: string): string {
  if (!isWellFormedUnicode(text)) {
    throw new SigningError('INVALID_UTF8', 'A string holds an unpaired surrogate, which has no UTF-8 form. Send well-formed Unicode.');
  }
  return text;
}
