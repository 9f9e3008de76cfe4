import { SCHEMAS, type FieldError } from '@paysign/contracts';
import { validationFailed } from '../errors/api.exception';

const LIMIT = { min: SCHEMAS.PageLimit.minimum, max: SCHEMAS.PageLimit.maximum, default: SCHEMAS.PageLimit.default };
const CURSOR_PATTERN = new RegExp(SCHEMAS.Cursor.pattern);

/** What every listing says of a cursor it did not issue. */
export const FOREIGN_CURSOR = 'cursor is not one this service issued; pass the nextCursor of the previous page unchanged.';

/**
 * A query string read strictly, as bodies are: unknown and repeated
 * parameters are refused, and every problem is collected, to be answered at
 * once by `done()` as one 400 with `details`.
 */
export class StrictQuery {
  private readonly errors: FieldError[] = [];

  constructor(
    private readonly query: Record<string, unknown>,
    parameters: readonly string[],
  ) {
    for (const name of Object.keys(query)) {
      if (!parameters.includes(name)) this.errors.push({ field: name, code: 'unknown', message: `${name} is not a parameter of this operation; allowed parameters are ${parameters.join(', ')}.` });
    }
  }

  /** The parameter's one value; a repeated parameter is refused. */
  single(name: string): string | undefined {
    const value = this.query[name];
    if (value === undefined) return undefined;
    if (typeof value !== 'string') {
      this.errors.push({ field: name, code: 'repeated', message: `${name} must be given at most once.` });
      return undefined;
    }
    return value;
  }

  /** One of `allowed`, or `fallback` when absent. */
  oneOf<T extends string>(name: string, allowed: readonly T[], fallback: T): T;
  oneOf<T extends string>(name: string, allowed: readonly T[]): T | undefined;
  oneOf<T extends string>(name: string, allowed: readonly T[], fallback?: T): T | undefined {
    const raw = this.single(name);
    if (raw === undefined) return fallback;
    if ((allowed as readonly string[]).includes(raw)) return raw as T;
    this.refuse(name, 'enum', `${name} must be one of ${allowed.join(', ')}.`);
    return fallback;
  }

  /** The page size: the contract's PageLimit. */
  limit(): number {
    const raw = this.single('limit');
    if (raw === undefined) return LIMIT.default;
    if (/^[0-9]{1,3}$/.test(raw) && Number(raw) >= LIMIT.min && Number(raw) <= LIMIT.max) return Number(raw);
    this.refuse('limit', 'range', `limit must be a whole number from ${LIMIT.min} to ${LIMIT.max}.`);
    return LIMIT.default;
  }

  /**
   * The position a `cursor` names: the JSON array it encodes, read by
   * `read`, which answers the position or why the cursor is refused.
   */
  cursor<T>(read: (fields: unknown[]) => T | string, { parameter = 'cursor', foreign = FOREIGN_CURSOR }: { parameter?: string; foreign?: string } = {}): T | undefined {
    const raw = this.single(parameter);
    if (raw === undefined) return undefined;
    const fields = raw.length <= SCHEMAS.Cursor.maxLength && CURSOR_PATTERN.test(raw) ? cursorFields(raw) : undefined;
    const position = fields === undefined ? foreign : read(fields);
    if (typeof position === 'string') {
      this.refuse(parameter, 'invalid', position);
      return undefined;
    }
    return position;
  }

  refuse(field: string, code: string, message: string): void {
    this.errors.push({ field, code, message });
  }

  /** Throws the 400 with every problem found, if any. */
  done(): void {
    if (this.errors.length > 0) throw validationFailed(this.errors);
  }
}

/** A page's last position as an opaque cursor: base64url of a JSON array. */
export function encodeCursor(fields: unknown[]): string {
  return Buffer.from(JSON.stringify(fields)).toString('base64url');
}

function cursorFields(raw: string): unknown[] | undefined {
  try {
    const decoded: unknown = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
    return Array.isArray(decoded) ? decoded : undefined;
  } catch {
    return undefined;
  }
}
