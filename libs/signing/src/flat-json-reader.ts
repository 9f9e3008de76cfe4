import { isAscii, isUtf8 } from 'node:buffer';
import { SigningError } from './errors';
import { isWellFormedUnicode } from './well-formed-unicode';

/** One field of a flat JSON object, with its value as it must be rendered when signed. */
export interface FlatField {
  key: string;
  /** Strings decoded, numbers as their exact source text, booleans as `true`/`false`; `null` for null. */
  text: string | null;
}

export interface FlatJsonReadOptions {
  /** Most fields the object may have; the reader refuses at the next key, before reading further. Default: no limit. */
  maxFields?: number;
}

/**
 * Reads the raw bytes of a request body as a flat JSON object.
 *
 * It is written for hostile input: one forward pass over the bytes with no
 * recursion (a nested value is refused at its first byte, so depth cannot
 * overflow the stack), keys compared as plain strings (so `__proto__` is just
 * a key), and numbers kept as their source text (so `1000.50` and integers
 * above 2^53 survive exactly).
 *
 * It is also the signing hot path, so it does less than `JSON.parse`: it scans
 * bytes (a typed-array loop is about twice as fast as reading a string's
 * characters), builds no object, and cuts each key and value out of the text
 * in one piece unless it holds an escape.
 */
export function readFlatJsonObject(raw: string | Uint8Array, options: FlatJsonReadOptions = {}): FlatField[] {
  return new FlatJsonReader(sourceOf(raw), options.maxFields ?? Number.POSITIVE_INFINITY, false).readObject();
}

/**
 * The fields sorted by key in UTF-16 code unit order, as the canonical body
 * needs them. A long body's repeated key is then found next to its twin after
 * the sort instead of through a set of every key, so it is refused once the
 * whole body has been read rather than at the repeat.
 */
export function readFlatJsonObjectSorted(raw: string | Uint8Array, options: FlatJsonReadOptions = {}): FlatField[] {
  return new FlatJsonReader(sourceOf(raw), options.maxFields ?? Number.POSITIVE_INFINITY, true).readObject();
}

/** The body as bytes to scan, with a way to cut text out of them. */
interface Source {
  bytes: Buffer;
  /** The whole body as a string, when every byte is ASCII: then a byte offset is a character offset and slicing it is cheapest. */
  ascii: string | undefined;
}

/**
 * A compact ASCII body (what `JSON.stringify` writes) holds no control
 * character at all. Then a string ends at the next quote unless a backslash
 * comes first, and both are found by the engine's own search, far faster than
 * a loop over the characters.
 */
function hasNoControlCharacter(ascii: string | undefined): ascii is string {
  return ascii !== undefined && !CONTROL_CHARACTER.test(ascii);
}

function sourceOf(raw: string | Uint8Array): Source {
  if (typeof raw === 'string') {
    // A string with an unpaired surrogate has no UTF-8 form, so it cannot be sent as a body.
    if (!isWellFormedUnicode(raw)) throw new SigningError('INVALID_UTF8', 'A string holds an unpaired surrogate, which has no UTF-8 form. Send well-formed Unicode.');
    const bytes = Buffer.from(raw, 'utf8');
    return { bytes, ascii: bytes.length === raw.length ? raw : undefined };
  }
  const bytes = Buffer.isBuffer(raw) ? raw : Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength);
  if (isAscii(bytes)) return { bytes, ascii: bytes.toString('latin1') };
  if (!isUtf8(bytes)) throw new SigningError('INVALID_UTF8', 'The body is not valid UTF-8. Encode the JSON text as UTF-8 before sending and signing it.');
  return { bytes, ascii: undefined };
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

class FlatJsonReader {
  private pos = 0;
  private readonly bytes: Buffer;
  private readonly ascii: string | undefined;
  /** The body, when it is ASCII with no control character; see `hasNoControlCharacter`. */
  private readonly compact: string | undefined;
  /** Where the next backslash at or after `pos` is, or the body's length when there is none; meaningful with `compact` only. */
  private nextBackslash = -1;

  constructor(
    source: Source,
    private readonly maxFields: number,
    private readonly sorted: boolean,
  ) {
    this.bytes = source.bytes;
    this.ascii = source.ascii;
    this.compact = hasNoControlCharacter(source.ascii) ? source.ascii : undefined;
  }

