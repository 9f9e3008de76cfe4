import fc from 'fast-check';
import { displayTextError, displayTextProblem, type DisplayTextProblem } from './display-text';

/** Every code point (surrogates aside) with a property, found by scanning: the generators below draw from these. */
function codePointsWhere(test: (character: string) => boolean): string[] {
  const found: string[] = [];
  for (let cp = 0; cp <= 0x10ffff; cp++) {
    if (cp >= 0xd800 && cp <= 0xdfff) continue;
    const character = String.fromCodePoint(cp);
    if (test(character)) found.push(character);
  }
  return found;
}
const FORMAT_OR_IGNORABLE = codePointsWhere((c) => /[\p{Cf}\p{Default_Ignorable_Code_Point}]/u.test(c));
const NON_IGNORABLE_MARKS = codePointsWhere((c) => /\p{M}/u.test(c) && !/\p{Default_Ignorable_Code_Point}/u.test(c));
const SPACES = codePointsWhere((c) => /\p{Zs}/u.test(c));
const BRAILLE_BLANK = '\u2800';
const HANGUL_FILLERS = ['\u115F', '\u1160', '\u3164', '\uFFA0'];

const pick = (characters: readonly string[]) => fc.integer({ min: 0, max: characters.length - 1 }).map((i) => characters[i] as string);
const range = (from: number, to: number, except: readonly number[] = []) =>
  Array.from({ length: to - from + 1 }, (_, i) => from + i)
    .filter((cp) => !except.includes(cp))
    .map((cp) => String.fromCodePoint(cp));

/** A word of one script: a base letter first, then letters, each perhaps with the script's combining marks. */
const word = (letters: readonly string[], marks: readonly string[] = []) =>
  fc
    .array(fc.tuple(pick(letters), fc.array(pick(marks.length ? marks : ['']), { maxLength: marks.length ? 2 : 0 })), { minLength: 1, maxLength: 8 })
    .map((parts) => parts.map(([letter, accents]) => letter + accents.join('')).join(''));
const SCRIPT_WORDS = [
  // Latin, precomposed accents and combining ones (U+0300–U+036F without U+034F, the combining grapheme joiner).
  word([...range(0x41, 0x5a), ...range(0x61, 0x7a), ...range(0xc0, 0xff, [0xd7, 0xf7])], range(0x300, 0x36f, [0x34f])),
  word(range(0x410, 0x44f)),
  // Arabic letters with their vowel marks.
  word([...range(0x621, 0x63a), ...range(0x641, 0x64a)], range(0x64b, 0x652)),
  word(range(0x4e00, 0x9fff)),
  // Yoruba: ẹ ọ ṣ, tones as combining marks, as in "Ọ̀".
  word(['a', 'b', 'd', 'e', 'ẹ', 'f', 'g', 'gb', 'i', 'j', 'k', 'o', 'ọ', 'Ọ', 'p', 'r', 's', 'ṣ', 't', 'u', 'w', 'y'], ['\u0300', '\u0301', '\u0323']),
  // Emoji without variation selectors, skin tones included.
  word([...range(0x1f600, 0x1f64f), '\u2764', '\u{1F44D}\u{1F3FD}', '\u{1F1F3}\u{1F1EC}']),
  fc.constantFrom('1042', 'No.', '#7', '(A&B)', '₦1,000.50', '—'),
];
const ordinaryText = fc.array(fc.oneof(...SCRIPT_WORDS), { minLength: 1, maxLength: 6 }).map((words) => words.join(' '));

/** The characters the issue reported accepted, each as part of a value and as the whole value. */
const REPORTED: Array<[string, string]> = [
  ['LRM', '\u200E'],
  ['RLM', '\u200F'],
  ['ALM', '\u061C'],
  ['a tag character', '\u{E0041}'],
  ['the Hangul filler', '\u3164'],
  ['the halfwidth Hangul filler', '\uFFA0'],
  ['the Hangul choseong filler', '\u115F'],
  ['the soft hyphen', '\u00AD'],
  ['function application', '\u2061'],
  ['invisible times', '\u2062'],
  ['invisible separator', '\u2063'],
  ['invisible plus', '\u2064'],
  ['the Mongolian vowel separator', '\u180E'],
  ['the combining grapheme joiner', '\u034F'],
  ['VS16', '\uFE0F'],
  ['inhibit symmetric swapping', '\u206A'],
  ['the interlinear annotation anchor', '\uFFF9'],
  ['the musical symbol begin beam', '\u{1D173}'],
];

