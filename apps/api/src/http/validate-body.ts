import type { FieldError } from '@paysign/contracts';
import { validateSync, type ValidationError } from 'class-validator';
import { validationFailed } from '../errors/api.exception';
import { displayTextError } from './display-text';

/** Set by bench:server --ablate's variants that switch `validation` off (apps/api/bench/bench-server.ts); nothing in the service sets it. */
let validationSwitchedOffForBench = false;

/** bench:server --ablate only: bodies are taken as sent, to measure what validating them costs. */
export function switchOffBodyValidationForBench(): void {
  validationSwitchedOffForBench = true;
}

/**
 * Validates a parsed body against a DTO. Unknown fields are refused, as Stripe
 * does, so that a typo never silently drops data; so is any string that would
 * not display as it reads (displayTextError). Every failing field is reported at once.
 */
export function validateBody<T extends object>(dto: new () => T, allowedFields: readonly string[], body: Record<string, unknown>, extraErrors: FieldError[] = []): T {
  if (validationSwitchedOffForBench) return body as T;
  const errors: FieldError[] = [];
  // Nothing visible is reported last, so that a field's own rule (a pattern, a type) speaks first when it fails too.
  const blanks: FieldError[] = [];
  for (const [field, value] of Object.entries(body)) {
    const textError = typeof value === 'string' ? displayTextError(field, value) : undefined;
    if (!allowedFields.includes(field)) {
      errors.push({ field, code: 'unknown', message: `${field} is not a field of this operation; allowed fields are ${allowedFields.join(', ')}.` });
    } else if (textError?.code === 'no_visible_character') {
      blanks.push(textError);
    } else if (textError) {
      errors.push(textError);
    }
  }
  // Only known fields reach the instance, so keys like __proto__ never do. No DTO transforms a field (no class-transformer decorator), so
  // the instance is the fields as sent: class-transformer's plainToInstance made the same, its transform alone 0.8 % of a payin create's CPU profile.
  const instance = new dto();
  for (const [field, value] of Object.entries(body)) {
    if (allowedFields.includes(field)) (instance as Record<string, unknown>)[field] = value;
  }
  for (const error of validateSync(instance, { forbidUnknownValues: true, validationError: { target: false, value: false } })) {
    if (errors.some((e) => e.field === error.property)) continue;
    errors.push(toFieldError(error));
  }
  errors.push(...extraErrors.filter((extra) => !errors.some((e) => e.field === extra.field)));
  errors.push(...blanks.filter((blank) => !errors.some((e) => e.field === blank.field)));
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

/** The body of an operation that takes no fields (`{}`): any field is refused, as an unknown field of any body is. */
export function refuseFields(body: Record<string, unknown>): void {
  const fields = Object.keys(body);
  if (fields.length > 0) throw validationFailed(fields.map((field) => ({ field, code: 'unknown', message: `${field} is not a field of this operation, which takes none; send {}.` })));
}
