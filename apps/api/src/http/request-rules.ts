import { SCHEMAS, type FieldError } from '@paysign/contracts';
import { validationFailed } from '../errors/api.exception';

// The rules every create request shares (payins, payouts), read from the contract.

export const REFERENCE_PATTERN = new RegExp(SCHEMAS.Reference.pattern);
export const REFERENCE_RULE = `reference must be ${SCHEMAS.Reference.minLength} to ${SCHEMAS.Reference.maxLength} characters from [A-Za-z0-9._-], not only dots.`;
/** The amount as written: plain decimal notation, at most 2 decimal places (checked on the bytes sent; see amountTextErrors). */
export const AMOUNT_TEXT_PATTERN = /^-?(0|[1-9][0-9]*)(\.[0-9]{1,2})?$/;
export const AMOUNT_RULE = 'amount must be a number in major units, in plain decimal notation with at most 2 decimal places, such as 1000.50.';

/**
 * The amount's decimal places, counted on the text the client sent rather
 * than on the parsed number: `1.005`, `1e-7` and `1E-2` are refused as
 * written, whatever double they parse to.
 */
export function amountTextErrors(amountText: string | undefined, field = 'amount'): FieldError[] {
  if (amountText === undefined || AMOUNT_TEXT_PATTERN.test(amountText)) return [];
  return [{ field, code: 'format', message: AMOUNT_RULE.replace(/^amount/, field) }];
}

/** A path reference outside the grammar is a 400 naming it, not a lookup that cannot match. */
export function checkedReference(reference: string): string {
  if (!REFERENCE_PATTERN.test(reference)) throw validationFailed([{ field: 'reference', code: 'pattern', message: REFERENCE_RULE }]);
  return reference;
}