  readObject(): FlatField[] {
    this.skipWhitespace();
    const first = this.bytes[this.pos];
    if (first !== 0x7b) {
      if (first === undefined) this.fail('the body is only whitespace');
      if (!VALUE_START.has(first)) this.fail('expected a JSON object');
      throw new SigningError('BODY_NOT_OBJECT', 'The body must be a JSON object ({...}); arrays, strings, numbers, booleans and null cannot be signed.');
    }
    this.pos++;
    const fields: FlatField[] = [];
    this.skipWhitespace();
    if (this.bytes[this.pos] === 0x7d) {
      this.pos++;
    } else {
      const seen = new DuplicateKeys(this.sorted);
      for (;;) {
        this.skipWhitespace();
        if (fields.length >= this.maxFields) {
          throw new SigningError('TOO_MANY_FIELDS', `The body has more than ${this.maxFields} fields. Send only the fields of the operation.`);
        }
        if (this.bytes[this.pos] !== QUOTE) this.fail('expected a string key');
        const key = this.readString();
        if (seen.addOrFind(key, fields)) {
          throw new SigningError('DUPLICATE_KEY', `Field "${key}" appears more than once. Send each field once.`);
        }
        this.skipWhitespace();
        if (this.bytes[this.pos] !== 0x3a) this.fail("expected ':'");
        this.pos++;
        this.skipWhitespace();
        fields.push({ key, text: this.readScalar(key) });
        this.skipWhitespace();
        const next = this.bytes[this.pos++];
        if (next === 0x7d) break;
        if (next !== 0x2c) this.fail("expected ',' or '}'", this.pos - 1);
      }
    }
    this.skipWhitespace();
    if (this.pos !== this.bytes.length) this.fail('unexpected data after the object');
    if (this.sorted) sortByKeyRefusingRepeats(fields);
    return fields;
  }

  private readScalar(key: string): string | null {
    const c = this.bytes[this.pos];
    if (c === QUOTE) return this.readString();
    if (c === 0x7b || c === 0x5b) {
      throw new SigningError(
        'NESTED_VALUE',
        `Field "${key}" holds an object or array. Only strings, numbers, booleans and null can be signed; send flat fields.`,
      );
    }
    if (c === 0x2d || (c !== undefined && c >= 0x30 && c <= 0x39)) return this.readNumber();
    if (this.startsWith(TRUE)) return this.literal('true');
    if (this.startsWith(FALSE)) return this.literal('false');
    if (this.startsWith(NULL)) {
      this.pos += 4;
      return null;
    }
    return this.fail('expected a value');
  }

  private startsWith(word: readonly number[]): boolean {
    for (let i = 0; i < word.length; i++) if (this.bytes[this.pos + i] !== word[i]) return false;
    return true;
  }

  private literal(word: 'true' | 'false'): string {
    this.pos += word.length;
    return word;
  }

  /** The longest prefix that is a JSON number, as `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`. */
  private readNumber(): string {
    const bytes = this.bytes;
    const start = this.pos;
    let i = start;
    if (bytes[i] === 0x2d) i++;
    if (bytes[i] === 0x30) i++;
    else if (isDigit(bytes[i])) while (isDigit(bytes[i])) i++;
    else this.fail('invalid number');
    if (bytes[i] === 0x2e && isDigit(bytes[i + 1])) {
      i += 2;
      while (isDigit(bytes[i])) i++;
    }
    if (bytes[i] === 0x65 || bytes[i] === 0x45) {
      const digitsAt = bytes[i + 1] === 0x2b || bytes[i + 1] === 0x2d ? i + 2 : i + 1;
      if (isDigit(bytes[digitsAt])) {
        i = digitsAt + 1;
        while (isDigit(bytes[i])) i++;
      }
    }
    if (i - start > MAX_NUMBER_LENGTH) this.fail('invalid number');
    this.pos = i;
    return this.slice(start, i);
  }

  private readString(): string {
    const compact = this.compact;
    if (compact !== undefined) {
      const start = this.pos + 1;
      const end = compact.indexOf('"', start);
      if (this.nextBackslash < start) this.nextBackslash = indexOrLength(compact, '\\', start);
      if (end >= 0 && end < this.nextBackslash) {
        this.pos = end + 1;
        return compact.slice(start, end);
      }
    }
    const bytes = this.bytes;
    const length = bytes.length;
    const start = ++this.pos; // past the opening quote
    let i = start;
    let c = 0;
    // The common case, a string with no escape, is one scan and one slice.
    while (i < length) {
      c = bytes[i] as number;
      if (c === QUOTE || c === BACKSLASH || c < 0x20) break;
      i++;
    }
    if (i < length && c === QUOTE) {
      this.pos = i + 1;
      return this.slice(start, i);
    }
    this.pos = i;
    return this.readEscapedString(start);
  }

  /** The rest of a string from its first escape (or its error): decoded piece by piece. */
  private readEscapedString(start: number): string {
    const bytes = this.bytes;
    let out = this.slice(start, this.pos);
    let chunkStart = this.pos;
    let surrogateEscaped = false;
    for (;;) {
      const c = bytes[this.pos];
      if (c === undefined) this.fail('unterminated string');
      if (c === QUOTE) break;
      if (c < 0x20) this.fail('unescaped control character in a string');
      if (c !== BACKSLASH) {
        this.pos++;
        continue;
      }
      out += this.slice(chunkStart, this.pos);
      const escaped = this.readEscape();
      if (escaped.length === 1 && escaped.charCodeAt(0) >= 0xd800 && escaped.charCodeAt(0) <= 0xdfff) surrogateEscaped = true;
      out += escaped;
      chunkStart = this.pos;
    }
    out += this.slice(chunkStart, this.pos);
    this.pos++; // closing quote
    if (surrogateEscaped && !isWellFormedUnicode(out)) {
      throw new SigningError('INVALID_UTF8', 'A string holds an unpaired surrogate escape (\\uD800-\\uDFFF), which has no UTF-8 form. Send well-formed Unicode.');
    }
    return out;
  }

