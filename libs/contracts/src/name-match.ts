// How a name a merchant expects is compared with an enquired one: the service refuses a payout by it (ACCOUNT_NAME_MISMATCH), and the CLI's batch dry run predicts that refusal by the same rule.

import type { NameMatch } from './schemas';

/**
 * A person's or business's name as a set of words to compare: accents and
 * case dropped, punctuation and runs of spaces made one space, the words
 * sorted. "Nwosu, Adaeze" and "ADAEZE  NWOSU" are the same name.
 */
export function nameWords(name: string): string[] {
  return name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toUpperCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()
    .split(' ')
    .filter((word) => word !== '')
    .sort();
}

/** Whether two names are the same once normalised: what a changed name at dispatch is judged by. */
export function sameName(a: string, b: string): boolean {
  return nameWords(a).join(' ') === nameWords(b).join(' ');
}

/**
 * How the name a merchant expects compares with the enquired one: `exact`
 * when the words are the same; `partial` when every word of the shorter name
 * is in the longer (a middle name left out) or two words are shared (a
 * surname and a first name, with a third that differs); `none` otherwise.
 */
export function matchName(expected: string, enquired: string): Exclude<NameMatch, 'not_checked'> | 'none' {
  const [a, b] = [nameWords(expected), nameWords(enquired)];
  if (a.length === 0 || b.length === 0) return 'none';
  if (a.join(' ') === b.join(' ')) return 'exact';
  const [shorter, longer] = a.length <= b.length ? [a, b] : [b, a];
  const shared = shorter.filter((word) => longer.includes(word)).length;
  return shared === shorter.length || shared >= 2 ? 'partial' : 'none';
}