describe('displayTextProblem', () => {
  it.each(REPORTED)('refuses %s inside a value and as the whole value', (_name, character) => {
    expect(displayTextProblem(`Ada${character}Obi`)).toBe('invisible_characters');
    expect(displayTextProblem(character)).toBe('invisible_characters');
  });

  it.each<[string, { given: string; want: DisplayTextProblem | undefined }]>([
    ['the braille blank alone', { given: '\u2800\u2800', want: 'no_visible_character' }],
    ['a braille blank between words', { given: 'Ada\u2800Obi', want: undefined }],
    ['combining marks alone', { given: '\u0301\u0323', want: 'no_visible_character' }],
    ['white space alone', { given: ' \u3000', want: 'no_visible_character' }],
    ['an empty value, left to the field rules', { given: '', want: undefined }],
    ['a newline', { given: 'Order\n1042', want: 'control_characters' }],
    ['a right-to-left override', { given: 'Ada \u202Egnp.exe', want: 'invisible_characters' }],
    ['a zero-width joiner in an emoji sequence', { given: '\u{1F469}\u200D\u{1F4BB}', want: 'invisible_characters' }],
    ['Yoruba with combining tones', { given: 'O\u0323\u0300la\u0301', want: undefined }],
    ['an emoji without a variation selector', { given: 'Thanks \u2764', want: undefined }],
  ])('judges %s', (_name, { given, want }) => {
    expect(displayTextProblem(given)).toBe(want);
  });

  it('refuses every format and default-ignorable character, anywhere in ordinary text', () => {
    fc.assert(
      fc.property(ordinaryText, pick(FORMAT_OR_IGNORABLE), fc.nat(), (text, invisible, at) => {
        const position = at % (text.length + 1);
        expect(displayTextProblem(text.slice(0, position) + invisible + text.slice(position))).toBe('invisible_characters');
      }),
      { numRuns: 2000 },
    );
  });

  it('refuses values made only of format and default-ignorable characters', () => {
    fc.assert(fc.property(fc.array(pick(FORMAT_OR_IGNORABLE), { minLength: 1, maxLength: 5 }), (characters) => {
      expect(displayTextProblem(characters.join(''))).toBe('invisible_characters');
    }));
  });

  it('refuses values that render blank: spaces, combining marks, braille blanks and Hangul fillers with no visible character', () => {
    const blank = fc.oneof(pick(SPACES), pick(NON_IGNORABLE_MARKS), fc.constant(BRAILLE_BLANK), pick(HANGUL_FILLERS));
    fc.assert(
      fc.property(fc.array(blank, { minLength: 1, maxLength: 8 }), (characters) => {
        const problem = displayTextProblem(characters.join(''));
        expect(problem).toBe(characters.some((c) => HANGUL_FILLERS.includes(c)) ? 'invisible_characters' : 'no_visible_character');
      }),
      { numRuns: 1000 },
    );
  });

  it('accepts ordinary text across scripts: accented Latin, Cyrillic, Arabic, CJK, Yoruba, emoji', () => {
    fc.assert(
      fc.property(ordinaryText, (text) => {
        expect(displayTextProblem(text)).toBeUndefined();
      }),
      { numRuns: 2000 },
    );
  });
});

describe('displayTextError', () => {
  it('names the invisible character to remove, by code point', () => {
    expect(displayTextError('customerName', 'Ada\u200EObi')).toEqual({
      field: 'customerName',
      code: 'invisible_characters',
      message: expect.stringContaining('U+200E') as string,
    });
  });

  it('names the braille blank when nothing visible is left', () => {
    expect(displayTextError('narration', '\u2800')).toMatchObject({ field: 'narration', code: 'no_visible_character', message: expect.stringContaining('U+2800') as string });
  });
});
