import type { CellKind, CellValue } from '../db/report-definition';
import { majorUnitsText } from '../money/money';

/**
 * The cells of a report, by kind. What a kind means is stated once here, and
 * docs/reports.md says it to merchants:
 *
 * - `text`: what a merchant or a customer wrote (names, emails, references,
 *   narrations, notes). A spreadsheet would run one that starts like a
 *   formula, so, as OWASP's CSV injection guidance says, one that starts
 *   with `=`, `+`, `-`, `@`, a tab or a carriage return gets a single quote
 *   in front: the spreadsheet shows it as text, and a program reading the
 *   file sees the quote.
 * - `code`: one of the service's own closed sets of values (a status, a
 *   currency, an entry type) or a cursor; never starts like a formula, kept as it is.
 * - `amount`: minor units (kobo) written in major units (naira) with exactly
 *   two decimals, from the integer, never through a float: `1500.50`,
 *   `-12.05`. Our own numbers, kept as they are so that a spreadsheet sums
 *   them, a leading minus included.
 * - `time`: an instant, RFC 3339 in UTC to the millisecond, as the JSON API writes it.
 *
 * Null is an empty cell in every kind.
 */

/** The characters a spreadsheet reads as the start of a formula (OWASP, CSV injection). */
const FORMULA_START = /^[=+\-@\t\r]/;

/** A merchant's or customer's text, with a single quote in front when a spreadsheet would take it for a formula. */
export function neutralisedText(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

/** Minor units as major units with exactly two decimals (money.ts). */
export const majorUnits = majorUnitsText;

/** One cell's text, by its column's kind; a value of the wrong type for its kind is a bug in the report, and throws. */
export function cellText(kind: CellKind, value: CellValue): string {
  if (value === null) return '';
  switch (kind) {
    case 'text':
      return neutralisedText(expect(value, 'string', kind));
    case 'code':
      return expect(value, 'string', kind);
    case 'amount':
      return majorUnits(expect(value, 'bigint', kind));
    case 'time':
      if (!(value instanceof Date)) throw new TypeError(`a time cell takes a Date, not ${typeof value}`);
      return value.toISOString();
  }
}

function expect<T extends 'string' | 'bigint'>(value: CellValue, type: T, kind: CellKind): T extends 'string' ? string : bigint {
  if (typeof value !== type) throw new TypeError(`a ${kind} cell takes a ${type}, not ${value instanceof Date ? 'Date' : typeof value}`);
  return value as T extends 'string' ? string : bigint;
}
