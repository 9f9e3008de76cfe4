import { SigningError } from './errors';
import { isWellFormedUnicode } from './well-formed-unicode';

/** One field of a flat JSON object, with its value as it must be rendered when signed. */
export interface FlatField {
  key: string;
  /** Strings decoded, numbers as their exact source text, booleans as `true`/`false`; `null` for null. */
  text: string | null;
}

const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * Reads the raw bytes of a request body as a flat JSON object.
 *
 * It is written for hostile input: one forward pass with no recursion (a nested
 * value is refused at its first byte, so depth cannot overflow the stack), keys
 * collected in a Map (so `__proto__` is just a key), and numbers kept as their
 * source text (so `1000.50` and integers above 2^53 survive exactly).
 */
export function readFlatJsonObject(raw: string | Uint8Array, options: FlatJsonReadOptions = {}): FlatField[] {
  const text = typeof raw === 'string' ? raw : decodeUtf8(raw);
  return new FlatJsonReader(text, options.maxFields ?? Number.POSITIVE_INFINITY).readObject();
}

export interface FlatJsonReadOptions {
  /** Most fields the object may have; the reader refuses at the next key, before reading further. Default: no limit. */
  maxFields?: number;
}

function decodeUtf8(bytes: Uint8Array): string {
  try {
    return STRICT_UTF8.decode(bytes);
  } catch {
    throw new SigningError('INVALID_UTF8', 'The body is not valid UTF-8. Encode the JSON text as UTF-8 before sending and signing it.');
  }
}

class FlatJsonReader {
  private pos = 0;

  constructor(
    private readonly src: string,
    private readonly maxFields: number,
  ) {}

  readObject(): FlatField[] {
    this.skipWhitespace();
    const first = this.src[this.pos];
    if (first !== '{') {
      if (first === undefined) this.fail('the body is only whitespace');
      if (!VALUE_START.test(first)) this.fail('expected a JSON object');
      throw new SigningError('BODY_NOT_OBJECT', 'The body must be a JSON object ({...}); arrays, strings, numbers, booleans and null cannot be signed.');
    }
    this.pos++;
    const fields: FlatField[] = [];
    const seen = new Map<string, true>();
    this.skipWhitespace();
    if (this.src[this.pos] === '}') {
      this.pos++;
    } else {
      for (;;) {
        this.skipWhitespace();
        if (fields.length >= this.maxFields) {
          throw new SigningError('TOO_MANY_FIELDS', `The body has more than ${this.maxFields} fields. Send only the fields of the operation.`);
        }
        if (this.src[this.pos] !== '"') this.fail('expected a string key');
        const key = this.readString();
        if (seen.has(key)) {
          throw new SigningError('DUPLICATE_KEY', `Field "${key}" appears more than once. Send each field once.`);
        }
        seen.set(key, true);
        this.skipWhitespace();
        this.expect(':');
        this.skipWhitespace();
        fields.push({ key, text: this.readScalar(key) });
        this.skipWhitespace();
        const next = this.src[this.pos++];
        if (next === '}') break;
        if (next !== ',') this.fail("expected ',' or '}'", this.pos - 1);
      }
    }
    this.skipWhitespace();
    if (this.pos !== this.src.length) this.fail('unexpected data after the object');
    return fields;
  }

  private readScalar(key: string): string | null {
    const c = this.src[this.pos];
    if (c === '"') return this.readString();
    if (c === '{' || c === '[') {
      throw new SigningError(
        'NESTED_VALUE',
        `Field "${key}" holds an object or array. Only strings, numbers, booleans and null can be signed; send flat fields.`,
      );
    }
    if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) return this.readNumber();
    if (this.src.startsWith('true', this.pos)) return this.literal('true');
    if (this.src.startsWith('false', this.pos)) return this.literal('false');
    if (this.src.startsWith('null', this.pos)) {
      this.pos += 4;
      return null;
    }
    return this.fail('expected a value');
  }

  private literal(word: 'true' | 'false'): string {
    this.pos += word.length;
    return word;
  }

  private readNumber(): string {
    const match = NUMBER.exec(this.src.slice(this.pos, this.pos + MAX_NUMBER_LENGTH + 1));
    if (!match || match[0].length > MAX_NUMBER_LENGTH) this.fail('invalid number');
    this.pos += match[0].length;
    return match[0];
  }

  private readString(): string {
    this.pos++; // opening quote
    let out = '';
    let chunkStart = this.pos;
    for (;;) {
      const code = this.src.charCodeAt(this.pos);
      if (Number.isNaN(code)) this.fail('unterminated string');
      if (code === 0x22) break;
      if (code < 0x20) this.fail('unescaped control character in a string');
      if (code === 0x5c) {
        out += this.src.slice(chunkStart, this.pos);
        out += this.readEscape();
        chunkStart = this.pos;
        continue;
      }
      this.pos++;
    }
    out += this.src.slice(chunkStart, this.pos);
    this.pos++; // closing quote
    if (!isWellFormedUnicode(out)) {
      throw new SigningError('INVALID_UTF8', 'A string holds an unpaired surrogate escape (\\uD800-\\uDFFF), which has no UTF-8 form. Send well-formed Unicode.');
    }
    return out;
  }

  private readEscape(): string {
    const c = this.src[this.pos + 1];
    this.pos += 2;
    switch (c) {
      case '"': return '"';
      case '\\': return '\\';
      case '/': return '/';
      case 'b': return '\b';
      case 'f': return '\f';
      case 'n': return '\n';
      case 'r': return '\r';
      case 't': return '\t';
      case 'u': {
        const hex = this.src.slice(this.pos, this.pos + 4);
        if (!/^[0-9A-Fa-f]{4}$/.test(hex)) this.fail('invalid \\u escape', this.pos - 2);
        this.pos += 4;
        return String.fromCharCode(parseInt(hex, 16));
      }
      default:
        return this.fail('invalid escape', this.pos - 2);
    }
  }

  private skipWhitespace(): void {
    for (;;) {
      const c = this.src.charCodeAt(this.pos);
      if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) return;
      this.pos++;
    }
  }

  private expect(char: string): void {
    if (this.src[this.pos] !== char) this.fail(`expected '${char}'`);
    this.pos++;
  }

  private fail(reason: string, at: number = this.pos): never {
    throw new SigningError('INVALID_JSON', `The body is not valid JSON: ${reason} at character ${at}. Send the exact JSON text you signed.`);
  }
}

/** First characters of the JSON values that are not objects. */
const VALUE_START = /^[["\-0-9tfn]$/;
const NUMBER = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/;
/** Longer numbers are refused rather than scanned: no amount needs more digits. */
const MAX_NUMBER_LENGTH = 4096;
