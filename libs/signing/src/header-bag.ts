/** Request headers keyed by lower-case name; a header sent more than once is an array. */
export type HeaderBag = Readonly<Record<string, string | readonly string[] | undefined>>;

/**
 * Builds the header bag from name/value pairs in the order received, so that
 * a header sent twice is seen as two values: Node would join them with ", ",
 * and verification must refuse a duplicated signing header instead.
 */
export function headerBagFromPairs(pairs: Iterable<readonly [name: string, value: string]>): HeaderBag {
  // No prototype: a header named __proto__ is a header like any other.
  const bag: Record<string, string | string[]> = Object.create(null) as Record<string, string | string[]>;
  for (const [rawName, value] of pairs) {
    const name = rawName.toLowerCase();
    const existing = bag[name];
    if (existing === undefined) bag[name] = value;
    else bag[name] = Array.isArray(existing) ? [...existing, value] : [existing, value];
  }
  return bag;
}

/** The header bag of Node's `rawHeaders`: names and values alternating, as received. */
export function headerBagFromRaw(rawHeaders: readonly string[]): HeaderBag {
  const pairs: Array<[string, string]> = [];
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) pairs.push([rawHeaders[i] as string, rawHeaders[i + 1] as string]);
  return headerBagFromPairs(pairs);
}
