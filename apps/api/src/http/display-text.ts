import type { FieldError } from '@paysign/contracts';

/** Why a text value would not display as it reads; each is a stable field error code. */
export type DisplayTextProblem = 'control_characters' | 'invisible_characters' | 'no_visible_character';

/** C0 and C1 controls, and the line and paragraph separators: they break or garble the line the text is shown on. */
const CONTROL_CHARACTERS = /[\u0000-\u001F\u007F-\u009F\u2028\u2029]/;
/**
 * Format characters (general category Cf: bidi controls and marks, zero-width
 * characters, tags, invisible operators, the soft hyphen) and every
 * Default_Ignorable_Code_Point (variation selectors, the combining grapheme
 * joiner, the Hangul fillers): they draw nothing, or change how the text
 * around them displays. Refused by Unicode property rather than by a list, so
 * that no member is forgotten, including those Unicode adds later.
 */
const INVISIBLE_CHARACTERS = /[\p{Cf}\p{Default_Ignorable_Code_Point}]/u;
/** Characters that draw something: letters, digits, punctuation and symbols. Marks alone draw on nothing. */
const GRAPHIC_CHARACTER = /[\p{L}\p{N}\p{P}\p{S}]/u;
/** Letters and symbols by category that are drawn blank: the Hangul fillers and the braille blank. */
const DRAWN_BLANK = /[\u115F\u1160\u3164\uFFA0\u2800]/;

/**
 * The problem of a text value a person will read (a name on a checkout page,
 * a narration on a statement), or undefined: no controls, no invisible or
 * formatting characters, and, unless empty, at least one visible character.
 * Every text input is checked with this one function.
 */
export function displayTextProblem(value: string): DisplayTextProblem | undefined {
  if (CONTROL_CHARACTERS.test(value)) return 'control_characters';
  if (INVISIBLE_CHARACTERS.test(value)) return 'invisible_characters';
  if (value !== '' && !hasVisibleCharacter(value)) return 'no_visible_character';
  return undefined;
}

function hasVisibleCharacter(value: string): boolean {
  for (const character of value) {
    if (GRAPHIC_CHARACTER.test(character) && !DRAWN_BLANK.test(character)) return true;
  }
  return false;
}

/** The field error for text `value` sent as `field`, saying how to fix it; undefined when it displays as it reads. */
export function displayTextError(field: string, value: string): FieldError | undefined {
  const code = displayTextProblem(value);
  return code && { field, code, message: displayTextMessage(field, value, code) };
}

function displayTextMessage(field: string, value: string, problem: DisplayTextProblem): string {
  switch (problem) {
    case 'control_characters':
      return `${field} must not contain control characters such as newlines or tabs.`;
    case 'invisible_characters':
      return `${field} holds ${codePointOf(value, INVISIBLE_CHARACTERS)}, an invisible or formatting character (such as a bidi control, zero-width character, soft hyphen or variation selector); remove it.`;
    case 'no_visible_character':
      return `${field} must hold at least one visible character (a letter, digit, punctuation mark or symbol); white space, combining marks and blank characters such as U+2800 alone show nothing.`;
  }
}

/** The first character matching `pattern`, as U+XXXX: names what to remove without echoing the text. */
function codePointOf(value: string, pattern: RegExp): string {
  const character = [...value].find((c) => pattern.test(c)) ?? '';
  return `U+${(character.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
}
