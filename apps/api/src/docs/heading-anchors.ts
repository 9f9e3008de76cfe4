/**
 * The anchor GitHub gives a heading, from its text: lower case, every
 * character but letters, marks, digits, connector punctuation (`_`), spaces
 * and hyphens dropped, and each space a hyphen. `## PaysignLedgerBroken` is
 * `#paysignledgerbroken`, so a link made for the file on GitHub lands on the
 * served page too.
 */
export function headingAnchor(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** The anchors of a page's headings, in order, made unique as GitHub makes them: `x`, then `x-1`, `x-2`. */
export class HeadingAnchors {
  private readonly occurrences = new Map<string, number>();

  next(text: string): string {
    const base = headingAnchor(text);
    let anchor = base;
    while (this.occurrences.has(anchor)) {
      const count = (this.occurrences.get(base) ?? 0) + 1;
      this.occurrences.set(base, count);
      anchor = `${base}-${count}`;
    }
    this.occurrences.set(anchor, 0);
    return anchor;
  }
}