  private readEscape(): string {
    const c = this.bytes[this.pos + 1];
    this.pos += 2;
    switch (c) {
      case 0x22: return '"';
      case 0x5c: return '\\';
      case 0x2f: return '/';
      case 0x62: return '\b';
      case 0x66: return '\f';
      case 0x6e: return '\n';
      case 0x72: return '\r';
      case 0x74: return '\t';
      case 0x75: {
        let code = 0;
        for (let i = 0; i < 4; i++) {
          const digit = hexValue(this.bytes[this.pos + i]);
          if (digit < 0) this.fail('invalid \\u escape', this.pos - 2);
          code = code * 16 + digit;
        }
        this.pos += 4;
        return String.fromCharCode(code);
      }
      default:
        return this.fail('invalid escape', this.pos - 2);
    }
  }

  private slice(start: number, end: number): string {
    return this.ascii !== undefined ? this.ascii.slice(start, end) : this.bytes.toString('utf8', start, end);
  }

  private skipWhitespace(): void {
    const bytes = this.bytes;
    for (;;) {
      const c = bytes[this.pos];
      if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) return;
      this.pos++;
    }
  }

  /** Errors name the character (UTF-16 code unit) offset, as a client's JSON library counts. */
  private fail(reason: string, at: number = this.pos): never {
    const character = this.ascii !== undefined ? at : this.bytes.toString('utf8', 0, at).length;
    throw new SigningError('INVALID_JSON', `The body is not valid JSON: ${reason} at character ${character}. Send the exact JSON text you signed.`);
  }
}

/**
 * Finds a repeated key as it is read. A few keys are compared in a loop,
 * cheaper than hashing them. Past that a set takes over, so that a hostile
 * body with many keys costs linear time, not quadratic; or, when the fields
 * are to be sorted anyway, the sort finds the repeat (`sortByKeyRefusingRepeats`).
 */
class DuplicateKeys {
  private set: Set<string> | undefined;

  constructor(private readonly sortedLater: boolean) {}

  /** True when `key` is already among `fields`; otherwise records it. */
  addOrFind(key: string, fields: readonly FlatField[]): boolean {
    if (this.set === undefined) {
      if (fields.length > LINEAR_KEY_SEARCH_LIMIT && this.sortedLater) return false;
      for (let i = 0; i < fields.length; i++) if ((fields[i] as FlatField).key === key) return true;
      if (fields.length < LINEAR_KEY_SEARCH_LIMIT || this.sortedLater) return false;
      this.set = new Set(fields.map((field) => field.key));
    }
    if (this.set.has(key)) return true;
    this.set.add(key);
    return false;
  }
}

/**
 * Sorts by key in UTF-16 code unit order, refusing a repeated key. Bodies are
 * short and often already sorted (`JSON.stringify` of an object built in
 * order), where an insertion sort does one comparison per field; long ones go
 * to the engine's sort.
 */
export function sortByKeyRefusingRepeats(fields: FlatField[]): void {
  if (fields.length > INSERTION_SORT_LIMIT) {
    fields.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  } else {
    for (let i = 1; i < fields.length; i++) {
      const field = fields[i] as FlatField;
      let j = i - 1;
      while (j >= 0 && (fields[j] as FlatField).key > field.key) {
        fields[j + 1] = fields[j] as FlatField;
        j--;
      }
      fields[j + 1] = field;
    }
  }
  for (let i = 1; i < fields.length; i++) {
    const key = (fields[i] as FlatField).key;
    if (key === (fields[i - 1] as FlatField).key) throw new SigningError('DUPLICATE_KEY', `Field "${key}" appears more than once. Send each field once.`);
  }
}

function indexOrLength(text: string, search: string, from: number): number {
  const at = text.indexOf(search, from);
  return at < 0 ? text.length : at;
}

function isDigit(c: number | undefined): boolean {
  return c !== undefined && c >= 0x30 && c <= 0x39;
}

function hexValue(c: number | undefined): number {
  if (c === undefined) return -1;
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x41 && c <= 0x46) return c - 0x37;
  if (c >= 0x61 && c <= 0x66) return c - 0x57;
  return -1;
}

const TRUE = [0x74, 0x72, 0x75, 0x65];
const FALSE = [0x66, 0x61, 0x6c, 0x73, 0x65];
const NULL = [0x6e, 0x75, 0x6c, 0x6c];
/** First bytes of the JSON values that are not objects: `[`, `"`, `-`, digits, `t`, `f`, `n`. */
const VALUE_START = new Set([0x5b, 0x22, 0x2d, 0x30, 0x31, 0x32, 0x33, 0x34, 0x35, 0x36, 0x37, 0x38, 0x39, 0x74, 0x66, 0x6e]);
/** Longer numbers are refused rather than kept: no amount needs more digits. */
const MAX_NUMBER_LENGTH = 4096;
const LINEAR_KEY_SEARCH_LIMIT = 16;
const INSERTION_SORT_LIMIT = 32;
const CONTROL_CHARACTER = /[\x00-\x1f]/;
