import type { FieldError } from '@paysign/contracts';
import { plainToInstance, type ClassConstructor } from 'class-transformer';
import { validateSync, type ValidationError } from 'class-validator';
import { validationFailed } from '../errors/api.exception';

const CONTROL_CHARACTERS = /[\u0000-\u001F\u007F-\u009F\u2028\u2029]/;
/** Bidi controls (U+202A–U+202E, U+2066–U+2069) and zero-width characters: they make text display other than it reads. */
const INVISIBLE_CHARACTERS = /[\u200B-\u200D\u2060\uFEFF\u202A-\u202E\u2066-\u2069]/;

/**
 * Validates a parsed body against a DTO. Unknown fields are refused, as Stripe
 * does, so that a typo never silently drops data; so are control, bidi and
 * zero-width characters in any string. Every failing field is reported at once.
 */
export function validateBody<T extends object>(dto: ClassConstructor<T>, allowedFields: readonly string[], body: Record<string, unknown>, extraErrors: FieldError[] = []): T {
  const errors: FieldError[] = [];
  for (const [field, value] of Object.entries(body)) {
    if (!allowedFields.includes(field)) {
      errors.push({ field, code: 'unknown', message: `${field} is not a field of this operation; allowed fields are ${allowedFields.join(', ')}.` });
    } else if (typeof value === 'string' && CONTROL_CHARACTERS.test(value)) {
      errors.push({ field, code: 'control_characters', message: `${field} must not contain control characters such as newlines or tabs.` });
    } else if (typeof value === 'string' && INVISIBLE_CHARACTERS.test(value)) {
      errors.push({ field, code: 'invisible_characters', message: `${field} must not contain bidirectional controls (U+202A to U+202E, U+2066 to U+2069) or zero-width characters.` });
    }
  }
  // Only known fields reach class-transformer, so keys like __proto__ never do.
  const known = Object.fromEntries(Object.entries(body).filter(([field]) => allowedFields.includes(field)));
  const instance = plainToInstance(dto, known, { enableImplicitConversion: false });
  for (const error of validateSync(instance, { forbidUnknownValues: true, validationError: { target: false, value: false } })) {
    if (errors.some((e) => e.field === error.property)) continue;
    errors.push(toFieldError(error));
  }
  errors.push(...extraErrors.filter((extra) => !errors.some((e) => e.field === extra.field)));
  if (errors.length > 0) throw validationFailed(errors);
  return instance;
}

function toFieldError(error: ValidationError): FieldError {
  const [code, message] = Object.entries(error.constraints ?? { invalid: `${error.property} is invalid.` })[0] as [string, string];
  return { field: error.property, code: constraintCode(code), message: message.endsWith('.') ? message : `${message}.` };
}

const CONSTRAINT_CODES: Record<string, string> = {
  isDefined: 'required',
  matches: 'pattern',
  isString: 'type',
  isNumber: 'type',
  isEmail: 'format',
  isIn: 'enum',
  isPositive: 'minimum',
  max: 'maximum',
  maxLength: 'max_length',
  isLength: 'length',
};

function constraintCode(constraint: string): string {
  return CONSTRAINT_CODES[constraint] ?? constraint;
}
